import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, type Notification, type Order, type OrderUpdate } from '../../../protocol/index.ts';
import { MarketSimulator } from '../../../server/demo/market-simulator.ts';
import type { EngineEvent } from '../../../server/engine/types.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { demoUser, startTestServer, type TestServer } from '../../helpers/test-server.ts';

function seeded(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

const simulatorClients = new Set([...demoUser('sim-nord').clientCodes, ...demoUser('sim-carp').clientCodes]);
const brokerClients = new Set([...demoUser('broker1').clientCodes, ...demoUser('broker2').clientCodes]);
// Assets the simulator trades, each given resting orders of both demo brokers before it starts.
const assets = ['GSPOT-DA', 'GSPOT-WD', 'ESPOT-DA-BASE', 'EFWD-M-2027-01-BASE'];

describe('market simulator with its own agency and clients', () => {
  let t: TestServer;
  let broker1: CollectingClient;
  let token1: string;
  let token2: string;
  beforeAll(async () => {
    t = await startTestServer();
    token1 = await t.login('broker1');
    token2 = await t.login('broker2');
  });
  afterAll(async () => {
    await broker1?.close();
    await t?.server.close();
  });

  it("trades only for its own clients: the demo brokers' orders stay as they were and broker1's queues get nothing", () => run());

  async function run() {
    expect([...simulatorClients].every((code) => !brokerClients.has(code))).toBe(true);
    // Far from the simulator's prices (mid about 150.00, within maxPrice / 2), so nobody can trade them;
    // more than `depth` per side and older than any simulator order, so a simulator that listed every
    // order of its side would cancel them.
    let key = 0;
    for (const assetId of assets) {
      for (let index = 0; index < 3; index++) {
        for (const [token, clientCode] of [[token1, 'RO-HIDRO'], [token2, 'RO-TERMO']] as const) {
          const bid = await t.post('/orders', { idempotencyKey: `demo-order-${++key}`, assetId, way: 'bid', price: 100 + index, qty: 10, validityType: 'day', clientCode }, token);
          const ask = await t.post('/orders', { idempotencyKey: `demo-order-${++key}`, assetId, way: 'ask', price: 490_000 - index, qty: 10, validityType: 'day', clientCode }, token);
          expect([bid.status, ask.status]).toEqual([201, 201]);
        }
      }
    }
    const before1 = (await t.get('/orders/mine', token1)).body.items as Order[];
    const before2 = (await t.get('/orders/mine', token2)).body.items as Order[];
    expect(before1).toHaveLength(assets.length * 6);
    expect(before2).toHaveLength(assets.length * 6);

    broker1 = await connectCollector(t.server.port, token1);
    for (const destination of [destinations.myOrders, destinations.myTrades, destinations.notifications]) await broker1.subscribe(destination);
    // On subscribe the queue replays broker1's own live orders.
    const replayed = await broker1.waitFor<OrderUpdate>(destinations.myOrders, (messages) => messages.length >= before1.length);
    expect(new Set(replayed.map((update) => update.order.orderId))).toEqual(new Set(before1.map((order) => order.orderId)));
    const replayedCount = replayed.length; // `replayed` is the live list

    const events: EngineEvent[] = [];
    const unsubscribe = t.server.sequencer.onEvents((batch) => events.push(...batch));
    const simulator = new MarketSimulator({ api: t.api, random: seeded(11), now: t.clock.now, depth: 2 });
    await simulator.start();
    simulator.stop(); // stepped by hand below
    for (let step = 0; step < 100; step++) await simulator.step();
    unsubscribe();
    expect(simulator.actions).toBe(100);
    expect(Object.fromEntries(simulator.refusals)).toEqual({});

    // Every order the simulator touched, every trade it made, is its own clients'.
    const orderEvents = events.flatMap((event) => (event.type === 'order' ? [event] : []));
    const trades = events.flatMap((event) => (event.type === 'trade' ? [event] : []));
    expect(orderEvents.filter((event) => event.kind === 'created').length).toBeGreaterThan(70);
    expect(orderEvents.some((event) => event.kind === 'cancelled')).toBe(true);
    expect(trades.length).toBeGreaterThan(0);
    expect(orderEvents.filter((event) => !simulatorClients.has(event.header.clientCode))).toEqual([]);
    expect(trades.filter((trade) => !simulatorClients.has(trade.buyer) || !simulatorClients.has(trade.seller))).toEqual([]);

    // The demo brokers' orders are unchanged.
    expect((await t.get('/orders/mine', token1)).body.items).toEqual(before1);
    expect((await t.get('/orders/mine', token2)).body.items).toEqual(before2);

    // broker1's own cancel reaches its queue; nothing of the simulator's came before it.
    const control = before1[0]!;
    expect((await t.post(`/orders/${control.orderId}/cancel`, {}, token1)).status).toBe(200);
    const updates = await broker1.waitFor<OrderUpdate>(destinations.myOrders, (messages) => messages.length > replayedCount);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(updates.slice(replayedCount).map((update) => [update.order.orderId, update.order.status])).toEqual([[control.orderId, 'cancelled']]);
    expect(broker1.received.get(destinations.myTrades)).toEqual([]);
    expect((broker1.received.get(destinations.notifications) as Notification[]).filter((notification) => !brokerClients.has(String(notification.values.clientCode)))).toEqual([]);
  }
});

describe('market simulator on a database made before it had its own clients', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.server.close();
  });

  it("refuses to start when its users act for the demo brokers' clients", async () => {
    await t.server.store.db.query(`update users set client_codes = $1 where username = 'sim-carp'`, [JSON.stringify(['RO-TERMO'])]);
    const simulator = new MarketSimulator({ api: t.api, now: t.clock.now });
    await expect(simulator.start()).rejects.toThrow(/sim-carp acts for RO-TERMO/);
    expect(t.server.sequencer.engine.listOrders({})).toEqual([]);
  });
});
