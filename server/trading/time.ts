/** Exchange time: the server keeps UTC; trading days are Bucharest days (EET/EEST). */
export const EXCHANGE_TIME_ZONE = 'Europe/Bucharest';

const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: EXCHANGE_TIME_ZONE, timeZoneName: 'longOffset' });

const HOUR_MS = 3_600_000;
/** The offset of the last hour asked for: EU clock changes fall on whole UTC hours, so an hour has one offset. */
let cachedHour = NaN;
let cachedOffset = 0;

/** Offset of Bucharest from UTC at an instant, in minutes (120 in winter, 180 in summer). */
export function bucharestOffsetMinutes(at: number): number {
  const hour = Math.floor(at / HOUR_MS);
  if (hour === cachedHour) return cachedOffset;
  const offset = offsetAt(at);
  cachedHour = hour;
  cachedOffset = offset;
  return offset;
}

/** Asks Intl (several microseconds: hence the cache above). */
function offsetAt(at: number): number {
  const name = offsetFormat.formatToParts(new Date(at)).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT+02:00';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** The last millisecond of a Bucharest calendar day (YYYY-MM-DD), as epoch ms. */
export function endOfDayInBucharest(date: string): number {
  const utcMidnightNext = Date.parse(`${date}T00:00:00Z`) + 86_400_000;
  if (!Number.isFinite(utcMidnightNext)) return NaN;
  const offset = bucharestOffsetMinutes(utcMidnightNext - 12 * 3_600_000);
  return utcMidnightNext - offset * 60_000 - 1;
}

/** The Bucharest calendar date (YYYY-MM-DD) of an instant. */
export function bucharestDate(at: number): string {
  return new Date(at + bucharestOffsetMinutes(at) * 60_000).toISOString().slice(0, 10);
}
