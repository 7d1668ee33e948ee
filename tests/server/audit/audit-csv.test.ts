import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../protocol/audit.ts';
import { auditCsvHead, auditCsvHeaders, auditCsvRows, bucharestTime } from '../../../server/audit/audit-csv.ts';
import { toCsv } from '../../../src/components/csv.ts';

const entry: AuditEntry = {
  id: 7,
  at: '2026-11-27T10:00:00.000Z',
  category: 'operator',
  action: 'settlement.priceOverride',
  actorUserId: 'admin',
  actorRole: 'administrator',
  subject: '=HYPERLINK("http://x","y")',
  outcome: 'refused',
  code: 'CLEARING_SETTLEMENT_PRICE_NOT_FOUND',
  remoteAddress: '127.0.0.1',
  details: { reason: 'preț, "corectat"\nazi', price: -12 },
};

describe('audit CSV', () => {
  it('writes Bucharest wall time with its offset, winter and summer', () => {
    expect(bucharestTime('2026-11-27T10:00:00.000Z')).toBe('2026-11-27 12:00:00 +02:00');
    expect(bucharestTime('2026-07-01T21:30:05.000Z')).toBe('2026-07-02 00:30:05 +03:00');
  });

  it('quotes and guards cells exactly as the client exports do (src/components/csv.ts)', () => {
    const text = auditCsvHead() + auditCsvRows([entry]);
    const values = [7, '2026-11-27 12:00:00 +02:00', 'operator', 'settlement.priceOverride', 'admin', 'administrator', entry.subject, 'refused', entry.code, '127.0.0.1', JSON.stringify(entry.details)];
    expect(text).toBe(toCsv(auditCsvHeaders, [values]));
    expect(text.startsWith('\uFEFFid,')).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it('leaves empty details and nulls as empty cells', () => {
    const row = auditCsvRows([{ ...entry, subject: 'login x', actorUserId: null, actorRole: null, code: null, remoteAddress: null, details: {} }]);
    expect(row).toBe('7,2026-11-27 12:00:00 +02:00,operator,settlement.priceOverride,,,login x,refused,,,\r\n');
  });
});
