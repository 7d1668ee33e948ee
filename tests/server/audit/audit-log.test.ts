import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../../protocol/audit.ts';
import { auditQuerySchema } from '../../../protocol/audit.ts';
import { AuditLog } from '../../../server/audit/audit-log.ts';
import { audited } from '../../../server/audit/audit-of.ts';
import { openStore, type Store } from '../../../server/store/store.ts';
import { testDatabases, type TestDatabase } from '../../helpers/test-databases.ts';

const base: AuditRecord = {
  category: 'operator',
  action: 'market.suspend',
  actorUserId: 'admin',
  actorRole: 'administrator',
  subject: 'market GAS-FWD',
  outcome: 'ok',
  code: null,
  remoteAddress: '127.0.0.1',
  details: { marketId: 'GAS-FWD' },
};

describe.each(testDatabases)('AuditLog on $name', (database: TestDatabase) => {
  let store: Store;
  let log: AuditLog;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const target = await database.create();
    drop = target.drop;
    store = await openStore(target);
    log = new AuditLog(store.db, () => Date.parse('2026-11-27T10:00:00Z'));
    await log.record(base);
    await log.record({ ...base, category: 'security', action: 'signIn.failed', actorUserId: null, actorRole: null, subject: 'login broker1', outcome: 'refused', code: 'AUTH_CREDENTIALS_INVALID', details: {} });
    // 23:30 UTC on the 27th is already the 28th in Bucharest (UTC+2).
    await log.record({ ...base, action: 'market.resume', at: '2026-11-27T23:30:00.000Z', details: { note: '100% sure' } });
  });
  afterAll(async () => {
    await log.close();
    await store.close();
    await drop();
  });

  const query = (input: Record<string, unknown>) => log.query(auditQuerySchema.parse(input));

  it('keeps entries and answers them newest first with the total', async () => {
    const page = await query({});
    expect(page.total).toBe(3);
    expect(page.items.map((entry) => entry.action)).toEqual(['market.resume', 'signIn.failed', 'market.suspend']);
    expect(page.items[2]).toMatchObject({ ...base, at: '2026-11-27T10:00:00.000Z' });
    expect(page.items[1]!.code).toBe('AUTH_CREDENTIALS_INVALID');
  });

  it('filters by category, outcome and text (a % is a literal, not a wildcard)', async () => {
    expect((await query({ category: 'security' })).items.map((entry) => entry.action)).toEqual(['signIn.failed']);
    expect((await query({ outcome: 'refused' })).total).toBe(1);
    expect((await query({ q: 'broker1' })).items.map((entry) => entry.action)).toEqual(['signIn.failed']);
    expect((await query({ q: '100%' })).items.map((entry) => entry.action)).toEqual(['market.resume']);
    expect((await query({ q: '0%s' })).total).toBe(0);
  });

  it('filters by Bucharest dates, inclusive', async () => {
    expect((await query({ from: '2026-11-28' })).items.map((entry) => entry.action)).toEqual(['market.resume']);
    expect((await query({ to: '2026-11-27' })).total).toBe(2);
  });

  it('pages with offset and limit', async () => {
    const page = await query({ offset: 1, limit: 1 });
    expect(page.total).toBe(3);
    expect(page.items.map((entry) => entry.action)).toEqual(['signIn.failed']);
  });

  it('exports every matching entry in chunks, newest first, ignoring offset and limit', async () => {
    const other = new AuditLog(store.db, () => Date.parse('2026-11-26T10:00:00Z'));
    for (let i = 0; i < 1203; i++) await other.record({ ...base, action: 'warranty.record', subject: `warranty W${i}`, details: { i } });
    const chunks: number[][] = [];
    for await (const entries of log.all(auditQuerySchema.parse({ action: 'warranty.record', offset: 5, limit: 1 }))) chunks.push(entries.map((entry) => Number(entry.details.i)));
    expect(chunks.map((chunk) => chunk.length)).toEqual([500, 500, 203]);
    expect(chunks.flat()).toEqual(Array.from({ length: 1203 }, (_, i) => 1202 - i));
    await other.close();
  });

  it('notes security events without waiting and stores them once idle', async () => {
    const noted = new AuditLog(store.db, () => Date.parse('2026-11-25T10:00:00Z'));
    noted.note({ ...base, category: 'security', action: 'access.forbidden', subject: 'GET /admin/audit', outcome: 'refused', code: 'FORBIDDEN', details: { scope: 'admin' } });
    await noted.idle();
    const page = await query({ action: 'access.forbidden' });
    expect(page.items).toMatchObject([{ subject: 'GET /admin/audit', details: { scope: 'admin', count: 1 }, at: '2026-11-25T10:00:00.000Z' }]);
    await noted.close();
  });
});

describe('AuditLog while the store is away', () => {
  it('answers at once, keeps the entries and writes them in order with their own times once the store is back', async () => {
    const store = await openStore({});
    try {
      let away = true;
      const refusals: number[] = [];
      // The store refuses every insert until it is back; reads go through.
      const flaky = {
        query: <Row,>(sql: string, params?: unknown[]) => (away && sql.startsWith('insert') ? Promise.reject(new Error('database away')) : store.db.query<Row>(sql, params)),
      };
      let clock = Date.parse('2026-11-28T09:00:00Z');
      const log = new AuditLog(flaky, () => clock, undefined, (_error, waiting) => refusals.push(waiting));
      const actor = { actorUserId: 'admin', actorRole: 'administrator', remoteAddress: '127.0.0.1' };
      // The action happened: its answer stands although its entry cannot be written yet.
      expect(await audited(log, actor, { action: 'market.suspend', subject: 'market GAS-FWD' }, async () => 'suspended')).toBe('suspended');
      clock += 60_000;
      await log.record({ ...base, action: 'market.resume' });
      expect(log.waiting).toBe(2);
      expect(refusals[0]).toBe(1);
      expect((await log.query(auditQuerySchema.parse({}))).total).toBe(0);

      away = false;
      await log.written();
      expect(log.waiting).toBe(0);
      const { items } = await log.query(auditQuerySchema.parse({}));
      // Newest first, each at the time it happened, not when the store took it.
      expect(items.map((item) => [item.action, item.at])).toEqual([
        ['market.resume', '2026-11-28T09:01:00.000Z'],
        ['market.suspend', '2026-11-28T09:00:00.000Z'],
      ]);
      await log.close();
    } finally {
      await store.close();
    }
  });
});
