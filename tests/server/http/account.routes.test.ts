import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

// ESPOT-DA-H01: prices with 2 decimals, quantities with 1, margin 10% (fixtures/demo/exchange.json).
const ASSET = 'ESPOT-DA-H01';
let keySeq = 0;
const order = (clientCode: string, way: 'bid' | 'ask', price: number, qty: number) => ({
  idempotencyKey: `account-test-${++keySeq}`,
  assetId: ASSET,
  way,
  price,
  qty,
  validityType: 'GTC',
  clientCode,
});

async function limitsOf(t: TestServer, token: string, clientCode: string) {
  const response = await t.get(`/account/limits?clientCode=${clientCode}`, token);
  expect(response.status).toBe(200);
  expect(response.body.items).toHaveLength(1);
  return response.body.items[0];
}

describe('trading account views', () => {
  let t: TestServer;
  let broker1: string;
  let broker2: string;
  beforeAll(async () => {
    t = await startTestServer({ tickIntervalMs: 0 });
    broker1 = await t.login('broker1');
    broker2 = await t.login('broker2');
  });
  afterAll(async () => {
    await t.server.close();
  });

  it('positions and limits follow a trade between two brokers', async () => {
    const before = await limitsOf(t, broker1, 'RO-HIDRO');
    expect(before).toMatchObject({
      client: { code: 'RO-HIDRO', name: 'Hidro Furnizare SA', acerCode: 'A0001234X.RO', agencyId: 'AG-NORD', active: true },
      currency: 'RON',
      tradingLimit: 200_000_000_000,
      clearingLimit: 50_000_000_000,
      exposure: 0,
      marginBlockedByOrders: 0,
      availableFunds: 50_000_000_000,
      maxContracts: 100_000_000,
    });
    expect((await t.get('/account/positions', broker1)).body).toMatchObject({ amountDecimals: 2, items: [] });

    // 10.0 MWh at 400.00: a value of 4,000.00 RON (400000 in amount units), margin 10%.
    expect((await t.post('/orders', order('RO-HIDRO', 'ask', 40_000, 100), broker1)).status).toBe(201);
    const resting = await limitsOf(t, broker1, 'RO-HIDRO');
    expect(resting).toMatchObject({ exposure: 400_000, openOrdersValue: 400_000, marginBlockedByOrders: 40_000, availableFunds: 50_000_000_000 - 40_000 });
    expect((await t.post('/orders', order('RO-TERMO', 'bid', 40_000, 100), broker2)).status).toBe(201);

    const seller = await t.get('/account/positions', broker1);
    expect(seller.body.items).toEqual([
      {
        clientCode: 'RO-HIDRO',
        assetId: ASSET,
        marketId: 'EL-SPOT',
        sessionDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        boughtQty: 0,
        soldQty: 100,
        netQty: -100,
        avgBuyPrice: null,
        avgSellPrice: 40_000,
        boughtValue: 0,
        soldValue: 400_000,
        tradedValue: 400_000,
        trades: 1,
      },
    ]);
    const buyer = await t.get('/account/positions?clientCode=RO-TERMO', broker2);
    expect(buyer.body.items).toEqual([expect.objectContaining({ clientCode: 'RO-TERMO', boughtQty: 100, soldQty: 0, netQty: 100, avgBuyPrice: 40_000, tradedValue: 400_000 })]);

    // The order's value moved from open orders to traded; its margin from orders to trades.
    expect(await limitsOf(t, broker1, 'RO-HIDRO')).toMatchObject({
      exposure: 400_000,
      openOrdersValue: 0,
      tradedValue: 400_000,
      marginBlockedByOrders: 0,
      marginBlockedByTrades: 40_000,
      availableFunds: 50_000_000_000 - 40_000,
    });
    expect(await limitsOf(t, broker2, 'RO-TERMO')).toMatchObject({ exposure: 400_000, marginBlockedByTrades: 40_000 });

    // A second buy at another price: the average is weighted by quantity.
    await t.post('/orders', order('RO-HIDRO', 'ask', 41_000, 300), broker1);
    await t.post('/orders', order('RO-TERMO', 'bid', 41_000, 300), broker2);
    const twice = await t.get('/account/positions?marketId=EL-SPOT', broker2);
    // (40000·100 + 41000·300) / 400 = 40750
    expect(twice.body.items).toEqual([expect.objectContaining({ clientCode: 'RO-TERMO', boughtQty: 400, avgBuyPrice: 40_750, trades: 2, tradedValue: 400_000 + 1_230_000 })]);
    expect((await t.get('/account/positions?marketId=GAS-SPOT', broker2)).body.items).toEqual([]);
  });

  it('exposure grows with a resting order and shrinks when it is cancelled', async () => {
    const start = await limitsOf(t, broker1, 'RO-GAZEST');
    // 20.0 MWh bid at 300.00: 6,000.00 RON of value, 600.00 RON of margin.
    const placed = await t.post('/orders', order('RO-GAZEST', 'bid', 30_000, 200), broker1);
    expect(placed.status).toBe(201);
    const resting = await limitsOf(t, broker1, 'RO-GAZEST');
    expect(resting.exposure - start.exposure).toBe(600_000);
    expect(resting.marginBlockedByOrders - start.marginBlockedByOrders).toBe(60_000);
    expect(resting.availableFunds).toBe(start.availableFunds - 60_000);
    expect(resting.openContracts).toBeGreaterThan(start.openContracts);

    expect((await t.post(`/orders/${placed.body.order.orderId}/cancel`, {}, broker1)).status).toBe(200);
    expect(await limitsOf(t, broker1, 'RO-GAZEST')).toEqual(start);
  });

  it("refuses another agency's client, unknown clients and markets with catalogue codes", async () => {
    expect(await t.get('/account/limits?clientCode=RO-TERMO', broker1)).toEqual({ status: 403, body: { error: { code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-TERMO' } } } });
    expect(await t.get('/account/positions?clientCode=RO-TERMO', broker1)).toEqual({ status: 403, body: { error: { code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-TERMO' } } } });
    expect((await t.get('/account/limits?clientCode=NO-SUCH', broker1)).body.error.code).toBe('ACCOUNT_CLIENT_FORBIDDEN');
    expect((await t.get('/account/positions?marketId=NOPE', broker1)).body).toEqual({ error: { code: 'ACCOUNT_MARKET_INVALID', params: { marketId: 'NOPE' } } });
    const client1 = await t.login('client1'); // electricity markets only
    expect((await t.get('/account/positions?marketId=GAS-SPOT', client1)).body.error.code).toBe('ACCOUNT_MARKET_INVALID');
    expect((await t.get('/account/limits?extra=1', broker1)).body.error.code).toBe('REQUEST_INVALID');
    expect((await t.get('/account/limits', 'not-a-token')).status).toBe(401);
  });

  it('shows each role the clients it may see', async () => {
    const codes = async (username: string) => ((await t.get('/account/limits', await t.login(username))).body.items as Array<{ client: { code: string } }>).map((item) => item.client.code).sort();
    expect(await codes('broker1')).toEqual(['RO-GAZEST', 'RO-HIDRO']);
    expect(await codes('broker2')).toEqual(['RO-INDUS', 'RO-TERMO']);
    expect(await codes('client1')).toEqual(['RO-HIDRO']);
    expect(await codes('terminal1')).toEqual(['RO-GAZEST']);
    expect(await codes('agency1')).toEqual(['RO-GAZEST', 'RO-HIDRO']);
    expect(await codes('admin')).toEqual(['RO-DORMANT', 'RO-GAZEST', 'RO-HIDRO', 'RO-INDUS', 'RO-TERMO', 'SIM-CARP-1', 'SIM-CARP-2', 'SIM-NORD-1', 'SIM-NORD-2']);
    // A client sees its own positions only, in the markets it sees.
    const client1 = await t.login('client1');
    const own = (await t.get('/account/positions', client1)).body.items as Array<{ clientCode: string }>;
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((position) => position.clientCode === 'RO-HIDRO')).toBe(true);
  });
});

describe('positions after a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'exchange-account-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('come back from the read model and go on from there', async () => {
    const first = await startTestServer({ dataDir, tickIntervalMs: 0 });
    const b1 = await first.login('broker1');
    const b2 = await first.login('broker2');
    await first.post('/orders', order('RO-HIDRO', 'ask', 40_000, 100), b1);
    await first.post('/orders', order('RO-TERMO', 'bid', 40_000, 100), b2);
    const expected = (await first.get('/account/positions', b1)).body.items;
    expect(expected).toEqual([expect.objectContaining({ soldQty: 100 })]);
    await first.server.close();

    const second = await startTestServer({ dataDir, tickIntervalMs: 0 });
    second.clock.advance(first.clock.now() - second.clock.now() + 1000);
    try {
      const s1 = await second.login('broker1');
      const s2 = await second.login('broker2');
      expect((await second.get('/account/positions', s1)).body.items).toEqual(expected);
      await second.post('/orders', order('RO-HIDRO', 'ask', 42_000, 100), s1);
      await second.post('/orders', order('RO-TERMO', 'bid', 42_000, 100), s2);
      // (40000·100 + 42000·100) / 200 = 41000; counted once though the store and the live event both have it
      expect((await second.get('/account/positions', s1)).body.items).toEqual([expect.objectContaining({ soldQty: 200, avgSellPrice: 41_000, trades: 2 })]);
      expect((await second.get('/account/limits?clientCode=RO-HIDRO', s1)).body.items[0].tradedValue).toBe(820_000);
    } finally {
      await second.server.close();
    }
  });
});
