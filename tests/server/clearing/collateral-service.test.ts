import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClearingChange, Notification } from '../../../protocol/index.ts';
import { addDays, CollateralService, warrantyStatus } from '../../../server/clearing/collateral-service.ts';
import { loadDemoExchangeIfEmpty } from '../../../server/demo/demo-exchange.ts';
import { CollateralRepository } from '../../../server/store/collateral.repository.ts';
import { openStore, type Store } from '../../../server/store/store.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { TestClock } from '../../helpers/test-clock.ts';

describe('warranty status', () => {
  const warranty = { depositDate: '2026-11-10', validityDate: '2026-11-20', releasedAt: null };
  it('counts from the deposit date up to the day before the validity date', () => {
    expect(warrantyStatus(warranty, '2026-11-09')).toBe('pending');
    expect(warrantyStatus(warranty, '2026-11-10')).toBe('active');
    expect(warrantyStatus(warranty, '2026-11-19')).toBe('active');
    expect(warrantyStatus(warranty, '2026-11-20')).toBe('expired');
    expect(warrantyStatus({ ...warranty, releasedAt: '2026-11-12T10:00:00.000Z' }, '2026-11-15')).toBe('released');
  });
  it('moves dates across month and year ends', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe.each(testDatabases)('warranties and their notice on $name', (database) => {
  let store: Store;
  let drop: () => Promise<void>;
  let service: CollateralService;
  let repository: CollateralRepository;
  // 2026-11-22 10:00 Bucharest.
  const clock = new TestClock(Date.UTC(2026, 10, 22, 8, 0, 0));
  const alerts: Array<{ kind: string; clientCode: string; values: Notification['values'] }> = [];
  const changes: ClearingChange[] = [];
  const refreshed: string[][] = [];

  beforeAll(async () => {
    const created = await database.create();
    drop = created.drop;
    store = await openStore(created);
    await loadDemoExchangeIfEmpty(store, new Date(clock.now()));
    repository = new CollateralRepository(store.db);
    service = new CollateralService({
      store,
      repository,
      now: clock.now,
      notifier: { notify: (change) => changes.push(change), alert: (kind, clientCode, values) => alerts.push({ kind, clientCode, values }) },
      onLimitChanged: async (clientCodes) => {
        refreshed.push([...clientCodes]);
      },
    });
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  const input = { clientCode: 'RO-HIDRO', warrantyName: 'Scrisoare de garanție', kind: 'bank_guarantee' as const, depositDate: '2026-11-01', currency: 'RON' };

  it('sums the warranties counting on a day into the clearing limit', async () => {
    await service.create({ ...input, warrantyNumber: 'A', validityDate: '2027-01-01', value: 1_000 });
    await service.create({ ...input, warrantyNumber: 'B', validityDate: '2026-11-25', value: 200 });
    const pending = await service.create({ ...input, warrantyNumber: 'C', depositDate: '2026-11-23', validityDate: '2027-01-01', value: 30 });
    expect(refreshed).toEqual([['RO-HIDRO'], ['RO-HIDRO'], ['RO-HIDRO']]);
    expect(pending.status).toBe('pending');
    expect(await repository.clearingLimit('RO-HIDRO', '2026-11-22')).toBe(1_200);
    expect(await repository.clearingLimit('RO-HIDRO', '2026-11-24')).toBe(1_230);
    // B stops counting on its validity date.
    expect(await repository.clearingLimit('RO-HIDRO', '2026-11-25')).toBe(1_030);
    expect(await repository.clearingLimit('RO-HIDRO', '2026-10-31')).toBe(0);
    await service.release(pending.clientWarrantyId, 'U-001');
    expect(await repository.clearingLimit('RO-HIDRO', '2026-11-24')).toBe(1_200);
    expect(changes.filter((change) => change.kind === 'warranty' && change.clientCode === 'RO-HIDRO')).toHaveLength(4);
  });

  it('notifies the holder once, five days before the validity date, and again for a new date', async () => {
    // B (valid until 2026-11-25) was within five days when made: notified then, once.
    expect(alerts.filter((alert) => alert.values.warrantyNumber === 'B')).toHaveLength(1);
    alerts.length = 0;
    // Made on 2026-11-22, six days ahead of its validity date: no notice yet.
    const d = await service.create({ ...input, warrantyNumber: 'D', validityDate: '2026-11-28', value: 5 });
    await service.checkNotices();
    expect(alerts).toEqual([]);
    clock.advance(86_400_000); // 2026-11-23: five days ahead
    await service.checkNotices();
    await service.checkNotices();
    expect(alerts).toEqual([{ kind: 'warrantyExpiring', clientCode: 'RO-HIDRO', values: { clientWarrantyId: d.clientWarrantyId, warrantyNumber: 'D', validityDate: '2026-11-28', value: 5, currency: 'RON' } }]);
    // Extended: a new validity date gets its own notice when it comes near.
    await service.update(d.clientWarrantyId, { ...input, warrantyNumber: 'D', validityDate: '2026-12-10', value: 5 });
    expect(alerts).toHaveLength(1);
    clock.advance(12 * 86_400_000); // 2026-12-05: five days ahead
    await service.checkNotices();
    expect(alerts.map((alert) => alert.values.validityDate)).toEqual(['2026-11-28', '2026-12-10']);
    expect((await repository.warranty(d.clientWarrantyId))?.notifiedFor).toBe('2026-12-10');
  });

  it('sends no notice for a released warranty', async () => {
    alerts.length = 0;
    const e = await service.create({ ...input, warrantyNumber: 'E', depositDate: '2026-12-01', validityDate: '2026-12-20', value: 5 });
    await service.release(e.clientWarrantyId, 'U-001');
    clock.advance(10 * 86_400_000); // 2026-12-16
    await service.checkNotices();
    expect(alerts.filter((alert) => alert.values.warrantyNumber === 'E')).toEqual([]);
  });
});
