import type { IntlShape } from 'react-intl';
import { EXCHANGE_TIME_ZONE } from '../../i18n/format.ts';

/** A message time in exchange time (Europe/Bucharest): the time only for today, else date and time. */
export function shortExchangeTime(intl: IntlShape, iso: string, now: number = Date.now()): string {
  const date = new Date(iso);
  const day = (value: Date | number) => intl.formatDate(value, { timeZone: EXCHANGE_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
  const time = intl.formatTime(date, { timeZone: EXCHANGE_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return day(date) === day(now) ? time : `${intl.formatDate(date, { timeZone: EXCHANGE_TIME_ZONE, day: 'numeric', month: 'short' })} ${time}`;
}
