import { formatDecimal } from '../../../protocol/decimal.ts';
import { bucharestOffsetMinutes } from '../../trading/time.ts';

export type DocumentLocale = 'ro' | 'en';

const separators: Record<DocumentLocale, { group: string; decimal: string }> = {
  ro: { group: '.', decimal: ',' },
  en: { group: ',', decimal: '.' },
};

/**
 * Minor units with exactly `decimals` places, grouped by thousands: ro 1.234,56 and en 1,234.56.
 * String arithmetic on the exact integer: no float ever touches an amount, a price or a quantity.
 */
export function formatNumber(minor: number, decimals: number, locale: DocumentLocale): string {
  const plain = formatDecimal(minor, decimals);
  const negative = plain.startsWith('-');
  const [whole = '0', fraction] = (negative ? plain.slice(1) : plain).split('.');
  const { group, decimal } = separators[locale];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return (negative ? '-' : '') + grouped + (fraction === undefined ? '' : decimal + fraction);
}

const monthNames: Record<DocumentLocale, readonly string[]> = {
  ro: ['ianuarie', 'februarie', 'martie', 'aprilie', 'mai', 'iunie', 'iulie', 'august', 'septembrie', 'octombrie', 'noiembrie', 'decembrie'],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
};
const shortMonths = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A calendar date (YYYY-MM-DD) as written in the locale: ro 24.11.2026, en 24 Nov 2026. */
export function formatCalendarDate(date: string, locale: DocumentLocale): string {
  const [year, month, day] = date.split('-');
  if (locale === 'ro') return `${day}.${month}.${year}`;
  return `${day} ${shortMonths[Number(month) - 1] ?? month} ${year}`;
}

/** A month (YYYY-MM): ro "noiembrie 2026", en "November 2026". */
export function formatMonth(month: string, locale: DocumentLocale): string {
  const [year, number] = month.split('-');
  return `${monthNames[locale][Number(number) - 1] ?? number} ${year}`;
}

/** An instant in exchange time, with its zone unless a heading already names it: "24.11.2026 19:05:12 EET" (EEST in summer). */
export function formatExchangeTime(iso: string, locale: DocumentLocale, withZone = true): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return iso;
  const offset = bucharestOffsetMinutes(at);
  const local = new Date(at + offset * 60_000).toISOString();
  const text = `${formatCalendarDate(local.slice(0, 10), locale)} ${local.slice(11, 19)}`;
  return withZone ? `${text} ${offset === 180 ? 'EEST' : 'EET'}` : text;
}
