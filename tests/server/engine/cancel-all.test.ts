/**
 * cancel-all.ts: the kill switch as one engine command. What it cancels, what it must leave (with the
 * refusal a cancelOrder would get), and that a replay and a snapshot give the same state.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../server/engine/engine.ts';
import type { EngineSnapshot } from '../../../server/engine/snapshot.ts';
import type { EngineCommand, EngineResult } from '../../../server/engine/types.ts';
import { assetConfig, ASSET, expectConsistent, harness, MARKET, type Harness } from './helpers.ts';

const OTHER_MARKET = 'POWER-SPOT';
const SECOND = 'GAS-WD';
const POWER = 'PWR-DA';

/** GAS-DA and GAS-WD on GAS-SPOT, PWR-DA on POWER-SPOT, all trading; every command recorded. */
function setUp(): { h: Harness; log: EngineCommand[]; base: EngineSnapshot } {
  const h = harness();
  // The harness's own set-up, as the state the recorded commands start from.
  const base = JSON.parse(JSON.stringify(h.engine.exportState())) as EngineSnapshot;
  const log: EngineCommand[] = [];
  const run = h.run.bind(h);
  h.run = (command) => {
    log.push(command);
    return run(command);
  };
  h.ok({ type: 'upsertMarket', at: h.now, market: { marketId: OTHER_MARKET, currency: 'RON' } });
  h.ok({ type: 'upsertAsset', at: h.now, asset: assetConfig({ assetId: SECOND }) });
  h.ok({ type: 'upsertAsset', at: h.now, asset: assetConfig({ assetId: POWER, marketId: OTHER_MARKET }) });
  h.ok({ type: 'setPhase', at: h.now, marketId: OTHER_MARKET, phase: 'trading', sessionDate: '2026-11-23' });
  h.phase('trading', SECOND);
  return { h, log, base };
}

const cancelAll = (h: Harness, fields: Partial<Extract<EngineCommand, { type: 'cancelAll' }>> = {}): EngineResult =>
  h.ok({ type: 'cancelAll', at: h.now, actor: { agencyId: 'AG1' }, clientCodes: ['C1', 'C2'], ...fields });

const live = (h: Harness) => h.engine.listOrders({}).map((o) => o.orderId);

describe('cancelAll', () => {
  it('cancels the live orders (resting and suspended) of the listed clients only, in one command', () => {
    const { h } = setUp();
    const bid = h.place('bid', 10_000, 5, 'C1');
    const ask = h.place('ask', 11_000, 5, 'C2');
    const suspended = h.place('bid', 9_000, 2, 'C1', { assetId: POWER });
    expect(h.suspend(suspended).result).toBe('OK');
    const other = h.place('bid', 9_500, 3, 'C3');
    expect(live(h)).toHaveLength(4);

    const r = cancelAll(h);
    expect(r.cancelled).toEqual([bid, ask, suspended]);
    expect(r.refused).toEqual([]);
    expect(live(h)).toEqual([other]);
    const kinds = r.events.filter((e) => e.type === 'order').map((e) => (e.type === 'order' ? [e.orderId, e.kind, e.reason] : []));
    expect(kinds).toEqual([[bid, 'cancelled', 'user'], [ask, 'cancelled', 'user'], [suspended, 'cancelled', 'user']]);
    // Reservations are given back as a cancel gives them back.
    expect(h.engine.getClientFinancials('C1')).toMatchObject({ openValue: 0, reservedMargin: 0 });
    expectConsistent(h);
    // Nothing left: no event, so the sequencer journals nothing.
    const again = cancelAll(h);
    expect(again).toMatchObject({ cancelled: [], refused: [], events: [] });
  });

  it('filters by asset and by market', () => {
    const { h } = setUp();
    const gas = h.place('bid', 10_000, 1, 'C1');
    const gasWd = h.place('bid', 10_000, 1, 'C1', { assetId: SECOND });
    const power = h.place('bid', 10_000, 1, 'C1', { assetId: POWER });
    expect(cancelAll(h, { assetId: SECOND }).cancelled).toEqual([gasWd]);
    expect(live(h)).toEqual([gas, power]);
    expect(cancelAll(h, { marketId: OTHER_MARKET }).cancelled).toEqual([power]);
    expect(cancelAll(h, { marketId: MARKET, assetId: POWER }).cancelled).toEqual([]);
    expect(live(h)).toEqual([gas]);
    expect(cancelAll(h, { marketId: MARKET, assetId: ASSET }).cancelled).toEqual([gas]);
    expectConsistent(h);
  });

  it('leaves what the phase, the asset flags or the agency forbid to cancel, with the code', () => {
    const { h } = setUp();
    const kept = h.place('bid', 10_000, 1, 'C1', { assetId: SECOND });
    const closedOne = h.place('bid', 10_000, 1, 'C2', { assetId: POWER });
    const gone = h.place('bid', 10_000, 1, 'C1');
    h.ok({ type: 'upsertAsset', at: h.now, asset: assetConfig({ assetId: SECOND, flags: { noCancel: true } }) });
    h.ok({ type: 'setPhase', at: h.now, marketId: OTHER_MARKET, phase: 'closed' });
    const r = cancelAll(h);
    expect(r.cancelled).toEqual([gone]);
    expect(r.refused).toEqual([
      { orderId: kept, code: 'ORDER_NOT_CANCELLABLE', params: {} },
      { orderId: closedOne, code: 'SESSION_PHASE_FORBIDS', params: { phase: 'closed' } },
    ]);
    expect(live(h)).toEqual([kept, closedOne]);
    // Another agency's actor cancels nothing of AG1's clients.
    const foreign = h.ok({ type: 'cancelAll', at: h.now, actor: { agencyId: 'AG2' }, clientCodes: ['C1', 'C2'] });
    expect(foreign.cancelled).toEqual([]);
    expect(foreign.refused?.map((x) => x.code)).toEqual(['ORDER_AGENCY_CLIENT_FORBIDDEN', 'SESSION_PHASE_FORBIDS']);
    expectConsistent(h);
  });

  it('refuses a malformed command and changes nothing', () => {
    const { h } = setUp();
    h.place('bid', 10_000, 1, 'C1');
    expect(h.run({ type: 'cancelAll', at: h.now, clientCodes: 'C1' } as never)).toMatchObject({ result: 'REQUEST_INVALID', params: { field: 'clientCodes' } });
    expect(h.run({ type: 'cancelAll', at: h.now, clientCodes: ['C1'], assetId: '' })).toMatchObject({ result: 'REQUEST_INVALID', params: { field: 'assetId' } });
    expect(live(h)).toHaveLength(1);
  });

  it('a replay of the commands and a snapshot taken before it give the same state hash', () => {
    const { h, log, base } = setUp();
    h.place('bid', 10_000, 5, 'C1');
    h.place('ask', 11_000, 5, 'C2');
    h.place('bid', 10_500, 5, 'C3');
    h.place('ask', 12_000, 1, 'C1', { assetId: POWER });
    const snapshot = JSON.parse(JSON.stringify(h.engine.exportState())) as EngineSnapshot;
    const split = log.length;
    cancelAll(h, { clientCodes: ['C1'] });
    h.place('bid', 10_000, 2, 'C1');
    expectConsistent(h);

    const replayed = Engine.fromSnapshot(base);
    for (const command of log) replayed.execute(command);
    expect(replayed.stateHash()).toBe(h.engine.stateHash());
    expect(replayed.validateInternalState()).toEqual([]);

    const restored = Engine.fromSnapshot(snapshot);
    for (const command of log.slice(split)) restored.execute(command);
    expect(restored.stateHash()).toBe(h.engine.stateHash());
  });
});
