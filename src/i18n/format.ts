import type { IntlShape } from 'react-intl';
import { toDisplayNumber } from '../../protocol/decimal.ts';

/** SPEC §3/§9: transaction times are shown in exchange time (EET/EEST), login history in UTC. */
export const EXCHANGE_TIME_ZONE = 'Europe/Bucharest';

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A transaction (or any exchange) time, in Europe/Bucharest: '15.01.2025, 12:30:00' / '15/01/2025, 12:30:00' (English as en-GB: `intlLocale`). */
export function formatExchangeDateTime(
  intl: IntlShape,
  value: string | number | Date,
  dateStyle: 'short' | 'medium' | 'long' = 'short',
): string {
  const date = toDate(value);
  if (!date) return String(value);
  return intl.formatDate(date, { dateStyle, timeStyle: 'medium', timeZone: EXCHANGE_TIME_ZONE, hourCycle: 'h23' });
}

/** A login history time, in UTC, with the zone written out. */
export function formatUtcDateTime(intl: IntlShape, value: string | number | Date): string {
  const date = toDate(value);
  if (!date) return String(value);
  return `${intl.formatDate(date, { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC', hourCycle: 'h23' })} UTC`;
}

/** A calendar date (YYYY-MM-DD, e.g. a delivery day) without shifting it through a time zone. */
export function formatCalendarDate(intl: IntlShape, value: string): string {
  const date = toDate(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!date) return value;
  return intl.formatDate(date, { dateStyle: 'medium', timeZone: 'UTC' });
}

/** A price or quantity in minor units, with the asset's decimals, in the locale's number format. */
export function formatMinor(intl: IntlShape, minor: number, decimals: number): string {
  return intl.formatNumber(toDisplayNumber(minor, decimals), {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}
