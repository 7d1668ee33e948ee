import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, type BookMessage, type OrderUpdate, type Transaction } from '../../../protocol/index.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

let t: TestServer;
let broker1: CollectingClient;
let broker2: CollectingClient;
let watcher: CollectingClient;
let token1: string;
let token2: string;
const asset = 'GSPOT-DA';

beforeAll(async () => {
  t = await startTestServer();
  token1 = await t.login('broker1');
  token2 = await t.login('broker2');
  const watcherToken = await t.login('admin');
  [broker1, broker2, watcher] = await Promise.all([
    connectCollector(t.server.port, token1),
    connectCollector(t.server.port, token2),
    connectCollector(t.server.port, watcherToken),
  ]);
  for (const broker of [broker1, broker2]) {
    await broker.subscribe(destinations.myOrders);
    await broker.subscribe(destinations.myTrades);
  }
  await watcher.subscribe(destinations.book(asset));
});
afterAll(async () => {
  await Promise.all([broker1?.close(), broker2?.close(), watcher?.close()]);
  await t?.server.close();
});

describe('two brokers trade through the API', () => {
  it("hits one broker's ask with the other's bid; both see their orders and the transaction; the book watcher sees the deltas", async () => {
    const ask = await t.post('/orders', { idempotencyKey: 'ask-0000001', assetId: asset, way: 'ask', price: 15000, qty: 100, validityType: 'day', clientCode: 'RO-HIDRO' }, token1);
    expect(ask.status).toBe(201);
    expect(ask.body.order).toMatchObject({ status: 'created', way: 'ask', price: 15000, offeredQty: 100, clientCode: 'RO-HIDRO' });

    const book = await watcher.waitFor<BookMessage>(destinations.book(asset), (messages) => messages.some((message) => message.type === 'delta'));
    expect(book[0]).toMatchObject({ type: 'snapshot', seq: 0, bids: [], asks: [] });
    expect(book[1]).toMatchObject({ type: 'delta', seq: 1, changes: [{ side: 'ask', price: 15000, qty: 100, orders: 1 }] });

    const bid = await t.post('/orders', { idempotencyKey: 'bid-0000001', assetId: asset, way: 'bid', price: 15000, qty: 100, validityType: 'day', clientCode: 'RO-TERMO' }, token2);
    expect(bid.status).toBe(201);
    expect(bid.body.order).toMatchObject({ status: 'traded', tradedQty: 100, tradedPrice: 15000 });

    const trades1 = await broker1.waitFor<Transaction>(destinations.myTrades, (messages) => messages.length === 1);
    const trades2 = await broker2.waitFor<Transaction>(destinations.myTrades, (messages) => messages.length === 1);
    expect(trades1[0]).toMatchObject({ assetId: asset, buyer: 'RO-TERMO', seller: 'RO-HIDRO', price: 15000, qty: 100, aggressor: 'bid' });
    expect(trades2[0]!.transactionId).toBe(trades1[0]!.transactionId);

    const orders1 = await broker1.waitFor<OrderUpdate>(destinations.myOrders, (messages) => messages.some((update) => update.order.status === 'traded'));
    expect(orders1.map((update) => update.order.status)).toEqual(['created', 'traded']);
    const orders2 = await broker2.waitFor<OrderUpdate>(destinations.myOrders, (messages) => messages.some((update) => update.order.status === 'traded'));
    expect(orders2.at(-1)!.order.orderId).toBe(bid.body.order.orderId);
    // Nobody sees the other's orders.
    expect(orders1.every((update) => update.order.clientCode === 'RO-HIDRO')).toBe(true);

    const deltas = await watcher.waitFor<BookMessage>(destinations.book(asset), (messages) => messages.length >= 3);
    expect(deltas[2]).toMatchObject({ type: 'delta', seq: 2, changes: [{ side: 'ask', price: 15000, qty: 0, orders: 0 }] });

    await t.server.projector.settled();
    const mine = await t.get('/transactions?scope=mine', token1);
    expect(mine.body.items).toHaveLength(1);
    expect(mine.body.items[0]).toMatchObject({ buyer: 'RO-TERMO', seller: 'RO-HIDRO' });
  });

  it('never makes two orders from one idempotency key, and refuses with engine codes', async () => {
    const body = { idempotencyKey: 'retry-000001', assetId: asset, way: 'bid', price: 14000, qty: 50, validityType: 'day', clientCode: 'RO-HIDRO' };
    const first = await t.post('/orders', body, token1);
    const second = await t.post('/orders', body, token1);
    expect(first.status).toBe(201);
    expect(second.body.order.orderId).toBe(first.body.order.orderId);
    expect((await t.get(`/orders/mine?assetId=${asset}`, token1)).body.items.filter((order: { price: number }) => order.price === 14000)).toHaveLength(1);

    const offStep = await t.post('/orders', { ...body, idempotencyKey: 'retry-000002', qty: 55 }, token1);
    expect(offStep.body.error).toMatchObject({ code: 'ORDER_QUANTITY_STEP' });
    const notMine = await t.post('/orders', { ...body, idempotencyKey: 'retry-000003', clientCode: 'RO-TERMO' }, token1);
    expect(notMine.body.error.code).toBe('ORDER_NO_RIGHT');
    const noPrice = await t.post('/orders', { ...body, idempotencyKey: 'retry-000004', price: undefined }, token1);
    expect(noPrice.body.error.code).toBe('ORDER_PRICE_MISSING');
    const otherCancel = await t.post(`/orders/${first.body.order.orderId}/cancel`, {}, token2);
    expect(otherCancel.body.error).toEqual({ code: 'ORDER_NOT_FOUND', params: { orderId: first.body.order.orderId } });
    const cancel = await t.post(`/orders/${first.body.order.orderId}/cancel`, {}, token1);
    expect(cancel.body.order.status).toBe('cancelled');
  });

  it("sends an order that trades on entry to its owner once, in its final state, with the reply's seq; seqs of one order only grow", async () => {
    const before2 = broker2.received.get(destinations.myOrders)!.length;
    const ask = await t.post('/orders', { idempotencyKey: 'cross-ask-01', assetId: asset, way: 'ask', price: 16000, qty: 100, validityType: 'day', clientCode: 'RO-HIDRO' }, token1);
    // Partly: 40 of the resting 100.
    const partial = await t.post('/orders', { idempotencyKey: 'cross-bid-01', assetId: asset, way: 'bid', price: 16000, qty: 40, validityType: 'day', clientCode: 'RO-TERMO' }, token2);
    expect(partial.body).toMatchObject({ order: { status: 'traded', tradedQty: 40 } });
    expect(partial.body.seq).toBeGreaterThan(ask.body.seq);
    // An aggressor bigger than what rests: traded in part, the rest stays on the book.
    const bigger = await t.post('/orders', { idempotencyKey: 'cross-bid-02', assetId: asset, way: 'bid', price: 16000, qty: 100, validityType: 'day', clientCode: 'RO-TERMO' }, token2);
    expect(bigger.body).toMatchObject({ order: { status: 'tradedPartially', tradedQty: 60 } });

    const updates2 = await broker2.waitFor<OrderUpdate>(destinations.myOrders, (messages) => messages.length >= before2 + 2);
    const mine = updates2.slice(before2);
    expect(mine.map((update) => [update.order.orderId, update.order.status, update.seq])).toEqual([
      [partial.body.order.orderId, 'traded', partial.body.seq],
      [bigger.body.order.orderId, 'tradedPartially', bigger.body.seq],
    ]);
    // The resting ask: created, traded in part, then traded, each with a higher seq.
    const updates1 = await broker1.waitFor<OrderUpdate>(destinations.myOrders, (messages) =>
      messages.some((update) => update.order.orderId === ask.body.order.orderId && update.order.status === 'traded'),
    );
    const askUpdates = updates1.filter((update) => update.order.orderId === ask.body.order.orderId);
    expect(askUpdates.map((update) => update.order.status)).toEqual(['created', 'tradedPartially', 'traded']);
    expect(askUpdates.map((update) => update.seq)).toEqual([ask.body.seq, partial.body.seq, bigger.body.seq]);
  });

  it("answers an agency acting on another agency's order exactly as on an order that does not exist", async () => {
    const agency1 = await t.login('agency1'); // AG-NORD
    const other = await t.post('/orders', { idempotencyKey: 'agency-probe-01', assetId: asset, way: 'bid', price: 1000, qty: 10, validityType: 'day', clientCode: 'RO-TERMO' }, token2); // AG-CARP
    expect(other.status).toBe(201);
    const otherId = other.body.order.orderId as string;
    const unknownId = String(Number(otherId) + 1_000_000);
    for (const action of ['cancel', 'suspend']) {
      const probe = await t.post(`/orders/${otherId}/${action}`, {}, agency1);
      const unknown = await t.post(`/orders/${unknownId}/${action}`, {}, agency1);
      expect([probe.status, probe.body.error.code]).toEqual([404, 'ORDER_NOT_FOUND']);
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'ORDER_NOT_FOUND']);
    }
    // Its own agency's order stays in reach; the other agency's order was not touched.
    const own = await t.post('/orders', { idempotencyKey: 'agency-own-01', assetId: asset, way: 'ask', price: 99_000, qty: 10, validityType: 'day', clientCode: 'RO-HIDRO' }, token1);
    expect((await t.post(`/orders/${own.body.order.orderId}/cancel`, {}, agency1)).body.order.status).toBe('cancelled');
    expect((await t.post(`/orders/${otherId}/cancel`, {}, token2)).body.order.status).toBe('cancelled');
  });
});
