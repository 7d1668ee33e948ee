/**
 * The app's date format for typed dates, per language (docs/web-shell.md, "Date field"):
 * Romanian dd.mm.yyyy (zz.ll.aaaa), English dd/mm/yyyy. The value the code works with is always ISO
 * yyyy-mm-dd, as a native date input gives it; '' for no date.
 */
export interface DatePattern {
  separator: '.' | '/';
  /** What the empty field shows, in the language's words (zz.ll.aaaa / dd/mm/yyyy). */
  placeholder: string;
}

export function datePattern(locale: string): DatePattern {
  return locale.startsWith('ro') ? { separator: '.', placeholder: 'zz.ll.aaaa' } : { separator: '/', placeholder: 'dd/mm/yyyy' };
}

/** True when year-month-day is a day of the Gregorian calendar (31.02 is not). */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** ISO yyyy-mm-dd to the language's dd.mm.yyyy / dd/mm/yyyy; anything else (or '') to ''. */
export function formatDateInput(iso: string, locale: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return '';
  const { separator } = datePattern(locale);
  return `${match[3]}${separator}${match[2]}${separator}${match[1]}`;
}

/**
 * What the user typed, read as a date:
 * - `empty`: nothing typed;
 * - `date` with its ISO value: day, month, four-digit year with any of . / - or space between
 *   them (so both languages' forms, 6.3.2027 and 06/03/2027, are read), 8 digits ddmmyyyy, or ISO
 *   yyyy-mm-dd (pasted);
 * - `impossible`: complete, but no such day (31.02.2027, month 13);
 * - `incomplete`: anything else (still being typed, or not a date at all).
 */
export type ParsedDate = { kind: 'empty' } | { kind: 'date'; iso: string } | { kind: 'impossible' } | { kind: 'incomplete' };

export function parseDateInput(text: string): ParsedDate {
  const typed = text.trim();
  if (typed === '') return { kind: 'empty' };
  let parts: [number, number, number] | null = null;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(typed);
  const dmy = /^(\d{1,2})[./\-\s]+(\d{1,2})[./\-\s]+(\d{4})$/.exec(typed);
  const digits = /^(\d{2})(\d{2})(\d{4})$/.exec(typed);
  if (iso) parts = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dmy) parts = [Number(dmy[3]), Number(dmy[2]), Number(dmy[1])];
  else if (digits) parts = [Number(digits[3]), Number(digits[2]), Number(digits[1])];
  if (!parts) return { kind: 'incomplete' };
  const [year, month, day] = parts;
  if (!isRealDate(year, month, day)) return { kind: 'impossible' };
  return { kind: 'date', iso: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` };
}
