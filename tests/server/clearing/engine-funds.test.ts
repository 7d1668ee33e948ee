import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { financialReportSchema } from '../../../protocol/index.ts';
import { orderMargin, orderValue } from '../../../protocol/margin.ts';
import { EngineFunds, type EngineFundsOptions } from '../../../server/clearing/engine-funds.ts';
import type { EngineEvent } from '../../../server/engine/types.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

// GFWD-M-2027-01: gas forward, delivered 2027-01-01..31, prices with 2 decimals, quantities with 1.
const ASSET = 'GFWD-M-2027-01';
const CLIENT = 'RO-TERMO';

describe.each(testDatabases)('engine funds from clearing on $name', (database) => {
  let t: TestServer;
  let drop: () => Promise<void>;
  let admin: string;
  let broker2: string;
  let keySeq = 0;
  const order = (price: number, qty: number) =>
    t.post('/orders', { idempotencyKey: `funds-${database.name}-${++keySeq}`, assetId: ASSET, way: 'bid', price, qty, validityType: 'GTC', clientCode: CLIENT }, broker2);
  const sql = <Row = Record<string, unknown>>(text: string, params: unknown[] = []) => t.server.store.db.query<Row>(text, params);
  const report = async () => financialReportSchema.parse((await t.get(`/clearing/financial-report?clientCode=${CLIENT}`, broker2)).body.items[0]);

  beforeAll(async () => {
    const created = await database.create();
    drop = created.drop;
    t = await startTestServer({ tickIntervalMs: 0, dataDir: created.dataDir, databaseUrl: created.databaseUrl });
    admin = await t.login('admin');
    broker2 = await t.login('broker2');
    // The settlement side's rows, written directly: terms, a settled day with a carried long, an unpaid obligation.
    await sql(`insert into asset_clearing_terms (asset_id, initial_margin_bps, delivery_margin_bps, physical, delivery_start, delivery_end, expiry_date)
               values ($1, 1500, 2000, true, '2027-01-01', '2027-01-31', '2026-12-30')`, [ASSET]);
    await sql(`insert into settlement_runs (id, market_id, session_date, status, started_at, completed_at, clients) values ('R-1', 'GAS-FWD', '2026-11-21', 'completed', now(), now(), 1)`);
    await sql(`insert into settlement_positions (client_code, asset_id, session_date, qty, settlement_run_id) values ($1, $2, '2026-11-21', 1000, 'R-1')`, [CLIENT, ASSET]);
    await sql(`insert into daily_settlement_prices (id, asset_id, session_date, value, previous_value, source, computed_at) values ('P-1', $1, '2026-11-21', 15000, 14800, 'transactions', now())`, [ASSET]);
    await sql(`insert into payment_obligations (id, settlement_run_id, client_code, market_id, session_date, kind, direction, amount, currency, due_date, status)
               values ('O-1', 'R-1', $1, 'GAS-FWD', '2026-11-21', 'variation_margin', 'pay', 12345, 'RON', '2026-11-23', 'unpaid')`, [CLIENT]);
    // RO-TERMO's demo warranties give way to one of 5,000.00 RON.
    for (const warranty of (await t.get(`/clearing/warranties?clientCode=${CLIENT}`, admin)).body.items) {
      if (warranty.status !== 'released') expect((await t.post(`/admin/clearing/warranties/${warranty.clientWarrantyId}/release`, {}, admin)).status).toBe(200);
    }
    const created5000 = await t.post('/admin/clearing/warranties', {
      clientCode: CLIENT, warrantyNumber: 'SMALL-1', warrantyName: 'Depozit', kind: 'cash_deposit', depositDate: '2026-11-01', validityDate: '2027-11-01', value: 500_000, currency: 'RON',
    }, admin);
    expect(created5000.status).toBe(201);
    await t.server.clearing.engineFunds.syncAssetMargins();
  });
  afterAll(async () => {
    await t?.server.close();
    await drop?.();
  });

  it('gives the asset the initial margin rate of its clearing terms, in the engine and in the order dialog', async () => {
    const asset = (await t.get(`/assets/${ASSET}`, broker2)).body;
    expect(asset.marginBps).toBe(1500);
  });

  it('sends funds = clearing limit − carried margin − unpaid, and the engine refuses exactly past them', async () => {
    // Carried 100.0 MWh long at 150.00: value 15,000.00, initial margin 15 % = 2,250.00; unpaid 123.45.
    const funds = 500_000 - 225_000 - 12_345;
    expect(t.server.sequencer.engine.getClientFinancials(CLIENT)?.funds).toBe(funds);
    expect(Number((await sql<{ funds: string }>('select funds from clearing_engine_funds where client_code = $1', [CLIENT]))[0]!.funds)).toBe(funds);

    // 100.0 MWh at 175.11: margin 2,626.65 > 2,626.55 free.
    const over = await order(17_511, 1000);
    expect(over.status).toBe(422);
    expect(over.body.error).toMatchObject({ code: 'ORDER_INSUFFICIENT_FUNDS', params: { amountToDeposit: '0.10', currency: 'RON' } });
    // At 175.10: margin 2,626.50, inside.
    const inside = await order(17_510, 1000);
    expect(inside.status).toBe(201);
    const asset = (await t.get(`/assets/${ASSET}`, broker2)).body;
    const preview = orderMargin(orderValue(17_510, 1000, asset), asset.marginBps);
    expect(t.server.sequencer.engine.getClientFinancials(CLIENT)?.reservedMargin).toBe(preview);
    expect(preview).toBe(262_650);
    // 5 bani left: a margin of 0.06 is refused, 0.05 passes.
    expect((await order(40, 10)).body.error).toMatchObject({ code: 'ORDER_INSUFFICIENT_FUNDS', params: { amountToDeposit: '0.01' } }); // 1.0 MWh at 0.40: 15 % = 0.06
    expect((await order(30, 10)).status).toBe(201); // 1.0 MWh at 0.30: 15 % = 0.045 → 0.05

    const figures = await report();
    expect(figures).toMatchObject({ clearingLimit: 500_000, unpaidAmount: 12_345, engineFunds: funds });
    expect(figures.initialMargin).toEqual({ orderPart: 262_655, transactionPart: 225_000, unlocked: 0, total: 487_655 });
    expect(figures.withUnpaid).toEqual({ currentMarginRequirement: 500_000, creditLimit: 0, marginCall: 0 });
    expect(figures.withoutUnpaid).toEqual({ currentMarginRequirement: 487_655, creditLimit: 12_345, marginCall: 0 });
  });

  it('turns a new unpaid amount into a margin call, and its payment releases it', async () => {
    await sql(`insert into payment_obligations (id, settlement_run_id, client_code, market_id, session_date, kind, direction, amount, currency, due_date, status)
               values ('O-2', 'R-1', $1, 'GAS-FWD', '2026-11-21', 'fees', 'pay', 10000, 'RON', '2026-11-23', 'unpaid')`, [CLIENT]);
    const alert = vi.spyOn(t.server.clearing.notifier, 'alert');
    await t.server.clearing.refresh([CLIENT]);
    expect(t.server.sequencer.engine.getClientFinancials(CLIENT)?.funds).toBe(500_000 - 225_000 - 22_345);
    expect(alert).toHaveBeenCalledWith('marginCall', CLIENT, { amount: '100.00', currency: 'RON' }, expect.any(String));
    alert.mockRestore();
    expect((await report()).withUnpaid).toEqual({ currentMarginRequirement: 510_000, creditLimit: 0, marginCall: 10_000 });
    // The operator console's open margin calls.
    expect(t.server.clearing.engineFunds.openMarginCalls()).toEqual([{ clientCode: CLIENT, amount: 10_000, currency: 'RON' }]);

    await sql(`update payment_obligations set status = 'paid', settled_at = now(), settled_by = 'U-001' where client_code = $1`, [CLIENT]);
    await t.server.clearing.refresh([CLIENT]);
    expect(t.server.sequencer.engine.getClientFinancials(CLIENT)?.funds).toBe(500_000 - 225_000);
    expect((await report()).withUnpaid).toEqual({ currentMarginRequirement: 487_655, creditLimit: 12_345, marginCall: 0 });
    expect(t.server.clearing.engineFunds.openMarginCalls()).toEqual([]);
    expect((await order(40, 10)).status).toBe(201);
  });

  it('journals nothing when a refresh finds the same figures', async () => {
    await t.server.clearing.engineFunds.settled();
    const before = t.server.sequencer.lastJournalSeq;
    await t.server.clearing.refresh([CLIENT, 'RO-HIDRO', 'SIM-NORD-1']);
    await t.server.clearing.refresh([CLIENT]);
    expect(t.server.sequencer.lastJournalSeq).toBe(before);
  });

  it('marks a new trade to the settlement price: its loss lowers the funds once the trade is seen', async () => {
    const broker1 = await t.login('broker1');
    // RO-HIDRO sells 1.0 MWh into RO-TERMO's bid at 175.10; the mark is 150.00: RO-TERMO loses 25.10.
    const sold = await t.post('/orders', { idempotencyKey: `funds-${database.name}-sell`, assetId: ASSET, way: 'ask', price: 17_510, qty: 10, validityType: 'GTC', clientCode: 'RO-HIDRO' }, broker1);
    expect(sold.status).toBe(201);
    await expect.poll(() => t.server.sequencer.engine.getClientFinancials(CLIENT)?.funds, { timeout: 5_000 }).toBe(500_000 - 225_000 - 2_510);
    await t.server.clearing.engineFunds.settled();
    const figures = await report();
    expect(figures.variationMargin).toEqual({ orderPart: 0, transactionPart: 2_510, unlocked: 0, total: 2_510 });
    // The engine now holds the trade's margin (15 % of 175.10) instead of the order's part that traded.
    expect(figures.initialMargin.transactionPart).toBe(225_000 + 2_627);
  });
});

describe('engine funds across a restart', () => {
  it('come back from the journal and are sent again over the trading setup at start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'collateral-restart-'));
    try {
      let t = await startTestServer({ tickIntervalMs: 0, dataDir });
      const admin = await t.login('admin');
      const created = await t.post('/admin/clearing/warranties', {
        clientCode: 'RO-GAZEST', warrantyNumber: 'RESTART-1', warrantyName: 'Depozit', kind: 'cash_deposit', depositDate: '2026-11-01', validityDate: '2027-11-01', value: 123_456, currency: 'RON',
      }, admin);
      expect(created.status).toBe(201);
      const funds = 30_000_000_000 + 123_456;
      expect(t.server.sequencer.engine.getClientFinancials('RO-GAZEST')?.funds).toBe(funds);
      const clock = t.clock.now();
      await t.server.close();

      t = await startTestServer({ tickIntervalMs: 0, dataDir }, clock);
      try {
        expect(t.server.sequencer.engine.getClientFinancials('RO-GAZEST')?.funds).toBe(funds);
        const rows = await t.server.store.db.query<{ funds: string }>("select funds from clearing_engine_funds where client_code = 'RO-GAZEST'");
        expect(Number(rows[0]?.funds)).toBe(funds);
      } finally {
        await t.server.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('trade-driven refreshes under continuous trading', () => {
  it('run one at a time, each no sooner than three times the last took, and leave no trade unrefreshed', async () => {
    const funds = new EngineFunds({ readModelsSettled: async () => {}, tradeDebounceMs: 20, now: Date.now } as unknown as EngineFundsOptions);
    const runs: Array<{ start: number; end: number; clients: string[] }> = [];
    let running = 0;
    let overlapped = false;
    // A refresh that takes 60 ms, as one reading many trades from a busy store would.
    funds.refresh = async (clients) => {
      if (++running > 1) overlapped = true;
      const start = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 60));
      runs.push({ start, end: performance.now(), clients: [...clients] });
      running--;
    };
    const trade = (n: number) => ({ type: 'trade', buyer: `B${n % 3}`, seller: `S${n % 2}` }) as unknown as EngineEvent;
    const until = performance.now() + 1_200;
    for (let n = 0; performance.now() < until; n++) {
      funds.onEvents([trade(n)]);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    funds.onEvents([{ type: 'trade', buyer: 'LAST-B', seller: 'LAST-S' } as unknown as EngineEvent]);
    await vi.waitFor(() => expect(runs.some((run) => run.clients.includes('LAST-B') && run.clients.includes('LAST-S'))).toBe(true), { timeout: 3_000, interval: 20 });
    funds.stop();
    expect(overlapped).toBe(false);
    // Under 200 ms apart (the 20 ms debounce alone) would be one every 80 ms: about 15 in 1.2 s.
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs.length).toBeLessThanOrEqual(7);
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.start - runs[i - 1]!.end, `gap before run ${i}`).toBeGreaterThanOrEqual(3 * (runs[i - 1]!.end - runs[i - 1]!.start) - 5);
  });
});
