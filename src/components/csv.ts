/**
 * CSV export of the account area's tables (issue 14): RFC 4180 (fields quoted when they hold a
 * comma, quote, CR or LF; quotes doubled; CRLF between records), with a UTF-8 byte order mark so
 * Excel reads ă â î ș ț, amounts as plain decimals ("1234.50") and dates in ISO form.
 */

export type CsvValue = string | number | boolean | null | undefined;

const BOM = '\uFEFF';
const NEEDS_QUOTES = /[",\r\n]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** A text a spreadsheet would run as a formula (CSV injection); a plain number such as "-12.50" is not one. */
const FORMULA_START = /^[=+\-@\t\r]/;

function field(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The file's text: the BOM, the header record, then one record a row. */
export function toCsv(headers: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  return BOM + [headers, ...rows].map((record) => record.map(field).join(',')).join('\r\n') + '\r\n';
}

const exchangeDates = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Bucharest', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The exchange's calendar date (Europe/Bucharest, YYYY-MM-DD) of an instant; a date passes as it is. */
export function exchangeDate(value: string | Date): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : exchangeDates.format(date);
}

/** 'warranties-2026-11-27.csv': the tab and the exchange date of the export. */
export function csvFileName(name: string, now: Date = new Date()): string {
  return `${name}-${exchangeDate(now)}.csv`;
}

/** Saves a text as a file through a temporary object URL (no server round trip, nothing inline to run). */
export function saveFile(fileName: string, content: Blob): void {
  const url = URL.createObjectURL(content);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked after the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function saveCsv(fileName: string, text: string): void {
  saveFile(fileName, new Blob([text], { type: 'text/csv;charset=utf-8' }));
}
