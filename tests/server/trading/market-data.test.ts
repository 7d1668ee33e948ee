import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, type AssetActivity } from '../../../protocol/index.ts';
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
