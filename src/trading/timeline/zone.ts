import { EXCHANGE_TIME_ZONE } from '../../i18n/format.ts';

/** The exchange's zone in force at an instant: EET in winter, EEST in summer (the names the documents use). */
export function exchangeZoneName(at: string): string {
  const offset = new Intl.DateTimeFormat('en-US', { timeZone: EXCHANGE_TIME_ZONE, timeZoneName: 'longOffset' })
    .formatToParts(new Date(at))
    .find((part) => part.type === 'timeZoneName')?.value;
  return offset === 'GMT+03:00' ? 'EEST' : 'EET';
}
