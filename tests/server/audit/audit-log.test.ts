import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../../protocol/audit.ts';
import { auditQuerySchema } from '../../../protocol/audit.ts';
import { AuditLog } from '../../../server/audit/audit-log.ts';
import { openStore, type Store } from '../../../server/store/store.ts';

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

describe('AuditLog', () => {
  let store: Store;
  let log: AuditLog;
  beforeAll(async () => {
    store = await openStore({});
    log = new AuditLog(store.db, () => Date.parse('2026-11-27T10:00:00Z'));
    await log.record(base);
    await log.record({ ...base, category: 'security', action: 'signIn.failed', actorUserId: null, actorRole: null, subject: 'login broker1', outcome: 'refused', code: 'AUTH_CREDENTIALS_INVALID', details: {} });
    // 23:30 UTC on the 27th is already the 28th in Bucharest (UTC+2).
    await log.record({ ...base, action: 'market.resume', at: '2026-11-27T23:30:00.000Z', details: { note: '100% sure' } });
  });
  afterAll(() => store.close());

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
});
