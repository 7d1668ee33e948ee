import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARRANTY_NOTICE_DAYS } from '../../../protocol/index.ts';
import { addDays, warrantyStatus } from '../../../server/clearing/collateral-service.ts';
import { loadDemoCollateral } from '../../../server/demo/demo-collateral.ts';
import { demoAssetId, loadDemoExchangeIfEmpty } from '../../../server/demo/demo-exchange.ts';
import { CollateralRepository } from '../../../server/store/collateral.repository.ts';
import { openStore, type Store } from '../../../server/store/store.ts';

describe('demo collateral', () => {
  let store: Store;
  const now = new Date(Date.UTC(2026, 10, 22, 9, 0, 0));
  const today = '2026-11-22';
  beforeAll(async () => {
    store = await openStore({});
    await loadDemoExchangeIfEmpty(store, now);
    await loadDemoCollateral(store, now);
  });
  afterAll(async () => {
    await store?.close();
  });

  it('gives each real demo client warranties worth its trading-setup funds today', async () => {
    const repository = new CollateralRepository(store.db);
    const managed = await repository.clientsWithWarranties();
    expect([...managed].sort()).toEqual(['RO-GAZEST', 'RO-HIDRO', 'RO-INDUS', 'RO-TERMO']);
    for (const setup of await store.reference.tradingSetups()) {
      if (managed.has(setup.clientCode)) expect(await repository.clearingLimit(setup.clientCode, today), setup.clientCode).toBe(setup.funds);
    }
  });

  it('has one warranty that stops counting within the notice days, a released one and an expired one', async () => {
    const warranties = await new CollateralRepository(store.db).warranties(null);
    const statuses = warranties.map((warranty) => warrantyStatus(warranty, today));
    expect(statuses).toContain('released');
    expect(statuses).toContain('expired');
    const soon = warranties.filter((warranty) => warrantyStatus(warranty, today) === 'active' && warranty.validityDate < addDays(today, WARRANTY_NOTICE_DAYS + 1));
    expect(soon.map((warranty) => warranty.warrantyNumber)).toEqual(['SGB-RAI-310']);
  });

  it('restricts one client', async () => {
    const restrictions = await new CollateralRepository(store.db).restrictions(null);
    expect(new Set(restrictions.map((row) => row.clientCode))).toEqual(new Set(['RO-INDUS']));
    expect(restrictions.find((row) => row.assetId === 'GFWD-Q1-2027')).toMatchObject({ imbalanceWay: 'bid', imbalanceQty: 10_000 });
  });
});

describe('demo collateral made far past the fixture\'s dates', () => {
  it('restricts the client on the gas quarter listed that day', async () => {
    const at = new Date('2027-07-01T08:00:00Z');
    const store = await openStore({});
    try {
      await loadDemoExchangeIfEmpty(store, at);
      await loadDemoCollateral(store, at);
      const quarter = demoAssetId('GFWD-Q1-2027', at.getTime());
      expect(quarter).toBe('GFWD-Q4-2027');
      expect((await store.reference.assets()).some((asset) => asset.id === quarter)).toBe(true);
      const restrictions = await new CollateralRepository(store.db).restrictions(null);
      expect(restrictions.find((row) => row.assetId === quarter)).toMatchObject({ clientCode: 'RO-INDUS', imbalanceWay: 'bid', imbalanceQty: 10_000 });
    } finally {
      await store.close();
    }
  }, 60_000);
});
