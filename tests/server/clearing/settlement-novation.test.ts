import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../protocol/index.ts';
import { EngineFunds, type EngineFundsOptions } from '../../../server/clearing/engine-funds.ts';
import { SettlementRunner } from '../../../server/clearing/settlement-run.ts';
import { readDemoExchange } from '../../../server/demo/demo-exchange.ts';
import { CollateralRepository } from '../../../server/store/collateral.repository.ts';
import { SettlementRepository } from '../../../server/store/settlement.repository.ts';
import { openStore, type Store } from '../../../server/store/store.ts';
import { testDatabases } from '../../helpers/test-databases.ts';

// docs/clearing.md "Unwinding a transaction novated after a settlement", through the store. D0: A buys
// 3.0 MWh (tx 9) and 10.0 MWh (T, tx 10) of X from B at 400.00; D0's run carries A +13.0, B −13.0 at
// 405.00. D1: T is novated: 6.0 MWh to the CCP asset Y (tx 11), 4.0 MWh stay in X as a split (tx 12).
const X = 'EFWD-M-2027-01-BASE';
const Y = 'ECCP-M-2027-01';
const A = 'RO-HIDRO';
const B = 'RO-TERMO';
const D0 = '2026-11-24';
const D1 = '2026-11-25';

function transaction(id: number, assetId: string, txDate: string, qty: number, extra: Partial<Transaction> = {}): Transaction {
  return {
    transactionId: String(id), assetId, price: 40_000, qty, noCnt: qty, aggressor: 'bid', txDate, timestamp: `${txDate}T09:00:${String(id).padStart(2, '0')}.000Z`,
    buyer: A, seller: B, buyOrderId: String(id * 2), sellOrderId: String(id * 2 + 1), marginsExposureActive: true,
    externalTransactionId: null, gasfwTransactionId: null, transferTimestamp: null, parentTransactionId: null, grandParentTransactionId: null, splitTimestamp: null,
    ...extra,
  };
}

describe.each(testDatabases)('a transaction novated after a settlement carried it ($name)', (database) => {
  let store: Store;
  let drop: () => Promise<void>;
  let settlement: SettlementRepository;
  let runner: SettlementRunner;
  let now = Date.parse(`${D0}T22:00:00Z`);
  const price = async (assetId: string, sessionDate: string, value: number, previous: number | null) =>
    settlement.saveComputedPrice({ id: `DSP-${assetId}-${sessionDate}`, assetId, sessionDate, priceFromTransactions: value, priceFromOrders: null, value, previousValue: previous, source: 'transactions', computedAt: `${sessionDate}T21:45:00.000Z` });
  const positions = async (sessionDate: string) =>
    (await store.db.query<{ client_code: string; asset_id: string; qty: string | number }>('select client_code, asset_id, qty from settlement_positions where session_date = $1 order by client_code, asset_id', [sessionDate]))
      .map((row) => [row.client_code, row.asset_id, Number(row.qty)]);
  // The financial report's figures on D1, from the store (no engine figures: the engine holds nothing for these clients here).
  const figures = (clientCode: string) => {
    const engine = { getStats: () => ({ sessionDate: D1 }), getClientFinancials: () => undefined };
    const funds = new EngineFunds({ store, repository: new CollateralRepository(store.db), sequencer: { engine }, now: () => Date.parse(`${D1}T10:00:00Z`) } as unknown as EngineFundsOptions);
    return funds.figures(clientCode);
  };

  beforeAll(async () => {
    const created = await database.create();
    drop = created.drop;
    store = await openStore({ dataDir: created.dataDir, databaseUrl: created.databaseUrl });
    const exchange = readDemoExchange();
    for (const market of exchange.markets.filter((row) => ['EL-FWD', 'EL-CCP'].includes(row.id))) await store.reference.insertMarket(market);
    for (const asset of exchange.assets.filter((row) => [X, Y].includes(row.id))) await store.reference.insertAsset({ ...asset, ringId: null });
    for (const agency of exchange.agencies) await store.reference.insertAgency(agency);
    for (const client of exchange.clients.filter((row) => [A, B].includes(row.code))) await store.reference.insertClient(client);
    settlement = new SettlementRepository(store.db);
    for (const assetId of [X, Y]) {
      await settlement.upsertClearingTerms({ assetId, initialMarginBps: 1_000, deliveryMarginBps: 0, feePerUnit: 10n, closingWindowMinutes: 30, physical: true, deliveryStart: '2027-01-01', deliveryEnd: '2027-01-31', expiryDate: null });
    }
    await store.trading.insertTransactions([transaction(9, X, D0, 30), transaction(10, X, D0, 100)]);
    await price(X, D0, 40_500, null);
    runner = new SettlementRunner({ settlement, reference: store.reference, isSessionClosed: () => true, now: () => now });
    expect((await runner.run('EL-FWD', D0)).status).toBe('completed');
    // The novation on D1 (after D0's run): T superseded, its children booked at its price with D1's date.
    await store.db.query(`update transactions set data = data || '{"status":"superseded"}'::jsonb where transaction_id = 10`);
    await store.trading.insertTransactions([
      transaction(11, Y, D1, 60, { origin: 'transfer', parentTransactionId: '10', transferTimestamp: `${D1}T09:00:11.000Z` }),
      transaction(12, X, D1, 40, { origin: 'split', parentTransactionId: '10', splitTimestamp: `${D1}T09:00:12.000Z` }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await store.close();
    await drop();
  });

  it('leaves T out of the carried position of the financial report while its children are the session\'s trades', async () => {
    expect(await positions(D0)).toEqual([[A, X, 130], [B, X, -130]]);
    // Carried 13.0 − 10.0 = 3.0 MWh × 405.00 = 1,215.00; IM 10 % = 121.50 (not 13.0 × 405.00 = 5,265.00 and 526.50): the children's margin is the engine's.
    for (const clientCode of [A, B]) {
      const report = await figures(clientCode);
      expect(report.initialMargin).toMatchObject({ transactionPart: 12_150, unlocked: 0 });
      expect(report.totalExposure).toBe(121_500);
    }
  });

  it('settles D1 with T unwound: no double count in positions or variation margin', async () => {
    now = Date.parse(`${D1}T22:00:00Z`);
    await price(X, D1, 41_000, 40_500);
    await price(Y, D1, 41_200, null);
    const forward = await runner.run('EL-FWD', D1);
    expect(forward.status).toBe('completed');
    expect((await runner.run('EL-CCP', D1)).status).toBe('completed');
    // A on X: 130·(41000 − 40500) = 65,000; unwind −100·(41000 − 40000) = −100,000; split 40·(41000 − 40000) = 40,000 → 5,000 → 5.00 RON.
    const notes = await settlement.listNotes({ clientCodes: null, marketIds: null, marketId: 'EL-FWD', from: D1, to: D1 });
    expect(notes.map((note) => [note.clientCode, note.variationMargin, note.fees, note.toPay, note.toReceive])).toEqual([
      [A, 500, 40, 540, 500],
      [B, -500, 40, 1_540, 0],
    ]);
    expect(notes[0]!.lines[0]).toMatchObject({ openingQty: 130, boughtQty: 40, soldQty: 100, closingQty: 70, previousSettlementPrice: 40_500, settlementPrice: 41_000 });
    // A on Y: 60·(41200 − 40000) = 72,000 → 72.00 RON.
    const ccp = await settlement.listNotes({ clientCodes: null, marketIds: null, marketId: 'EL-CCP', from: D1, to: D1 });
    expect(ccp.map((note) => [note.clientCode, note.variationMargin])).toEqual([[A, 7_200], [B, -7_200]]);
    expect(await positions(D1)).toEqual([[A, Y, 60], [A, X, 70], [B, Y, -60], [B, X, -70]]);
    // Reported to clearing: the split only (the transfer is the CCP market's); the unwind is no transaction.
    expect((await settlement.listBatches({ clientCodes: null, marketIds: null, marketId: 'EL-FWD', from: D1, to: D1 })).map((row) => row.transactionId)).toEqual(['12']);
  });

  it('unwinds the same on a resumed run', async () => {
    const first = (await settlement.run('EL-FWD', D1))!;
    const before = await settlement.dumpTables();
    // As a crash inside the run's transaction would leave it: the marker still running.
    await store.db.query(`update settlement_runs set status = 'running', completed_at = null, result_hash = null where id = $1`, [first.settlementRunId]);
    const again = await runner.run('EL-FWD', D1);
    expect(again.resultHash).toBe(first.resultHash);
    expect(await settlement.dumpTables()).toBe(before);
    expect(await positions(D1)).toEqual([[A, Y, 60], [A, X, 70], [B, Y, -60], [B, X, -70]]);
  });

  it('counts the position the run carried out of D1 once the run is done', async () => {
    // X 7.0 × 410.00 = 2,870.00 and Y 6.0 × 412.00 = 2,472.00; IM 10 % = 287.00 + 247.20.
    const report = await figures(A);
    expect(report.initialMargin.transactionPart).toBe(53_420);
    expect(report.totalExposure).toBe(534_200);
  });
});
