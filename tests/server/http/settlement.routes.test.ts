import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bankCommissionSchema,
  batchTransactionSchema,
  clearingListSchema,
  dailySettlementNoteSchema,
  dailySettlementPriceSchema,
  finalSettlementPriceSchema,
  monthlySettlementSummarySchema,
  paymentObligationSchema,
  settlementRunSchema,
  transactionReportSchema,
  unpaidTransactionSchema,
  type ClearingChange,
} from '../../../protocol/clearing.ts';
import { bucharestDate } from '../../../server/trading/time.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const FORWARD = 'EFWD-M-2027-01-BASE';
const QUIET_FORWARD = 'EFWD-Q1-2027-PEAK';
let keySeq = 0;
const order = (assetId: string, clientCode: string, way: 'bid' | 'ask', price: number, qty: number, validityType = 'GTC') => ({
  idempotencyKey: `settlement-routes-${++keySeq}`, assetId, way, price, qty, validityType, clientCode,
});

describe('settlement routes: a forward session closes and settles', () => {
  let t: TestServer;
  let admin: string;
  let broker1: string;
  let broker2: string;
  let sessionDate: string;
  const changes: ClearingChange[] = [];

  beforeAll(async () => {
    t = await startTestServer({ tickIntervalMs: 0 });
    [admin, broker1, broker2] = [await t.login('admin'), await t.login('broker1'), await t.login('broker2')];
    sessionDate = bucharestDate(t.clock.now());
    const terms = { initialMarginBps: 1000, deliveryMarginBps: 1500, closingWindowMinutes: 30, physical: true, deliveryStart: '2027-01-01', deliveryEnd: '2027-01-31', expiryDate: null };
    await t.server.settlement.settlement.upsertClearingTerms({ ...terms, assetId: FORWARD, feePerUnit: 10n, expiryDate: sessionDate });
    await t.server.settlement.settlement.upsertClearingTerms({ ...terms, assetId: QUIET_FORWARD, feePerUnit: 10n });
    const notify = (t.server.settlement as unknown as { options: { notify: (change: ClearingChange) => void } }).options;
    const original = notify.notify;
    notify.notify = (change) => {
      changes.push(change);
      original(change);
    };
  });
  afterAll(async () => {
    await t.server.close();
  });

  it('refuses a run before the close, and non-administrators', async () => {
    const early = await t.post('/admin/clearing/settlement-runs', { marketId: 'EL-FWD', sessionDate }, admin);
    expect(early).toMatchObject({ status: 409, body: { error: { code: 'CLEARING_SESSION_NOT_CLOSED', params: { marketId: 'EL-FWD', sessionDate } } } });
    const broker = await t.post('/admin/clearing/settlement-runs', { marketId: 'EL-FWD', sessionDate }, broker1);
    expect(broker).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
  });

  it('computes the price at the close, tells the engine, and settles the day', async () => {
    // 5.0 MWh at 410.00 between RO-HIDRO (buys) and RO-TERMO (sells)
    expect((await t.post('/orders', order(FORWARD, 'RO-TERMO', 'ask', 41_000, 50), broker2)).status).toBe(201);
    expect((await t.post('/orders', order(FORWARD, 'RO-HIDRO', 'bid', 41_000, 50), broker1)).status).toBe(201);
    // No trade on the quiet forward: its day orders expire at the close, after their best prices are taken.
    expect((await t.post('/orders', order(QUIET_FORWARD, 'RO-HIDRO', 'bid', 40_000, 10, 'day'), broker1)).status).toBe(201);
    expect((await t.post('/orders', order(QUIET_FORWARD, 'RO-TERMO', 'ask', 40_201, 10, 'day'), broker2)).status).toBe(201);
    await t.server.sequencer.submit({ type: 'setPhase', marketId: 'EL-FWD', assetId: null, phase: 'closed' });
    await t.server.settlement.idle();

    const prices = await t.get(`/clearing/daily-settlement-prices?marketId=EL-FWD&from=${sessionDate}&to=${sessionDate}`, broker1);
    expect(prices.status).toBe(200);
    clearingListSchema(dailySettlementPriceSchema).parse(prices.body);
    const priceOf = (assetId: string) => prices.body.items.find((row: { assetId: string }) => row.assetId === assetId);
    expect(priceOf(FORWARD)).toMatchObject({ priceFromTransactions: 41_000, value: 41_000, price: 41_000, source: 'transactions', previousValue: null });
    expect(priceOf(QUIET_FORWARD)).toMatchObject({ priceFromTransactions: null, priceFromOrders: 40_101, price: 40_101, source: 'orders' });
    expect(t.server.sequencer.engine.getStats(FORWARD)?.settlementPrice).toBe(41_000);
    expect(t.server.sequencer.engine.getStats(QUIET_FORWARD)?.settlementPrice).toBe(40_101);
    // The forward expires today: its final settlement price is the day's price.
    const finals = await t.get('/clearing/final-settlement-prices?marketId=EL-FWD', broker1);
    clearingListSchema(finalSettlementPriceSchema).parse(finals.body);
    expect(finals.body.items).toEqual([expect.objectContaining({ assetId: FORWARD, finalSettlementPrice: 41_000, dailySettlementPrice: 41_000, consultationPrice: null, priceFromLiquidation: null })]);

    const runs = await t.get('/clearing/settlement-runs?marketId=EL-FWD', broker1);
    clearingListSchema(settlementRunSchema).parse(runs.body);
    expect(runs.body.items).toEqual([expect.objectContaining({ marketId: 'EL-FWD', sessionDate, status: 'completed', clients: 2 })]);

    // Traded at the settlement price: no variation margin; fee 5.0 MWh × 0.10 = 0.50 RON, plus one 5.00 RON commission.
    const obligations = await t.get('/clearing/obligations?marketId=EL-FWD', broker1);
    clearingListSchema(paymentObligationSchema).parse(obligations.body);
    expect(obligations.body.items.map((row: { clientCode: string; kind: string; direction: string; amount: number; status: string }) => [row.clientCode, row.kind, row.direction, row.amount, row.status])).toEqual([
      ['RO-HIDRO', 'fees', 'pay', 550, 'unpaid'],
    ]);
    const notes = await t.get('/clearing/daily-notes?clientCode=RO-HIDRO', broker1);
    clearingListSchema(dailySettlementNoteSchema).parse(notes.body);
    expect(notes.body.items).toEqual([expect.objectContaining({ clientCode: 'RO-HIDRO', fees: 50, bankCommissions: 500, toPay: 550, toReceive: 0, variationMargin: 0 })]);
    expect(notes.body.items[0].lines).toEqual([expect.objectContaining({ assetId: FORWARD, openingQty: 0, boughtQty: 50, closingQty: 50, settlementPrice: 41_000 })]);
    const one = await t.get(`/clearing/daily-notes/${notes.body.items[0].noteId}`, broker1);
    expect(dailySettlementNoteSchema.parse(one.body).noteId).toBe(notes.body.items[0].noteId);
    expect((await t.get(`/clearing/daily-notes/${notes.body.items[0].noteId}`, broker2)).body.error.code).toBe('CLEARING_NOTE_NOT_FOUND');

    expect(changes).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'settlement_price', marketId: 'EL-FWD', sessionDate }),
      expect.objectContaining({ kind: 'settlement', clientCode: 'RO-HIDRO', sessionDate }),
      expect.objectContaining({ kind: 'settlement', clientCode: 'RO-TERMO', sessionDate }),
    ]));
  });

  it('lists each table to whom it belongs, in the protocol shapes', async () => {
    const lists = [
      ['/clearing/bank-commissions', bankCommissionSchema],
      ['/clearing/batches', batchTransactionSchema],
      ['/clearing/monthly-summaries', monthlySettlementSummarySchema],
      ['/clearing/transaction-reports', transactionReportSchema],
      ['/clearing/unpaid-transactions', unpaidTransactionSchema],
    ] as const;
    for (const [path, schema] of lists) {
      const own = await t.get(path, broker1);
      expect(own.status, path).toBe(200);
      clearingListSchema(schema).parse(own.body);
      expect(own.body.items.length, path).toBeGreaterThan(0);
      const all = await t.get(path, admin);
      expect(all.body.items.length, path).toBeGreaterThanOrEqual(own.body.items.length);
    }
    const batches = await t.get('/clearing/batches', broker1);
    expect(batches.body.items).toEqual([expect.objectContaining({ assetId: FORWARD, pieces: 10, piecesCnt: 5, singlePieceAmount: 41_000 })]);
    const reports = await t.get('/clearing/transaction-reports', broker1);
    const report = await t.get(`/clearing/transaction-reports/${reports.body.items[0].reportId}`, broker1);
    expect(report.body.transactions.map((row: { assetId: string; qty: number }) => [row.assetId, row.qty])).toEqual([[FORWARD, 50]]);
    const summary = await t.get(`/clearing/monthly-summaries/RO-HIDRO/${sessionDate.slice(0, 7)}`, broker1);
    expect(monthlySettlementSummarySchema.parse(summary.body)).toMatchObject({ notes: 1, fees: 50, bankCommissions: 500, toPay: 550, unpaid: 550, paid: 0 });
    // Another agency's client is not found; a reversed range is refused.
    expect((await t.get('/clearing/obligations?clientCode=RO-HIDRO', broker2)).body.error).toMatchObject({ code: 'CLEARING_CLIENT_NOT_FOUND', params: { clientCode: 'RO-HIDRO' } });
    expect((await t.get('/clearing/obligations?from=2026-12-02&to=2026-12-01', broker1)).body.error.code).toBe('CLEARING_DATE_RANGE_INVALID');
    expect((await t.get('/clearing/obligations?status=lost', broker1)).body.error.code).toBe('REQUEST_INVALID');
    expect((await t.get('/clearing/obligations', broker2)).body.items.every((row: { clientCode: string }) => ['RO-TERMO', 'RO-INDUS'].includes(row.clientCode))).toBe(true);
  });

  it('runs again to the same result, and records a payment once', async () => {
    const before = (await t.get('/clearing/settlement-runs?marketId=EL-FWD', admin)).body.items[0];
    const again = await t.post('/admin/clearing/settlement-runs', { marketId: 'EL-FWD', sessionDate }, admin);
    expect(again.status).toBe(200);
    expect(again.body.resultHash).toBe(before.resultHash);

    const [unpaid] = (await t.get('/clearing/unpaid-transactions?clientCode=RO-HIDRO', broker1)).body.items;
    expect(unpaid).toMatchObject({ clientCode: 'RO-HIDRO', amount: 550, daysPassed: 0, transactionId: null });
    const unpaidIn = async () => (await t.get('/clearing/financial-report?clientCode=RO-HIDRO', broker1)).body.items[0].unpaidAmount;
    // The collateral side counts the unpaid obligation in the margin call until it is paid.
    expect(await unpaidIn()).toBe(550);
    const paid = await t.post(`/admin/clearing/obligations/${unpaid.obligationId}/settle`, { reference: 'OP 118/2026' }, admin);
    expect(await unpaidIn()).toBe(0);
    expect(paid).toMatchObject({ status: 200, body: { status: 'paid', settledBy: 'admin' } });
    expect((await t.get('/clearing/unpaid-transactions?clientCode=RO-HIDRO', broker1)).body.items).toEqual([]);
    expect((await t.get('/clearing/obligations?status=paid', broker1)).body.items.map((row: { obligationId: string }) => row.obligationId)).toEqual([unpaid.obligationId]);
    const twice = await t.post(`/admin/clearing/obligations/${unpaid.obligationId}/settle`, { reference: 'OP 118/2026' }, admin);
    expect(twice.body.error).toMatchObject({ code: 'CLEARING_OBLIGATION_ALREADY_SETTLED', params: { obligationId: unpaid.obligationId, status: 'paid' } });
    expect((await t.post('/admin/clearing/obligations/OB-NONE/settle', { reference: 'x' }, admin)).body.error.code).toBe('CLEARING_OBLIGATION_NOT_FOUND');
    expect((await t.post(`/admin/clearing/obligations/${unpaid.obligationId}/settle`, { reference: 'x' }, broker1)).status).toBe(403);
    expect(changes).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'payment', clientCode: 'RO-HIDRO' })]));
  });

  it('keeps an override with its reason and gives it to the engine', async () => {
    const prices = await t.get(`/clearing/daily-settlement-prices?assetId=${QUIET_FORWARD}`, admin);
    const id = prices.body.items[0].dailySettlementPriceId;
    const overridden = await t.post(`/admin/clearing/daily-settlement-prices/${id}/override`, { price: 40_150, reason: 'Thin book at the close' }, admin);
    expect(dailySettlementPriceSchema.parse(overridden.body)).toMatchObject({ value: 40_101, price: 40_150, source: 'override', overrideReason: 'Thin book at the close', overriddenBy: 'admin' });
    expect(t.server.sequencer.engine.getStats(QUIET_FORWARD)?.settlementPrice).toBe(40_150);
    expect((await t.post('/admin/clearing/daily-settlement-prices/DSP-NONE/override', { price: 1, reason: 'none at all' }, admin)).body.error.code).toBe('CLEARING_SETTLEMENT_PRICE_NOT_FOUND');
    expect((await t.post(`/admin/clearing/daily-settlement-prices/${id}/override`, { price: 1, reason: 'mine' }, broker1)).status).toBe(403);
  });
});
