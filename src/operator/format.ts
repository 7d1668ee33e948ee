/** The console's formats: instants in exchange time (Bucharest), ages as days, hours and minutes, in the locale. */
import { useIntl, type IntlShape } from 'react-intl';
import { EXCHANGE_TIME_ZONE, formatExchangeDateTime } from '../i18n/format.ts';

/** An ISO instant in exchange time, or '—' for none. */
export function useExchangeTime(): (value: string | null) => string {
  const intl = useIntl();
  return (value) => (value === null ? '—' : formatExchangeDateTime(intl, value));
}

/** The time of day of an ISO instant in exchange time ('17:00:00'), for what happens within the session. */
export function useExchangeClock(): (value: string) => string {
  const intl = useIntl();
  return (value) => intl.formatTime(new Date(value), { timeStyle: 'medium', timeZone: EXCHANGE_TIME_ZONE, hourCycle: 'h23' });
}

/** How long ago `since` was, at `now`: '3 d 4 h', '5 h 12 min', '4 min' ('< 1 min' under a minute). */
export function formatAge(intl: IntlShape, since: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return intl.formatMessage({ id: 'operator.age.days' }, { days, hours });
  if (hours > 0) return intl.formatMessage({ id: 'operator.age.hours' }, { hours, minutes: minutes % 60 });
  if (minutes > 0) return intl.formatMessage({ id: 'operator.age.minutes' }, { minutes });
  return intl.formatMessage({ id: 'operator.age.now' });
}
