import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../../protocol/audit.ts';
import { apiError, ExchangeError } from '../../../protocol/error-codes.ts';
import { audited, auditDetails, auditOf } from '../../../server/audit/audit-of.ts';

function sink() {
  const entries: AuditRecord[] = [];
  return { entries, recorder: { record: async (entry: AuditRecord) => void entries.push(entry) } };
}

describe('auditOf and audited', () => {
  it('fills the actor from the user and the request address; none without a user', () => {
    expect(auditOf({ ip: '10.1.2.3' }, { id: 'U1', roles: ['administrator'] })).toEqual({ actorUserId: 'U1', actorRole: 'administrator', remoteAddress: '10.1.2.3' });
    expect(auditOf({ ip: '10.1.2.3' }, undefined)).toEqual({ actorUserId: null, actorRole: null, remoteAddress: '10.1.2.3' });
  });

  it('keeps scalar details, objects as JSON, long strings cut at 500, undefined dropped', () => {
    expect(auditDetails({ a: 1, b: 'x'.repeat(600), c: { d: [1] }, e: undefined, f: null, g: 5n })).toEqual({ a: 1, b: 'x'.repeat(500), c: '{"d":[1]}', f: null, g: '5' });
  });

  it('keeps one ok entry for a done action and one refused entry with the code and its params for a refused one', async () => {
    const { entries, recorder } = sink();
    const actor = auditOf({ ip: '127.0.0.1' }, { id: 'admin', roles: ['administrator'] });
    expect(await audited(recorder, actor, { action: 'warranty.release', subject: 'warranty W1', details: { warrantyId: 'W1' } }, async () => 42)).toBe(42);
    const refused = audited(recorder, actor, { action: 'obligation.settle', subject: 'obligation O1' }, async () => {
      throw new ExchangeError(apiError('CLEARING_OBLIGATION_NOT_FOUND', { obligationId: 'O1' }));
    });
    await expect(refused).rejects.toBeInstanceOf(ExchangeError);
    expect(entries).toEqual([
      { category: 'operator', action: 'warranty.release', subject: 'warranty W1', ...actor, outcome: 'ok', code: null, details: { warrantyId: 'W1' } },
      { category: 'operator', action: 'obligation.settle', subject: 'obligation O1', ...actor, outcome: 'refused', code: 'CLEARING_OBLIGATION_NOT_FOUND', details: { obligationId: 'O1' } },
    ]);
  });
});
