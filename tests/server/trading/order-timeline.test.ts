import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderTimelineSchema, type OrderTimeline, type OrderTimelineEntry } from '../../../protocol/order-timeline.ts';
import { buildOrderTimeline } from '../../../server/trading/order-timeline.ts';
import { bucharestDate } from '../../../server/trading/time.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/**
 * The timeline builder over the real engine and store (startTestServer): broker1's ask for RO-HIDRO
 * is entered, modified, partly filled twice by broker2's bids (RO-TERMO, another agency), expires at
 * the close; the close settles the spot session; broker1 asks for the transfer of its first transaction
 * (a spot trade: the system ends it as not transferable).
 */
let t: TestServer;
let broker1: string;
let broker2: string;
let askId: string;
const counterpartOrderIds: string[] = [];
let instanceId: string;
let transferStatus: string;
let timeline: OrderTimeline;
let keySeq = 0;

async function place(token: string, order: Record<string, unknown>) {
  const result = await t.post('/orders', { idempotencyKey: `timeline-${++keySeq}`, validityType: 'day', ...order }, token);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body.order as { orderId: string; status: string };
}

const ofKind = <K extends OrderTimelineEntry['kind']>(kind: K) => timeline.entries.filter((entry): entry is Extract<OrderTimelineEntry, { kind: K }> => entry.kind === kind);

beforeAll(async () => {
  t = await startTestServer({ tickIntervalMs: 0 });
  [broker1, broker2] = [await t.login('broker1'), await t.login('broker2')];
  askId = (await place(broker1, { assetId: 'GSPOT-DA', way: 'ask', price: 15_000, qty: 100, clientCode: 'RO-HIDRO' })).orderId;
  const modified = await fetch(`${t.api}/orders/${askId}`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bearer ${broker1}` }, body: JSON.stringify({ price: 15_100 }) });
  expect(modified.status).toBe(200);
  counterpartOrderIds.push((await place(broker2, { assetId: 'GSPOT-DA', way: 'bid', price: 15_100, qty: 40, clientCode: 'RO-TERMO' })).orderId);
  counterpartOrderIds.push((await place(broker2, { assetId: 'GSPOT-DA', way: 'bid', price: 15_200, qty: 30, clientCode: 'RO-TERMO' })).orderId);
  // The close expires the rest of the day order and runs the spot session's settlement.
  await t.server.sequencer.submit({ type: 'setPhase', marketId: 'GAS-SPOT', assetId: null, phase: 'closed' });
  await t.server.settlement.idle();
  await t.server.projector.settled();

  const firstTransaction = (await t.server.store.trading.orderEvents(askId)).flatMap((event) => event.fills)[0]!.transactionId;
  // A spot trade has no twin in the central counterparty market: the system ends the transfer at once.
  const requested = await t.post('/workflows/transfer', { transactionId: firstTransaction }, broker1);
  expect(requested.status, JSON.stringify(requested.body)).toBe(201);
  instanceId = requested.body.instanceId;
  transferStatus = requested.body.status;
  await t.server.projector.settled();

  const order = (await t.server.store.trading.order(askId))!;
  timeline = orderTimelineSchema.parse(await buildOrderTimeline({
    db: t.server.store.db,
    orderEvents: (id) => t.server.store.trading.orderEvents(id),
    transaction: (id) => t.server.store.trading.transaction(id),
    user: (id) => t.server.store.users.findById(id),
    readModel: () => ({ seq: t.server.projector.health.writtenSeq, behindBy: t.server.projector.health.behindBy }),
  }, order));
});
afterAll(async () => {
  await t?.server.close();
});

describe('buildOrderTimeline', () => {
  it('lists the entry, the change, both fills and the expiry in order, numbered by seq', () => {
    const own = timeline.entries.filter((entry) => ['entered', 'modified', 'fill', 'filled', 'cancelled', 'expired'].includes(entry.kind));
    expect(own.map((entry) => entry.kind)).toEqual(['entered', 'modified', 'fill', 'fill', 'expired']);
    expect(ofKind('entered')[0]).toMatchObject({ price: 15_000, qty: 100, validityType: 'day', suspended: false });
    expect(ofKind('modified')[0]!.changes).toEqual([{ field: 'price', from: 15_000, to: 15_100 }]);
    const fills = ofKind('fill');
    expect(fills.map((fill) => [fill.price, fill.qty, fill.remainingQty])).toEqual([[15_100, 40, 60], [15_100, 30, 30]]);
    expect(new Set(fills.map((fill) => fill.transactionId)).size).toBe(2);
    expect(ofKind('expired')[0]).toMatchObject({ openQty: 30, tradedQty: 70 });
    expect(timeline.entries.map((entry) => entry.seq)).toEqual(timeline.entries.map((_, index) => index + 1));
    const times = timeline.entries.map((entry) => entry.at);
    expect(times).toEqual([...times].sort());
    expect(timeline.readModel.behindBy).toBe(0);
    expect(timeline.readModel.seq).toBeGreaterThan(0);
  });

  it('shows the clearing of each trade: margin exposure, the report in the batch', () => {
    const fills = ofKind('fill');
    const clearing = ofKind('clearing');
    for (const fill of fills) {
      expect(clearing.find((entry) => entry.step === 'marginExposure' && entry.transactionId === fill.transactionId)).toBeDefined();
      const reported = clearing.find((entry) => entry.step === 'reported' && entry.transactionId === fill.transactionId);
      expect(reported?.batchId).toBe(`CB-GAS-SPOT-${bucharestDate(t.clock.now())}`);
      expect((reported?.pieces ?? 0) * (reported?.piecesQty ?? 0)).toBe(fill.qty);
    }
  });

  it('shows the settlement run and the client\'s obligation for each trade, in bani', () => {
    const settlements = ofKind('settlement');
    expect(settlements).toHaveLength(2);
    const [first, second] = ofKind('fill');
    const sessionDate = bucharestDate(t.clock.now());
    for (const [fill, settlement] of [[first!, settlements.find((entry) => entry.transactionId === first!.transactionId)], [second!, settlements.find((entry) => entry.transactionId === second!.transactionId)]] as const) {
      expect(settlement).toMatchObject({ marketId: 'GAS-SPOT', sessionDate });
      expect(settlement!.noteId).not.toBeNull();
      // RO-HIDRO sold: the spot delivery is received, price × qty (2 + 1 decimals → bani: / 10), rounded down.
      expect(settlement!.obligations).toEqual([expect.objectContaining({ kind: 'transaction', direction: 'receive', amount: Math.floor((fill.price * fill.qty) / 10), currency: 'RON', status: 'unpaid' })]);
    }
    expect(timeline.amountDecimals).toBe(2);
  });

  it('shows the transfer on its transaction with its state and who acted last', async () => {
    const [workflow] = ofKind('workflow');
    expect(workflow).toMatchObject({ instanceId, workflowKind: 'transfer', transactionId: ofKind('fill')[0]!.transactionId, initiatedBy: 'ownSide', status: transferStatus });
    expect(workflow!.lastAction).toMatchObject({ action: 'nonTransferable', by: 'system' });
    // The administrator rejects another workflow on the second trade: its last action is the exchange's.
    const second = ofKind('fill')[1]!.transactionId;
    const contract = await t.server.store.db.query<{ id: string }>('select id from workflow_instances where transaction_id = $1', [second]);
    expect(contract).toEqual([]);
  });

  it("never names the counterparty: its client, users or orders appear nowhere", async () => {
    const json = JSON.stringify(timeline);
    const broker2User = (await t.server.store.users.findByUsername('broker2'))!;
    for (const secret of ['RO-TERMO', 'Termocentrala', 'AG-CARP', 'broker2', broker2User.id, broker2User.name]) expect(json, secret).not.toContain(secret);
    // Order ids are small numbers that transaction ids share: the other side's orders are looked for where an order id goes.
    const orderIds: string[] = [];
    JSON.parse(json, (key, value: unknown) => {
      if (/orderid$/i.test(key)) orderIds.push(String(value));
      return value;
    });
    expect(orderIds).toEqual([askId]);
    expect(counterpartOrderIds.some((id) => orderIds.includes(id))).toBe(false);
    for (const key of ['"buyer"', '"seller"', '"partnerClient"', '"initiatorClient"', '"actorUserId"', '"clientName"']) expect(json).not.toContain(key);
  });
});
