import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bucharestDate } from '../../../server/trading/time.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const ASSET = 'ESPOT-DA-BASE';
let keySeq = 0;
const order = (clientCode: string, way: 'bid' | 'ask', price: number, qty: number) => ({
  idempotencyKey: `settlement-service-${++keySeq}`, assetId: ASSET, way, price, qty, validityType: 'GTC', clientCode,
});

describe('settlement service across a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'settlement-service-'));
  let t: TestServer | null = null;
  afterAll(async () => {
    await t?.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('settles at restart a close whose work a crash lost', async () => {
    t = await startTestServer({ tickIntervalMs: 0, dataDir });
    const sessionDate = bucharestDate(t.clock.now());
    const [broker1, broker2] = [await t.login('broker1'), await t.login('broker2')];
    expect((await t.post('/orders', order('RO-HIDRO', 'ask', 35_000, 40), broker1)).status).toBe(201);
    expect((await t.post('/orders', order('RO-TERMO', 'bid', 35_000, 40), broker2)).status).toBe(201);
    // The service stops listening: the close reaches the journal and not the clearing house.
    t.server.settlement.stop();
    await t.server.sequencer.submit({ type: 'setPhase', marketId: 'EL-SPOT', assetId: null, phase: 'closed' });
    await t.server.settlement.idle();
    expect(await t.server.settlement.settlement.run('EL-SPOT', sessionDate)).toBeNull();
    const clock = t.clock.now();
    await t.server.close();
    t = null;

    t = await startTestServer({ tickIntervalMs: 0, dataDir, openMarketsOnStart: false }, clock);
    await t.server.settlement.idle();
    expect(await t.server.settlement.settlement.run('EL-SPOT', sessionDate)).toMatchObject({ status: 'completed', clients: 2 });
    const price = await t.server.settlement.settlement.dailyPriceOf(ASSET, sessionDate);
    expect(price).toMatchObject({ priceFromTransactions: 35_000, price: 35_000, source: 'transactions' });
    expect(t.server.sequencer.engine.getStats(ASSET)?.settlementPrice).toBe(35_000);
    // 4.0 MWh at 350.00: the buyer pays 1,400.00, the seller receives it.
    const obligations = await t.server.settlement.settlement.listObligations({ clientCodes: null, marketIds: null, marketId: 'EL-SPOT', from: sessionDate, to: sessionDate });
    expect(obligations.filter((row) => row.kind === 'transaction').map((row) => [row.clientCode, row.direction, row.amount])).toEqual([
      ['RO-HIDRO', 'receive', 140_000],
      ['RO-TERMO', 'pay', 140_000],
    ]);
  }, 120_000);
});

describe('settlement service when a closed session is reopened', () => {
  let t: TestServer | null = null;
  afterAll(async () => {
    await t?.server.close();
  });

  it('does not settle a session reopened before its automatic run, and settles it at its next close', async () => {
    t = await startTestServer({ tickIntervalMs: 0 });
    const sessionDate = bucharestDate(t.clock.now());
    const [broker1, broker2] = [await t.login('broker1'), await t.login('broker2')];
    expect((await t.post('/orders', order('RO-HIDRO', 'ask', 35_000, 40), broker1)).status).toBe(201);
    expect((await t.post('/orders', order('RO-TERMO', 'bid', 35_000, 40), broker2)).status).toBe(201);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      // Closed and at once reopened: the close's queued work finds the session open again.
      await t.server.sequencer.submit({ type: 'setPhase', marketId: 'EL-SPOT', assetId: null, phase: 'closed' });
      await t.server.sequencer.submit({ type: 'setPhase', marketId: 'EL-SPOT', assetId: null, phase: 'trading' });
      await t.server.settlement.idle();
    } finally {
      console.error = original;
    }
    expect(errors).toEqual([]);
    expect(await t.server.settlement.settlement.run('EL-SPOT', sessionDate)).toBeNull();

    await t.server.sequencer.submit({ type: 'setPhase', marketId: 'EL-SPOT', assetId: null, phase: 'closed' });
    await t.server.settlement.idle();
    expect(await t.server.settlement.settlement.run('EL-SPOT', sessionDate)).toMatchObject({ status: 'completed', clients: 2 });
  }, 120_000);
});
