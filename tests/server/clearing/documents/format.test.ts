import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatExchangeTime, formatMonth, formatNumber } from '../../../../server/clearing/documents/format.ts';

describe('document number and date formats', () => {
  it('writes amounts with two decimals, grouped: ro 1.234,56 and en 1,234.56', () => {
    expect(formatNumber(123_456, 2, 'ro')).toBe('1.234,56');
    expect(formatNumber(123_456, 2, 'en')).toBe('1,234.56');
    expect(formatNumber(-987_654_321_05, 2, 'ro')).toBe('-987.654.321,05');
    expect(formatNumber(-987_654_321_05, 2, 'en')).toBe('-987,654,321.05');
    expect(formatNumber(5, 2, 'ro')).toBe('0,05');
    expect(formatNumber(-5, 2, 'en')).toBe('-0.05');
    expect(formatNumber(0, 2, 'ro')).toBe('0,00');
    expect(formatNumber(100_000, 2, 'en')).toBe('1,000.00');
    expect(formatNumber(99_999, 2, 'en')).toBe('999.99');
  });

  it('writes prices and quantities with their own decimals, exactly up to the largest safe integer', () => {
    expect(formatNumber(105, 1, 'ro')).toBe('10,5');
    expect(formatNumber(1_234_567, 0, 'ro')).toBe('1.234.567');
    expect(formatNumber(1_234_567, 3, 'en')).toBe('1,234.567');
    expect(formatNumber(Number.MAX_SAFE_INTEGER, 2, 'en')).toBe('90,071,992,547,409.91');
  });

  it('writes dates and months in the language', () => {
    expect(formatCalendarDate('2026-11-04', 'ro')).toBe('04.11.2026');
    expect(formatCalendarDate('2026-11-04', 'en')).toBe('04 Nov 2026');
    expect(formatMonth('2026-08', 'ro')).toBe('august 2026');
    expect(formatMonth('2026-12', 'en')).toBe('December 2026');
    expect(formatMonth('2027-01', 'ro')).toBe('ianuarie 2027');
  });

  it('writes instants in Bucharest time: EET in winter, EEST in summer, across the day boundary', () => {
    expect(formatExchangeTime('2026-11-24T17:05:12.000Z', 'ro')).toBe('24.11.2026 19:05:12 EET');
    expect(formatExchangeTime('2026-07-15T21:30:00.000Z', 'en')).toBe('16 Jul 2026 00:30:00 EEST');
    expect(formatExchangeTime('2026-07-15T21:30:00.000Z', 'ro', false)).toBe('16.07.2026 00:30:00');
    // The autumn change (last Sunday of October, 04:00 EEST -> 03:00 EET): the same wall hour twice.
    expect(formatExchangeTime('2026-10-25T00:30:00Z', 'ro')).toBe('25.10.2026 03:30:00 EEST');
    expect(formatExchangeTime('2026-10-25T01:30:00Z', 'ro')).toBe('25.10.2026 03:30:00 EET');
  });
});
