import { describe, expect, it } from 'vitest';
import { exchangeZoneName } from '../../../../src/trading/timeline/zone.ts';

describe('exchangeZoneName', () => {
  it('names the Bucharest zone in force: EET in winter, EEST in summer, switching at the EU instants', () => {
    expect(exchangeZoneName('2026-11-22T09:01:01.000Z')).toBe('EET');
    expect(exchangeZoneName('2026-07-16T21:30:00.000Z')).toBe('EEST');
    // Summer time starts on 29 March 2026 at 01:00 UTC and ends on 25 October 2026 at 01:00 UTC.
    expect(exchangeZoneName('2026-03-29T00:59:59.000Z')).toBe('EET');
    expect(exchangeZoneName('2026-03-29T01:00:00.000Z')).toBe('EEST');
    expect(exchangeZoneName('2026-10-25T00:59:59.000Z')).toBe('EEST');
    expect(exchangeZoneName('2026-10-25T01:00:00.000Z')).toBe('EET');
  });
});
