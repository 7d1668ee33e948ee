import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, type AssetActivity } from '../../../protocol/index.ts';
import type { StompGateway } from '../../../server/gateway/stomp-gateway.ts';
import { MarketDataPublisher } from '../../../server/trading/market-data.ts';
import { ASSET, MARKET, harness } from '../engine/helpers.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

// GCCP-M-2027-01 runs 30 s delta-T periods: a crossing starts one instead of trading at once.
const asset = 'GCCP-M-2027-01';
let t: TestServer;
const clients: CollectingClient[] = [];

beforeAll(async () => {
  t = await startTestServer({ tickIntervalMs: 0 });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await t?.server.close();
});

// Signed in before the orders: a sign-in moves the test clock to the next 30 s code step.
async function subscriber(token: string): Promise<CollectingClient> {
  const client = await connectCollector(t.server.port, token);
  clients.push(client);
  await client.subscribe(destinations.activity(asset));
  return client;
}

describe('asset activity', () => {
  it('sends the running delta-T period to a page opened during it, and nothing once it has ended', async () => {
    const broker1 = await t.login('broker1');
    const broker2 = await t.login('broker2');
    const admin = await t.login('admin');
    const order = (key: string, way: 'bid' | 'ask', clientCode: string) => ({ idempotencyKey: key, assetId: asset, way, price: 15_000, qty: 100, validityType: 'day', clientCode });
    expect((await t.post('/orders', order('dt-ask-0001', 'ask', 'RO-HIDRO'), broker1)).status).toBe(201);
    expect((await t.post('/orders', order('dt-bid-0001', 'bid', 'RO-TERMO'), broker2)).status).toBe(201);

    const late = await subscriber(admin);
    const [running] = await late.waitFor<AssetActivity>(destinations.activity(asset), (messages) => messages.length > 0);
    expect(running).toMatchObject({ assetId: asset, type: 'deltaTStart', price: 15_000 });
    expect(Date.parse(running!.endsAt!) - t.clock.now()).toBeGreaterThan(0);

    // Past its end the period executes; a later subscriber gets no stale period.
    t.clock.advance(31_000);
    await t.server.sequencer.submit({ type: 'tick' });
    const after = await subscriber(admin);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(after.received.get(destinations.activity(asset))).toEqual([]);
  });
});

/** A gateway whose open subscriptions are the given destinations (topics) and user:destination pairs (private queues); it records what it is given. */
function recordingGateway(topics: string[], queues: Array<[string, string]>) {
  const sent: Array<{ to: string; destination: string; body: unknown }> = [];
  const gateway = {
    publish: (destination: string, body: unknown) => sent.push({ to: '*', destination, body }),
    sendToUser: (userId: string, destination: string, body: unknown) => sent.push({ to: userId, destination, body }),
    watched: (destination: string) => topics.includes(destination),
    watchedBy: (userId: string, destination: string) => queues.some(([user, queue]) => user === userId && queue === destination),
  } as unknown as StompGateway;
  return { gateway, sent };
}

const usersOf: Record<string, string[]> = { C1: ['u1', 'u-both'], C2: ['u2', 'u-both'] };

function publisherOver(gateway: StompGateway, h: ReturnType<typeof harness>) {
  return new MarketDataPublisher({
    engine: h.engine,
    gateway,
    assets: [{ id: ASSET, marketId: MARKET, type: 'spot' }],
    usersOfClient: (clientCode) => usersOf[clientCode] ?? [],
    clientsOfUser: (userId) => Object.keys(usersOf).filter((code) => usersOf[code]!.includes(userId)),
    lastJournalSeq: () => 0,
  });
}

describe('market data for nobody', () => {
  it('builds and sends nothing but the book delta when no one watches the asset, its tape or the private queues', () => {
    const h = harness();
    const { gateway, sent } = recordingGateway([], []);
    const publisher = publisherOver(gateway, h);
    publisher.onEvents(h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 15_000, qty: 10 }).events, 1);
    publisher.onEvents(h.add({ assetId: ASSET, clientCode: 'C2', way: 'ask', price: 15_000, qty: 4 }).events, 2);
    // The book's delta always goes out: its seq numbers the asset's changes for later subscribers.
    expect(sent.map((message) => message.destination)).toEqual([destinations.book(ASSET), destinations.book(ASSET)]);
  });

  it('sends each update to the users who have the queue or topic open, a user acting for both parties once', () => {
    const h = harness();
    const { gateway, sent } = recordingGateway(
      [destinations.trades(ASSET), destinations.stats(ASSET)],
      [['u1', destinations.myOrders], ['u-both', destinations.myTrades], ['u2', destinations.myMarketWatch]],
    );
    const publisher = publisherOver(gateway, h);
    publisher.onEvents(h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 15_000, qty: 10 }).events, 1);
    publisher.onEvents(h.add({ assetId: ASSET, clientCode: 'C2', way: 'ask', price: 15_000, qty: 4 }).events, 2);
    const to = (destination: string) => sent.filter((message) => message.destination === destination).map((message) => message.to);
    expect(to(destinations.myOrders)).toEqual(['u1', 'u1']);
    expect(sent.filter((message) => message.destination === destinations.myOrders).map((message) => (message.body as { order: { status: string } }).order.status)).toEqual(['created', 'tradedPartially']);
    expect(to(destinations.myTrades)).toEqual(['u-both']);
    expect(to(destinations.trades(ASSET))).toEqual(['*']);
    expect(to(destinations.stats(ASSET))).toEqual(['*']);
    // u2 acts for C2 only: the first order (C1's) does not change its own best.
    expect(to(destinations.myMarketWatch)).toEqual(['u2']);
    expect(to(destinations.activity(ASSET))).toEqual([]);
    expect(to(destinations.marketWatch(MARKET))).toEqual([]);
  });
});
