/**
 * participants.ts: the operator suspends a client or a broker (a user id) and reinstates them. The
 * suspension cancels exactly their live orders in one command, refuses their new orders, modifications
 * and activations (and a suspended client's new OTC deals) with PARTICIPANT_SUSPENDED, and lives in
 * the snapshot and the state hash, so a replay and a restart make the same decisions.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../server/engine/engine.ts';
import type { EngineSnapshot } from '../../../server/engine/snapshot.ts';
import type { EngineCommand, EngineResult, RegisterOffBookTradeCommand } from '../../../server/engine/types.ts';
import { ASSET, expectConsistent, harness, type Harness } from './helpers.ts';

const ADMIN = 'u-admin';

/** The harness with every command recorded, and its state before the first recorded one. */
function setUp(): { h: Harness; log: EngineCommand[]; base: EngineSnapshot } {
  const h = harness();
  const base = JSON.parse(JSON.stringify(h.engine.exportState())) as EngineSnapshot;
  const log: EngineCommand[] = [];
  const run = h.run.bind(h);
  h.run = (command) => {
    log.push(command);
    const r = run(command);
    expect(h.engine.validateInternalState()).toEqual([]);
    return r;
  };
  return { h, log, base };
}

/** An order entered by `userId` (the actor a broker's REST call carries). */
function placeBy(h: Harness, userId: string, way: 'bid' | 'ask', price: number, qty: number, clientCode: string): number {
  const r = h.run({ type: 'addOrder', at: h.now, actor: { userId, brokerId: 'BR1', agencyId: 'AG1' }, assetId: ASSET, clientCode, way, price, qty, validityType: 'GTC' });
  expect(r.result, JSON.stringify(r.params ?? {})).toBe('OK');
  return r.orderId!;
}

const suspend = (h: Harness, kind: 'client' | 'broker', id: string): EngineResult =>
  h.run({ type: 'suspendParticipant', at: h.now, actor: { userId: ADMIN }, kind, id, reason: 'unpaid margin call', by: ADMIN });
const reinstate = (h: Harness, kind: 'client' | 'broker', id: string): EngineResult => h.run({ type: 'reinstateParticipant', at: h.now, kind, id, by: ADMIN });
const live = (h: Harness): number[] => h.engine.listOrders({}).map((o) => o.orderId);

function otc(h: Harness, fields: Partial<RegisterOffBookTradeCommand> = {}): RegisterOffBookTradeCommand {
  return {
    type: 'registerOffBookTrade', at: h.now, assetId: ASSET, buyer: 'C1', seller: 'C2', price: 10_000, qty: 10, origin: 'otc',
    parentTransactionId: null, grandParentTransactionId: null, transferTimestamp: null, splitTimestamp: null, externalTransactionId: null, marginsExposureActive: false,
    ...fields,
  };
}

describe('suspendParticipant: a client', () => {
  it("cancels exactly the client's live orders (resting and suspended) in one command, with an event that journals it", () => {
    const { h } = setUp();
    const a = h.place('bid', 10_000, 5, 'C1');
    const b = h.place('bid', 9_000, 2, 'C1');
    expect(h.suspend(b).result).toBe('OK');
    const other = h.place('ask', 11_000, 5, 'C2');
    const r = suspend(h, 'client', 'C1');
    expect(r.result).toBe('OK');
    expect(r.cancelled).toEqual([a, b]);
    const orderEvents = r.events.flatMap((e) => (e.type === 'order' ? [[e.orderId, e.kind]] : []));
    expect(orderEvents).toEqual([[a, 'cancelled'], [b, 'cancelled']]);
    expect(r.events.at(-1)).toMatchObject({ type: 'config', kind: 'participant', id: 'client:C1' });
    expect(live(h)).toEqual([other]);
    expect(h.engine.getClientFinancials('C1')).toMatchObject({ openValue: 0, reservedMargin: 0 });
    expect(h.engine.getSuspension('client', 'C1')).toMatchObject({ kind: 'client', id: 'C1', by: ADMIN, reason: 'unpaid margin call' });
    expectConsistent(h);
  });

  it('cancels whatever the trader-side cancel rules say (the phase forbids a trader to cancel)', () => {
    const { h } = setUp();
    const a = h.place('bid', 10_000, 5, 'C1');
    h.phase('closed');
    expect(h.cancel(a).result).toBe('SESSION_PHASE_FORBIDS');
    expect(suspend(h, 'client', 'C1').cancelled).toEqual([a]);
    expect(live(h)).toEqual([]);
  });

  it('refuses the client\'s new orders with PARTICIPANT_SUSPENDED until reinstated; other clients trade on', () => {
    const { h } = setUp();
    suspend(h, 'client', 'C1');
    expect(h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 10_000, qty: 1 })).toMatchObject({ result: 'PARTICIPANT_SUSPENDED', params: { participant: 'C1' }, events: [] });
    h.place('bid', 10_000, 1, 'C3');
    expect(reinstate(h, 'client', 'C1')).toMatchObject({ result: 'OK', events: [{ type: 'config', kind: 'participant', id: 'client:C1' }] });
    expect(h.engine.getSuspension('client', 'C1')).toBeUndefined();
    h.place('bid', 10_000, 1, 'C1');
    expectConsistent(h);
  });

  it('refuses twice, an unknown client, a reinstatement of nobody, and a malformed command', () => {
    const { h } = setUp();
    expect(suspend(h, 'client', 'NOPE')).toMatchObject({ result: 'PARTICIPANT_NOT_FOUND', params: { participant: 'NOPE' } });
    expect(reinstate(h, 'client', 'C1')).toMatchObject({ result: 'PARTICIPANT_NOT_SUSPENDED', params: { participant: 'C1' } });
    suspend(h, 'client', 'C1');
    expect(suspend(h, 'client', 'C1')).toMatchObject({ result: 'PARTICIPANT_ALREADY_SUSPENDED', params: { participant: 'C1' } });
    expect(h.run({ type: 'suspendParticipant', at: h.now, kind: 'agency', id: 'AG1', reason: 'x', by: ADMIN } as never)).toMatchObject({ result: 'REQUEST_INVALID', params: { field: 'kind' } });
    expect(h.run({ type: 'reinstateParticipant', at: h.now, kind: 'broker', id: '', by: ADMIN })).toMatchObject({ result: 'REQUEST_INVALID', params: { field: 'id' } });
  });

  it('blocks new OTC deals of the client, either side; other clients register', () => {
    const { h } = setUp();
    suspend(h, 'client', 'C2');
    expect(h.run(otc(h))).toMatchObject({ result: 'PARTICIPANT_SUSPENDED', params: { participant: 'C2' } });
    expect(h.run(otc(h, { buyer: 'C2', seller: 'C3' }))).toMatchObject({ result: 'PARTICIPANT_SUSPENDED', params: { participant: 'C2' } });
    expect(h.run(otc(h, { buyer: 'C1', seller: 'C3' })).result).toBe('OK');
    reinstate(h, 'client', 'C2');
    expect(h.run(otc(h)).result).toBe('OK');
  });

  it('lets the post-trade of an existing deal go on (margin exposure of its transaction)', () => {
    const { h } = setUp();
    const deal = h.run(otc(h));
    const transactionId = deal.events.flatMap((e) => (e.type === 'offBookTrade' ? [Number(e.transaction.transactionId)] : []))[0]!;
    suspend(h, 'client', 'C1');
    expect(h.run({ type: 'setTransactionMarginsExposure', at: h.now, transactionId, active: true }).result).toBe('OK');
  });
});

describe('suspendParticipant: a broker (a user id)', () => {
  it('cancels the orders that user entered, for any client, and leaves the others of the same clients', () => {
    const { h } = setUp();
    const mine1 = placeBy(h, 'u-broker1', 'bid', 10_000, 1, 'C1');
    const mine2 = placeBy(h, 'u-broker1', 'ask', 12_000, 1, 'C2');
    const theirs = placeBy(h, 'u-owner1', 'bid', 9_000, 1, 'C1');
    const anonymous = h.place('bid', 8_000, 1, 'C1');
    const r = suspend(h, 'broker', 'u-broker1');
    expect(r.cancelled).toEqual([mine1, mine2]);
    expect(live(h)).toEqual([theirs, anonymous]);
  });

  it("refuses the user's new orders, modifications and activations; other users act on the same clients", () => {
    const { h } = setUp();
    const theirs = placeBy(h, 'u-owner1', 'bid', 9_000, 1, 'C1');
    const parked = placeBy(h, 'u-owner1', 'bid', 8_000, 1, 'C1');
    expect(h.run({ type: 'suspendOrder', at: h.now, orderId: parked, actor: { userId: 'u-owner1' } }).result).toBe('OK');
    suspend(h, 'broker', 'u-broker1');
    const actor = { userId: 'u-broker1', brokerId: 'BR1', agencyId: 'AG1' };
    expect(h.run({ type: 'addOrder', at: h.now, actor, assetId: ASSET, clientCode: 'C1', way: 'bid', price: 10_000, qty: 1, validityType: 'GTC' })).toMatchObject({
      result: 'PARTICIPANT_SUSPENDED',
      params: { participant: 'u-broker1' },
    });
    expect(h.run({ type: 'modifyOrder', at: h.now, actor, orderId: theirs, qty: 2 })).toMatchObject({ result: 'PARTICIPANT_SUSPENDED', params: { participant: 'u-broker1' } });
    expect(h.run({ type: 'activateOrder', at: h.now, actor, orderId: parked })).toMatchObject({ result: 'PARTICIPANT_SUSPENDED', params: { participant: 'u-broker1' } });
    // cancelling stays possible (it only lowers the risk)
    expect(h.run({ type: 'cancelOrder', at: h.now, actor, orderId: parked }).result).toBe('OK');
    expect(h.run({ type: 'modifyOrder', at: h.now, actor: { userId: 'u-owner1' }, orderId: theirs, qty: 2 }).result).toBe('OK');
    reinstate(h, 'broker', 'u-broker1');
    expect(h.run({ type: 'modifyOrder', at: h.now, actor, orderId: theirs, qty: 3 }).result).toBe('OK');
    placeBy(h, 'u-broker1', 'bid', 10_000, 1, 'C1');
    expectConsistent(h);
  });

  it('a suspended client is named before a suspended broker', () => {
    const { h } = setUp();
    suspend(h, 'broker', 'u-broker1');
    suspend(h, 'client', 'C1');
    expect(h.run({ type: 'addOrder', at: h.now, actor: { userId: 'u-broker1' }, assetId: ASSET, clientCode: 'C1', way: 'bid', price: 10_000, qty: 1, validityType: 'GTC' })).toMatchObject({
      params: { participant: 'C1' },
    });
  });
});

describe('replay and snapshot', () => {
  it('a replay and a restart from a snapshot reach the same state hash and make the same decisions', () => {
    const { h, log, base } = setUp();
    placeBy(h, 'u-broker1', 'bid', 10_000, 5, 'C1');
    placeBy(h, 'u-owner1', 'ask', 11_000, 5, 'C2');
    const before = h.engine.stateHash();
    const snapshot = JSON.parse(JSON.stringify(h.engine.exportState())) as EngineSnapshot;
    expect(snapshot.orders.map((o) => o.enteredBy)).toEqual(['u-broker1', 'u-owner1']);
    const split = log.length;
    suspend(h, 'broker', 'u-broker1');
    suspend(h, 'client', 'C3');
    // the suspension is part of the state: the hash moves, and back when reinstated (the cancelled order stays gone)
    expect(h.engine.stateHash()).not.toBe(before);

    const replayed = Engine.fromSnapshot(base);
    for (const command of log) replayed.execute(command);
    expect(replayed.stateHash()).toBe(h.engine.stateHash());

    const fromBefore = Engine.fromSnapshot(snapshot);
    for (const command of log.slice(split)) fromBefore.execute(command);
    expect(fromBefore.stateHash()).toBe(h.engine.stateHash());

    const restarted = Engine.fromSnapshot(JSON.parse(JSON.stringify(h.engine.exportState())) as EngineSnapshot);
    expect(restarted.stateHash()).toBe(h.engine.stateHash());
    expect(restarted.validateInternalState()).toEqual([]);
    expect(restarted.getSuspension('broker', 'u-broker1')).toMatchObject({ reason: 'unpaid margin call' });
    const next: EngineCommand = { type: 'addOrder', at: h.now, actor: { userId: 'u-broker1' }, assetId: ASSET, clientCode: 'C1', way: 'bid', price: 10_000, qty: 1, validityType: 'GTC' };
    const r = restarted.execute(next);
    expect(r.result).toBe('PARTICIPANT_SUSPENDED');
    expect(JSON.stringify(r)).toBe(JSON.stringify(h.engine.execute(next)));
    const client: EngineCommand = { type: 'addOrder', at: h.now, actor: { userId: 'u-x' }, assetId: ASSET, clientCode: 'C3', way: 'bid', price: 10_000, qty: 1, validityType: 'GTC' };
    expect(restarted.execute(client)).toMatchObject({ result: 'PARTICIPANT_SUSPENDED', params: { participant: 'C3' } });
  });

  it('validateInternalState flags a live order of a suspended participant', () => {
    const { h } = setUp();
    const snapshot = JSON.parse(JSON.stringify(h.engine.exportState())) as EngineSnapshot;
    h.place('bid', 10_000, 1, 'C1');
    const withOrder = JSON.parse(JSON.stringify(h.engine.exportState())) as EngineSnapshot;
    withOrder.suspensions = [{ kind: 'client', id: 'C1', at: 1, by: ADMIN, reason: 'x' }];
    expect(Engine.fromSnapshot(withOrder).validateInternalState().join('\n')).toMatch(/suspended client C1/);
    expect(Engine.fromSnapshot(snapshot).validateInternalState()).toEqual([]);
  });
});
