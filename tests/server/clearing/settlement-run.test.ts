import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../protocol/index.ts';
import { SettlementRunner } from '../../../server/clearing/settlement-run.ts';
import { readDemoExchange } from '../../../server/demo/demo-exchange.ts';
import { SettlementRepository } from '../../../server/store/settlement.repository.ts';
import { openStore, type Store } from '../../../server/store/store.ts';
import { testDatabases } from '../../helpers/test-databases.ts';

// The worked example of docs/clearing.md "## Settlement", through the store: the day before sets the
// carried positions (A long 10.0, B short 10.0 at 400.00), then the example's day settles.
const FORWARD = 'EFWD-M-2027-01-BASE';
const SPOT = 'ESPOT-DA-BASE';
const A = 'RO-HIDRO';
const B = 'RO-TERMO';

function transaction(transactionId: number, assetId: string, txDate: string, buyer: string, seller: string, price: number, qty: number): Transaction {
  return {
    transactionId: String(transactionId), assetId, price, qty, noCnt: qty, aggressor: 'bid', txDate, timestamp: `${txDate}T20:00:0${transactionId}.000Z`,
    buyer, seller, buyOrderId: String(transactionId * 2), sellOrderId: String(transactionId * 2 + 1), marginsExposureActive: true,
    externalTransactionId: null, gasfwTransactionId: null, transferTimestamp: null, parentTransactionId: null, grandParentTransactionId: null, splitTimestamp: null,
  };
}

describe.each(testDatabases)('settlement run through the store ($name)', (database) => {
  let store: Store;
  let drop: () => Promise<void>;
  let settlement: SettlementRepository;
  let closed = true;
  let runner: SettlementRunner;
  const price = async (assetId: string, sessionDate: string, value: number, previous: number | null) =>
    settlement.saveComputedPrice({ id: `DSP-${assetId}-${sessionDate}`, assetId, sessionDate, priceFromTransactions: value, priceFromOrders: null, value, previousValue: previous, source: 'transactions', computedAt: `${sessionDate}T21:45:00.000Z` });

  beforeAll(async () => {
    const created = await database.create();
    drop = created.drop;
    store = await openStore({ dataDir: created.dataDir, databaseUrl: created.databaseUrl });
    const exchange = readDemoExchange();
    for (const market of exchange.markets.filter((row) => ['EL-FWD', 'EL-SPOT'].includes(row.id))) await store.reference.insertMarket(market);
    for (const asset of exchange.assets.filter((row) => [FORWARD, SPOT].includes(row.id))) await store.reference.insertAsset({ ...asset, ringId: null });
    for (const agency of exchange.agencies) await store.reference.insertAgency(agency);
    for (const client of exchange.clients.filter((row) => [A, B].includes(row.code))) await store.reference.insertClient(client);
    settlement = new SettlementRepository(store.db);
    await settlement.upsertClearingTerms({ assetId: FORWARD, initialMarginBps: 0, deliveryMarginBps: 0, feePerUnit: 10n, closingWindowMinutes: 30, physical: true, deliveryStart: '2027-01-01', deliveryEnd: '2027-01-31', expiryDate: null });
    await settlement.upsertClearingTerms({ assetId: SPOT, initialMarginBps: 0, deliveryMarginBps: 0, feePerUnit: 5n, closingWindowMinutes: 30, physical: true, deliveryStart: null, deliveryEnd: null, expiryDate: null });
    await store.trading.insertTransactions([
      transaction(9, FORWARD, '2026-11-24', A, B, 40_000, 100),
      transaction(1, FORWARD, '2026-11-25', A, B, 41_000, 50),
      transaction(2, FORWARD, '2026-11-25', B, A, 41_250, 25),
      transaction(3, SPOT, '2026-11-25', A, B, 35_055, 123),
      transaction(4, SPOT, '2026-11-25', B, A, 35_100, 40),
    ]);
    await price(FORWARD, '2026-11-24', 40_000, null);
    await price(FORWARD, '2026-11-25', 41_083, 40_000);
    await price(SPOT, '2026-11-25', 35_066, null);
    runner = new SettlementRunner({ settlement, reference: store.reference, isSessionClosed: () => closed, now: () => Date.parse('2026-11-25T22:00:00Z') });
  }, 60_000);
  afterAll(async () => {
    await store.close();
    await drop();
  });

  it('settles the worked example to its hand-computed figures', async () => {
    expect((await runner.run('EL-FWD', '2026-11-24')).status).toBe('completed');
    const forward = await runner.run('EL-FWD', '2026-11-25');
    expect(forward).toMatchObject({ settlementRunId: 'SR-EL-FWD-2026-11-25', status: 'completed', clients: 2, startedAt: '2026-11-25T22:00:00.000Z' });
    await runner.run('EL-SPOT', '2026-11-25');
    const day = { clientCodes: null, marketIds: null, from: '2026-11-25', to: '2026-11-25' };
    const notes = await settlement.listNotes(day);
    const figures = notes.map((note) => [note.marketId, note.clientCode, note.variationMargin, note.deliveryValue, note.fees, note.bankCommissions, note.toPay, note.toReceive]);
    expect(figures).toEqual([
      ['EL-FWD', A, 11_662, 0, 75, 500, 575, 11_662],
      ['EL-SPOT', A, 0, -290_777, 82, 1_000, 432_259, 140_400],
      ['EL-FWD', B, -11_663, 0, 75, 1_000, 12_738, 0],
      ['EL-SPOT', B, 0, 290_776, 82, 1_000, 141_482, 431_176],
    ]);
    const forwardLine = notes[0]!.lines[0]!;
    expect(forwardLine).toMatchObject({ openingQty: 100, closingQty: 125, previousSettlementPrice: 40_000, settlementPrice: 41_083 });
    const unpaid = await settlement.listUnpaid({ ...day, clientCodes: [A] }, '2026-11-27');
    expect(unpaid.map((row) => [row.obligationId, row.amount, row.dueDate, row.daysPassed])).toEqual([
      ['OB-3-B', 431_177, '2026-11-26', 1],
      ['OB-FE-EL-FWD-RO-HIDRO-2026-11-25', 575, '2026-11-26', 1],
      ['OB-FE-EL-SPOT-RO-HIDRO-2026-11-25', 1_082, '2026-11-26', 1],
    ]);
    expect((await settlement.listBankCommissions(day)).map((row) => [row.clientId, row.name, row.commission])).toEqual([
      [A, 'Hidro Furnizare SA', 500], [A, 'Hidro Furnizare SA', 1_000], [B, 'Termocentrala Vest SA', 1_000], [B, 'Termocentrala Vest SA', 1_000],
    ]);
    const report = await settlement.transactionReport('TR-RO-HIDRO-2026-11-25');
    expect(report!.transactions.map((row) => row.transactionId)).toEqual(['1', '2', '3', '4']);
  });

  it('answers a completed run unchanged, and refuses an open session', async () => {
    const before = await settlement.dumpTables();
    const first = await settlement.run('EL-FWD', '2026-11-25');
    const again = await runner.run('EL-FWD', '2026-11-25');
    expect(again.resultHash).toBe(first!.resultHash);
    expect(await settlement.dumpTables()).toBe(before);
    closed = false;
    await expect(runner.run('EL-FWD', '2026-11-26')).rejects.toMatchObject({ code: 'CLEARING_SESSION_NOT_CLOSED' });
    closed = true;
    await expect(runner.run('NO-SUCH-MARKET', '2026-11-26')).rejects.toMatchObject({ code: 'REQUEST_INVALID' });
    // The same run asked twice at once: the second is refused while the first runs.
    const [first2, second] = await Promise.allSettled([runner.run('EL-SPOT', '2026-11-25'), runner.run('EL-SPOT', '2026-11-25')]);
    expect(first2.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: { code: 'CLEARING_SETTLEMENT_RUN_IN_PROGRESS', params: { marketId: 'EL-SPOT', sessionDate: '2026-11-25' } } });
  });

  it('resumes a run a crash left running', async () => {
    await settlement.markRunStarted('SR-EL-FWD-2026-11-26', 'EL-FWD', '2026-11-26', '2026-11-26T22:00:00.000Z');
    expect((await settlement.runsInState('running')).map((run) => run.settlementRunId)).toEqual(['SR-EL-FWD-2026-11-26']);
    // An override of the 25th after its run: the 26th (no trade, no price of its own) marks from 410.83 to 411.00.
    await settlement.overridePrice('DSP-EFWD-M-2027-01-BASE-2026-11-25', 41_100, 'corrected', 'admin');
    const resumed = await runner.run('EL-FWD', '2026-11-26');
    expect(resumed).toMatchObject({ status: 'completed', startedAt: '2026-11-26T22:00:00.000Z' });
    const [a] = await settlement.listNotes({ clientCodes: [A], marketIds: null, from: '2026-11-26', to: '2026-11-26' });
    // 125 × (41100 − 41083) = 2,125 → 212.5 bani → 2.12 RON to receive
    expect(a).toMatchObject({ variationMargin: 212, toReceive: 212 });
    expect(a!.lines[0]).toMatchObject({ openingQty: 125, previousSettlementPrice: 41_083, settlementPrice: 41_100 });
  });
});
