import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAssetId, loadDemoExchangeIfEmpty } from '../../../server/demo/demo-exchange.ts';
import { loadDemoSettlementIfEmpty } from '../../../server/demo/demo-settlement.ts';
import { SettlementRepository } from '../../../server/store/settlement.repository.ts';
import { openStore, type Store } from '../../../server/store/store.ts';

const NOW = new Date('2026-11-27T10:00:00Z');
const own = { clientCodes: ['RO-HIDRO', 'RO-GAZEST'], marketIds: null };

describe('demo settlement history', () => {
  let store: Store;
  let settlement: SettlementRepository;
  beforeAll(async () => {
    store = await openStore({});
    await loadDemoExchangeIfEmpty(store, NOW);
    expect(await loadDemoSettlementIfEmpty(store, NOW)).toBe(true);
    settlement = new SettlementRepository(store.db);
  }, 60_000);
  afterAll(async () => {
    await store.close();
  });

  it('gives every settlement list rows for a demo broker', async () => {
    expect((await settlement.listDailyPrices(own)).length).toBeGreaterThan(0);
    expect((await settlement.listFinalPrices(own)).map((row) => [row.assetId, row.sessionDate])).toEqual([['PMC-BASE-W49', '2026-11-26']]);
    expect((await settlement.listRuns(own)).every((run) => run.status === 'completed' && run.sessionDate < '2026-11-27')).toBe(true);
    expect((await settlement.listNotes(own)).length).toBeGreaterThan(0);
    expect((await settlement.listBankCommissions(own)).length).toBeGreaterThan(0);
    expect((await settlement.listBatches(own)).length).toBeGreaterThan(0);
    expect((await settlement.listMonthlySummaries(own)).length).toBeGreaterThan(0);
    const reports = await settlement.listTransactionReports(own);
    expect(reports.length).toBeGreaterThan(0);
    expect((await settlement.transactionReport(reports[0]!.reportId))!.transactions.length).toBeGreaterThan(0);
    const statuses = new Set((await settlement.listObligations(own)).map((row) => row.status));
    expect(statuses).toEqual(new Set(['unpaid', 'paid', 'cashed']));
    expect((await settlement.listUnpaid(own, '2026-11-27')).length).toBeGreaterThan(0);
    expect((await settlement.clearingTerms()).size).toBe((await store.reference.assets()).length);
    expect((await settlement.clientIdentities()).get('RO-HIDRO')?.fiscalCode).toBe('RO13267221');
  });

  it('carries forward positions from day to day, and loads once', async () => {
    const notes = (await settlement.listNotes({ ...own, marketId: 'EL-FWD' })).reverse();
    const hidro = notes.filter((note) => note.clientCode === 'RO-HIDRO').map((note) => note.lines.find((line) => line.assetId === 'EFWD-M-2027-01-BASE')!);
    for (let day = 1; day < hidro.length; day++) expect(hidro[day]!.openingQty).toBe(hidro[day - 1]!.closingQty);
    expect(hidro.at(-1)!.closingQty).not.toBe(0);
    expect(await loadDemoSettlementIfEmpty(store, NOW)).toBe(false);
  });
});

describe('demo settlement history made far past the fixture\'s dates', () => {
  const at = new Date('2027-07-01T08:00:00Z');
  let store: Store;
  beforeAll(async () => {
    store = await openStore({});
    await loadDemoExchangeIfEmpty(store, at);
    expect(await loadDemoSettlementIfEmpty(store, at)).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await store.close();
  });

  it('trades the products listed that day: the PMC week in delivery expires on the last day of history, the power month carries positions', async () => {
    const settlement = new SettlementRepository(store.db);
    expect(demoAssetId('PMC-BASE-W49', at.getTime())).toBe('PMC-BASE-W26');
    expect((await settlement.listFinalPrices(own)).map((row) => [row.assetId, row.sessionDate])).toEqual([['PMC-BASE-W26', '2027-06-30']]);
    const power = demoAssetId('EFWD-M-2027-01-BASE', at.getTime());
    const notes = (await settlement.listNotes({ ...own, marketId: 'EL-FWD' })).filter((note) => note.clientCode === 'RO-HIDRO');
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((note) => note.lines.some((line) => line.assetId === power))).toBe(true);
    expect((await settlement.clearingTerms()).get(power)).toMatchObject({ deliveryStart: '2027-08-01', deliveryEnd: '2027-08-31', expiryDate: '2027-07-30' });
  });
});
