import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { financialReportSchema } from '../../../protocol/index.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';
import { parsePdf } from './documents/pdf-text.ts';

// The settlement day of docs/clearing.md ("The settlement day scenario"): every figure below is
// computed by hand there, from the formulas of that document, not by the code under test.
const FORWARD = 'EFWD-M-2027-01-BASE'; // EL-FWD, prices with 2 decimals, quantities with 1
const SESSION = '2026-11-22'; // the test clock's first day (Bucharest)
const NEXT_DAY = '2026-11-23';
const BUYER = 'RO-HIDRO'; // broker1, agency1
const SELLER = 'RO-TERMO'; // broker2, agency2

describe.each(testDatabases)('a settlement day on $name', (database) => {
  let t: TestServer;
  let drop: () => Promise<void> = async () => {};
  let admin: string;
  let broker1: string;
  let broker2: string;
  let keySeq = 0;
  const order = (token: string, clientCode: string, way: 'bid' | 'ask', price: number, qty: number) =>
    t.post('/orders', { idempotencyKey: `scenario-${database.name}-${++keySeq}`, assetId: FORWARD, way, price, qty, validityType: 'GTC', clientCode }, token);
  const report = async (clientCode: string, token: string) => {
    const response = await t.get(`/clearing/financial-report?clientCode=${clientCode}`, token);
    expect(response.status).toBe(200);
    return financialReportSchema.parse(response.body.items[0]);
  };
  const obligationsOf = async (clientCode: string, token: string) =>
    (await t.get(`/clearing/obligations?clientCode=${clientCode}&marketId=EL-FWD`, token)).body.items
      .map((row: { kind: string; direction: string; amount: number; status: string; dueDate: string }) => [row.kind, row.direction, row.amount, row.status, row.dueDate])
      .sort();
  const fundsOf = (clientCode: string) => t.server.sequencer.engine.getClientFinancials(clientCode)?.funds;

  beforeAll(async () => {
    const created = await database.create();
    drop = created.drop;
    t = await startTestServer({ tickIntervalMs: 0, dataDir: created.dataDir, databaseUrl: created.databaseUrl });
    [admin, broker1, broker2] = [await t.login('admin'), await t.login('broker1'), await t.login('broker2')];
  });
  afterAll(async () => {
    await t?.server.close();
    await drop();
  });

  it('1. the administrator records the warranties and the forward gets its clearing terms', async () => {
    const warranty = (clientCode: string, warrantyNumber: string, value: number, validityDate = '2027-11-01') => ({
      clientCode, warrantyNumber, warrantyName: 'Garanție', kind: 'cash_deposit', depositDate: '2026-11-01', validityDate, value, currency: 'RON',
    });
    // The demo warranties give way to the scenario's. The buyer: 140.00 RON, plus 500.00 RON that stop
    // counting the next day (so the day's trading is covered, the next day's figures are not). The seller: 50,000.00 RON.
    for (const clientCode of [BUYER, SELLER]) {
      for (const row of (await t.get(`/clearing/warranties?clientCode=${clientCode}`, admin)).body.items) {
        if (row.status !== 'released') expect((await t.post(`/admin/clearing/warranties/${row.clientWarrantyId}/release`, {}, admin)).status).toBe(200);
      }
    }
    expect((await t.post('/admin/clearing/warranties', warranty(BUYER, 'SCEN-H-1', 14_000), admin)).status).toBe(201);
    expect((await t.post('/admin/clearing/warranties', warranty(BUYER, 'SCEN-H-2', 50_000, NEXT_DAY), admin)).status).toBe(201);
    expect((await t.post('/admin/clearing/warranties', warranty(SELLER, 'SCEN-T-1', 5_000_000), admin)).status).toBe(201);

    // No route sets clearing terms: the settlement side's own upsert, then the refresh that gives the rate to the engine.
    await t.server.settlement.settlement.upsertClearingTerms({
      assetId: FORWARD, initialMarginBps: 1000, deliveryMarginBps: 1500, feePerUnit: 10n, closingWindowMinutes: 30,
      physical: true, deliveryStart: '2027-01-01', deliveryEnd: '2027-01-31', expiryDate: null,
    });
    await t.server.clearing.engineFunds.syncAssetMargins();
    expect((await t.get(`/assets/${FORWARD}`, broker1)).body.marginBps).toBe(1000);
    // The previous session's price: 400.00.
    await t.server.store.db.query(
      "insert into daily_settlement_prices (id, asset_id, session_date, value, previous_value, source, computed_at) values ('DSP-SCENARIO-PREV', $1, '2026-11-20', 40000, null, 'transactions', now())",
      [FORWARD],
    );
    // Nothing carried, nothing owed: the whole warranty is free.
    expect(fundsOf(BUYER)).toBe(64_000);
    expect(fundsOf(SELLER)).toBe(5_000_000);
  });

  it('2-3. two clients trade the forward, the close prices and settles the day', async () => {
    // T1: the buyer buys 5.0 MWh at 410.00; T2: the seller buys back 2.0 MWh at 405.00.
    expect((await order(broker2, SELLER, 'ask', 41_000, 50)).status).toBe(201);
    expect((await order(broker1, BUYER, 'bid', 41_000, 50)).status).toBe(201);
    const sold = await order(broker1, BUYER, 'ask', 40_500, 20);
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect((await order(broker2, SELLER, 'bid', 40_500, 20)).status).toBe(201);
    await t.server.projector.settled();
    await t.server.sequencer.submit({ type: 'setPhase', marketId: 'EL-FWD', assetId: null, phase: 'closed' });
    await t.server.settlement.idle();

    const prices = (await t.get(`/clearing/daily-settlement-prices?assetId=${FORWARD}&from=${SESSION}&to=${SESSION}`, broker1)).body.items;
    expect(prices).toEqual([expect.objectContaining({ sessionDate: SESSION, priceFromTransactions: 40_857, value: 40_857, price: 40_857, previousValue: 40_000, variationBps: 214, source: 'transactions' })]);
    const runs = (await t.get('/clearing/settlement-runs?marketId=EL-FWD', admin)).body.items;
    expect(runs).toEqual([expect.objectContaining({ sessionDate: SESSION, status: 'completed', clients: 2 })]);
    // Settled: the engine gives up the day's trade margin at once, and the carried position alone holds
    // it (the same figure as the next day's below), not both.
    expect(t.server.sequencer.engine.getClientFinancials(BUYER)).toMatchObject({ tradesMargin: 0, tradedValue: 0 });
    expect((await report(BUYER, broker1)).initialMargin).toEqual({ orderPart: 0, transactionPart: 12_258, unlocked: 0, total: 12_258 });
  });

  it('4. the notes, obligations, commissions and financial reports equal the hand-computed figures', async () => {
    const noteOf = async (clientCode: string, token: string) => (await t.get(`/clearing/daily-notes?clientCode=${clientCode}`, token)).body.items;
    const [buyerNote] = await noteOf(BUYER, broker1);
    expect(buyerNote).toMatchObject({ sessionDate: SESSION, variationMargin: -1_429, deliveryValue: 0, fees: 70, bankCommissions: 1_000, toPay: 2_499, toReceive: 0 });
    expect(buyerNote.lines).toEqual([expect.objectContaining({ assetId: FORWARD, openingQty: 0, boughtQty: 50, soldQty: 20, closingQty: 30, settlementPrice: 40_857, variationMargin: -1_429, fees: 70 })]);
    const [sellerNote] = await noteOf(SELLER, broker2);
    expect(sellerNote).toMatchObject({ variationMargin: 1_429, deliveryValue: 0, fees: 70, bankCommissions: 500, toPay: 570, toReceive: 1_429 });
    expect(sellerNote.lines).toEqual([expect.objectContaining({ openingQty: 0, boughtQty: 20, soldQty: 50, closingQty: -30, variationMargin: 1_429 })]);

    expect(await obligationsOf(BUYER, broker1)).toEqual([['fees', 'pay', 1_070, 'unpaid', NEXT_DAY], ['variation_margin', 'pay', 1_429, 'unpaid', NEXT_DAY]]);
    expect(await obligationsOf(SELLER, broker2)).toEqual([['fees', 'pay', 570, 'unpaid', NEXT_DAY], ['variation_margin', 'receive', 1_429, 'unpaid', NEXT_DAY]]);
    const commissions = (await t.get(`/clearing/bank-commissions?from=${SESSION}&to=${SESSION}`, admin)).body.items;
    expect(commissions.map((row: { clientId: string; commission: number; date: string }) => [row.clientId, row.commission, row.date]).sort()).toEqual([[BUYER, 1_000, SESSION], [SELLER, 500, SESSION]]);

    // The next business day opens: the engine lets go of the settled trades' margin, the carried positions hold it.
    t.clock.advance(Date.parse(`${NEXT_DAY}T07:00:00Z`) - t.clock.now());
    [admin, broker1, broker2] = [await t.login('admin'), await t.login('broker1'), await t.login('broker2')];
    await t.server.sequencer.submit({ type: 'setPhase', marketId: 'EL-FWD', assetId: null, phase: 'trading', sessionDate: NEXT_DAY });
    // What the 00:01 daily refresh does (the test clock drives no timer): the 500.00 RON guarantee stops counting.
    await t.server.clearing.refresh([BUYER, SELLER]);

    const buyer = await report(BUYER, broker1);
    expect(buyer).toMatchObject({ clearingLimit: 14_000, unpaidAmount: 2_499, engineFunds: 0 });
    expect(buyer.initialMargin).toEqual({ orderPart: 0, transactionPart: 12_258, unlocked: 0, total: 12_258 });
    expect(buyer.variationMargin.total).toBe(0);
    expect(buyer.withUnpaid).toEqual({ currentMarginRequirement: 14_757, creditLimit: 0, marginCall: 757 });
    expect(buyer.withoutUnpaid).toEqual({ currentMarginRequirement: 12_258, creditLimit: 1_742, marginCall: 0 });
    const seller = await report(SELLER, broker2);
    expect(seller).toMatchObject({ clearingLimit: 5_000_000, unpaidAmount: 570, engineFunds: 4_987_172 });
    expect(seller.initialMargin.total).toBe(12_258);
    expect(seller.withUnpaid).toEqual({ currentMarginRequirement: 12_828, creditLimit: 4_987_172, marginCall: 0 });
    expect(fundsOf(BUYER)).toBe(0);
    expect(fundsOf(SELLER)).toBe(4_987_172);
    // With the margin call, the buyer can place nothing that needs margin.
    expect((await order(broker1, BUYER, 'bid', 100, 10)).body.error).toMatchObject({ code: 'ORDER_INSUFFICIENT_FUNDS', params: { amountToDeposit: '0.10', currency: 'RON' } });
  });

  it('5. the administrator records the payments: unpaid becomes paid and the margin call is released', async () => {
    const unpaid = (await t.get(`/clearing/unpaid-transactions?clientCode=${BUYER}`, broker1)).body.items;
    expect(unpaid.map((row: { amount: number; daysPassed: number }) => [row.amount, row.daysPassed]).sort()).toEqual([[1_070, 0], [1_429, 0]]);
    for (const row of unpaid) {
      const paid = await t.post(`/admin/clearing/obligations/${row.obligationId}/settle`, { reference: `OP ${row.obligationId}` }, admin);
      expect(paid).toMatchObject({ status: 200, body: { status: 'paid', settledBy: 'admin' } });
    }
    expect(await obligationsOf(BUYER, broker1)).toEqual([['fees', 'pay', 1_070, 'paid', NEXT_DAY], ['variation_margin', 'pay', 1_429, 'paid', NEXT_DAY]]);
    expect((await t.get(`/clearing/unpaid-transactions?clientCode=${BUYER}`, broker1)).body.items).toEqual([]);
    await expect.poll(() => fundsOf(BUYER), { timeout: 5_000 }).toBe(1_742);
    const buyer = await report(BUYER, broker1);
    expect(buyer).toMatchObject({ unpaidAmount: 0, engineFunds: 1_742 });
    expect(buyer.withUnpaid).toEqual({ currentMarginRequirement: 12_258, creditLimit: 1_742, marginCall: 0 });
  });

  it('6. the engine refuses an order exactly past the free funds of the new figures', async () => {
    // Free: 17.42 RON. 2.0 MWh at 100.00 needs 20.00 → 2.58 short; 1.0 MWh at 174.21 needs 17.43 → 0.01 short; at 174.20 exactly 17.42.
    expect((await order(broker1, BUYER, 'bid', 10_000, 20)).body.error).toMatchObject({ code: 'ORDER_INSUFFICIENT_FUNDS', params: { amountToDeposit: '2.58', currency: 'RON' } });
    expect((await order(broker1, BUYER, 'bid', 17_421, 10)).body.error).toMatchObject({ code: 'ORDER_INSUFFICIENT_FUNDS', params: { amountToDeposit: '0.01' } });
    expect((await order(broker1, BUYER, 'bid', 17_420, 10)).status).toBe(201);
    expect(t.server.sequencer.engine.getClientFinancials(BUYER)?.reservedMargin).toBe(1_742);
  });

  it('7. the paying client note downloads as a PDF naming the client', async () => {
    const [note] = (await t.get(`/clearing/daily-notes?clientCode=${BUYER}`, broker1)).body.items;
    const response = await fetch(`${t.api}/clearing/daily-notes/${note.noteId}/pdf?lang=en`, { headers: { authorization: `Bearer ${broker1}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/pdf/);
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = (await parsePdf(pdf)).pages.flat().join(' ');
    expect(text).toContain(BUYER);
    expect(text).toContain(note.clientName);
    expect(text).toContain('24.99');
  });
});
