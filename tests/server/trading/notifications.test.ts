import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, notificationSchema, type Notification } from '../../../protocol/index.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

let t: TestServer;
let broker1: CollectingClient;
let broker2: CollectingClient;
let client1: CollectingClient;
let token1: string;
let token2: string;
let adminToken: string;
const queue = destinations.notifications;

let keySeq = 0;
async function place(token: string, order: Record<string, unknown>) {
  const result = await t.post('/orders', { idempotencyKey: `notify-${String(++keySeq).padStart(6, '0')}`, validityType: 'day', ...order }, token);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body.order as { orderId: string; status: string };
}

const of = (messages: Notification[], kind: Notification['kind']) => messages.filter((message) => message.kind === kind);

beforeAll(async () => {
  t = await startTestServer({ tickIntervalMs: 0 });
  token1 = await t.login('broker1');
  token2 = await t.login('broker2');
  adminToken = await t.login('admin');
  const clientToken = await t.login('client1');
  [broker1, broker2, client1] = await Promise.all([
    connectCollector(t.server.port, token1),
    connectCollector(t.server.port, token2),
    connectCollector(t.server.port, clientToken),
  ]);
  for (const collector of [broker1, broker2, client1]) await collector.subscribe(queue);
});
afterAll(async () => {
  await Promise.all([broker1?.close(), broker2?.close(), client1?.close()]);
  await t?.server.close();
});

describe('notifications on /user/queue/notifications', () => {
  it('tells both sides of a trade, each with their own order, side and the fill', async () => {
    const ask = await place(token1, { assetId: 'GSPOT-DA', way: 'ask', price: 15000, qty: 100, clientCode: 'RO-HIDRO' });
    const bid = await place(token2, { assetId: 'GSPOT-DA', way: 'bid', price: 15000, qty: 40, clientCode: 'RO-TERMO' });
    const seller = of(await broker1.waitFor<Notification>(queue, (messages) => of(messages, 'orderTraded').length === 1), 'orderTraded');
    const buyer = of(await broker2.waitFor<Notification>(queue, (messages) => of(messages, 'orderTraded').length === 1), 'orderTraded');
    for (const message of [...seller, ...buyer]) expect(notificationSchema.parse(message)).toEqual(message);
    expect(seller[0]).toMatchObject({
      kind: 'orderTraded',
      messageKey: 'notifications.orderTraded',
      values: { orderId: ask.orderId, way: 'ask', assetId: 'GSPOT-DA', qty: 40, price: 15000, clientCode: 'RO-HIDRO' },
    });
    expect(buyer[0]).toMatchObject({ values: { orderId: bid.orderId, way: 'bid', clientCode: 'RO-TERMO', transactionId: seller[0]!.values.transactionId } });
    expect(seller[0]!.id).not.toBe(buyer[0]!.id);
  });

  it('tells the owner of an IOC rest cancelled by the system, but not of their own cancellation', async () => {
    const own = await place(token1, { assetId: 'GSPOT-WD', way: 'bid', price: 9000, qty: 10, clientCode: 'RO-GAZEST' });
    await t.post(`/orders/${own.orderId}/cancel`, {}, token1);
    // The ask left on GSPOT-DA is 60 @ 150.00: an IOC bid for 100 takes 60 and its rest is cancelled.
    const ioc = await place(token2, { assetId: 'GSPOT-DA', way: 'bid', price: 15000, qty: 100, executionType: 'IOC', clientCode: 'RO-INDUS' });
    expect(ioc.status).toBe('cancelled');
    const messages = await broker2.waitFor<Notification>(queue, (list) => of(list, 'orderCancelled').length === 1);
    expect(of(messages, 'orderCancelled')[0]).toMatchObject({
      messageKey: 'notifications.orderCancelled',
      values: { orderId: ioc.orderId, reason: 'ioc', qty: 40, way: 'bid', clientCode: 'RO-INDUS' },
    });
    // broker1's own cancel is not news: its next notification is the fill of the IOC.
    const first = await broker1.waitFor<Notification>(queue, (list) => of(list, 'orderTraded').length === 2);
    expect(of(first, 'orderCancelled')).toEqual([]);
  });

  it("tells the owner when the exchange operator cancels one of its orders, not when it cancels its own", async () => {
    const order = await place(token1, { assetId: 'GSPOT-WD', way: 'bid', price: 8000, qty: 10, clientCode: 'RO-HIDRO' });
    const cancelled = await t.post(`/orders/${order.orderId}/cancel`, {}, adminToken);
    expect(cancelled.body.order.status).toBe('cancelled');
    const messages = await broker1.waitFor<Notification>(queue, (list) => of(list, 'orderCancelled').some((message) => message.values.orderId === order.orderId));
    expect(of(messages, 'orderCancelled').filter((message) => message.values.orderId === order.orderId)).toEqual([
      expect.objectContaining({ values: expect.objectContaining({ orderId: order.orderId, reason: 'operator', clientCode: 'RO-HIDRO' }) }),
    ]);
  });

  it('tells the owner when an order expires', async () => {
    const validity = new Date(t.clock.now() + 60_000).toISOString();
    const gtsv = await place(token1, { assetId: 'GSPOT-WD', way: 'ask', price: 20000, qty: 10, validityType: 'GTSV', validity, clientCode: 'RO-HIDRO' });
    t.clock.advance(61_000);
    await t.server.sequencer.submit({ type: 'tick' });
    const messages = await broker1.waitFor<Notification>(queue, (list) => of(list, 'orderExpired').length === 1);
    expect(of(messages, 'orderExpired')[0]).toMatchObject({
      messageKey: 'notifications.orderExpired',
      values: { orderId: gtsv.orderId, assetId: 'GSPOT-WD', way: 'ask', qty: 10, price: 20000, clientCode: 'RO-HIDRO' },
    });
    expect(of(broker2.received.get(queue) as Notification[], 'orderExpired')).toEqual([]);
  });

  it('tells the users who see a market of its phase change, once for the whole market', async () => {
    const result = await t.post('/admin/markets/GAS-SPOT/phase', { phase: 'closing' }, adminToken);
    expect(result.status).toBe(204);
    const messages = await broker1.waitFor<Notification>(queue, (list) => of(list, 'phaseChanged').length >= 1);
    // Wait a moment for any per-asset duplicate to show up.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(of(broker1.received.get(queue) as Notification[], 'phaseChanged')).toHaveLength(1);
    expect(of(messages, 'phaseChanged')[0]).toMatchObject({
      messageKey: 'notifications.phaseChanged',
      values: { marketId: 'GAS-SPOT', assetId: '', phase: 'closing', previous: 'trading' },
    });
    await broker2.waitFor<Notification>(queue, (list) => of(list, 'phaseChanged').length === 1);

    // One asset on its own is its own notification.
    await t.post('/admin/markets/GAS-SPOT/phase', { phase: 'trading', assetId: 'GSPOT-WD' }, adminToken);
    const asset = await broker1.waitFor<Notification>(queue, (list) => of(list, 'phaseChanged').length === 2);
    expect(of(asset, 'phaseChanged')[1]).toMatchObject({ values: { marketId: 'GAS-SPOT', assetId: 'GSPOT-WD', phase: 'trading', previous: 'closing' } });

    // client1 sees only electricity markets: no gas phase news (it acts for RO-HIDRO, so it had the trades).
    await t.post('/admin/markets/EL-SPOT/phase', { phase: 'closing' }, adminToken);
    const electricity = await client1.waitFor<Notification>(queue, (list) => of(list, 'phaseChanged').length >= 1);
    expect(of(electricity, 'phaseChanged').map((message) => message.values.marketId)).toEqual(['EL-SPOT']);
  });
});
