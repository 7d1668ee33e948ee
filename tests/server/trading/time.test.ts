import { describe, expect, it } from 'vitest';
import { bucharestDate, bucharestOffsetMinutes, endOfDayInBucharest } from '../../../server/trading/time.ts';

const utc = (iso: string) => Date.parse(iso);

describe('exchange time (Bucharest)', () => {
  it('changes offset at the EU clock changes, on the hour, whatever was asked before', () => {
    // Summer time starts 2026-03-29 01:00 UTC; winter time 2026-10-25 01:00 UTC.
    const probes: Array<[string, number]> = [
      ['2026-03-29T00:59:59.999Z', 120],
      ['2026-03-29T01:00:00.000Z', 180],
      ['2026-03-29T00:30:00.000Z', 120],
      ['2026-03-29T01:59:59.999Z', 180],
      ['2026-10-25T00:59:59.999Z', 180],
      ['2026-10-25T01:00:00.000Z', 120],
      ['2026-10-25T00:00:00.000Z', 180],
      ['2026-07-01T12:00:00.000Z', 180],
      ['2026-12-01T12:00:00.000Z', 120],
    ];
    for (const [iso, offset] of probes) expect(bucharestOffsetMinutes(utc(iso)), iso).toBe(offset);
  });

  it('agrees with Intl for every hour of a year, asked in and out of order', () => {
    const format = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Bucharest', year: 'numeric', month: '2-digit', day: '2-digit' });
    const start = utc('2026-01-01T00:17:00Z');
    const hours = Array.from({ length: 366 * 24 }, (_, i) => start + i * 3_600_000);
    const shuffled = hours.map((at, i) => hours[(i * 7919) % hours.length]!);
    for (const at of [...hours, ...shuffled]) expect(bucharestDate(at)).toBe(format.format(new Date(at)));
  });

  it('ends a Bucharest day at its last millisecond, in winter and in summer', () => {
    expect(new Date(endOfDayInBucharest('2026-01-15')).toISOString()).toBe('2026-01-15T21:59:59.999Z');
    expect(new Date(endOfDayInBucharest('2026-07-15')).toISOString()).toBe('2026-07-15T20:59:59.999Z');
  });
});
