import type { AuditEntry } from '../../protocol/audit.ts';

/**
 * The audit trail as CSV (GET /admin/audit.csv), by the rules of the client's exports
 * (src/components/csv.ts): UTF-8 with a byte order mark, RFC 4180 (a field holding a comma, quote, CR
 * or LF is quoted, quotes doubled, CRLF between records), and a text a spreadsheet would run as a
 * formula (starting with = + - @, tab or CR, not a plain number) prefixed with '. Times are the
 * exchange's (Europe/Bucharest) with their UTC offset: `2026-11-27 12:00:00 +02:00`.
 */
export const AUDIT_CSV_BOM = '\uFEFF';

export const auditCsvHeaders = ['id', 'time (Europe/Bucharest)', 'category', 'action', 'actor', 'role', 'subject', 'outcome', 'code', 'remote address', 'details'] as const;

const NEEDS_QUOTES = /[",\r\n]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;

function field(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const bucharest = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Bucharest',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'longOffset',
});

/** An instant as Bucharest wall time with its offset. */
export function bucharestTime(iso: string): string {
  const parts = Object.fromEntries(bucharest.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  const offset = (parts.timeZoneName ?? 'GMT').replace('GMT', '') || '+00:00';
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${offset}`;
}

function record(values: ReadonlyArray<string | number | null>): string {
  return `${values.map(field).join(',')}\r\n`;
}

/** The header record, after the BOM. */
export function auditCsvHead(): string {
  return AUDIT_CSV_BOM + record(auditCsvHeaders);
}

/** One record per entry. */
export function auditCsvRows(entries: readonly AuditEntry[]): string {
  return entries
    .map((entry) =>
      record([
        entry.id,
        bucharestTime(entry.at),
        entry.category,
        entry.action,
        entry.actorUserId,
        entry.actorRole,
        entry.subject,
        entry.outcome,
        entry.code,
        entry.remoteAddress,
        Object.keys(entry.details).length === 0 ? null : JSON.stringify(entry.details),
      ]),
    )
    .join('');
}
