import { describe, expect, it } from 'vitest';
import { deliveryDays, nominationDeadline } from '../../../server/clearing/nominations.ts';

describe('nomination deadline', () => {
  it('is 14:00 Bucharest on the day before delivery, in winter (EET) and in summer (EEST)', () => {
    expect(new Date(nominationDeadline('2026-11-23')).toISOString()).toBe('2026-11-22T12:00:00.000Z');
    expect(new Date(nominationDeadline('2026-07-01')).toISOString()).toBe('2026-06-30T11:00:00.000Z');
    // Delivery on the first day of summer time: the day before is still winter time.
    expect(new Date(nominationDeadline('2027-03-29')).toISOString()).toBe('2027-03-28T11:00:00.000Z');
    expect(new Date(nominationDeadline('2027-03-28')).toISOString()).toBe('2027-03-27T12:00:00.000Z');
  });
});

describe('delivery days', () => {
  it('are a forward delivery period, day by day', () => {
    expect(deliveryDays({ deliveryStart: '2027-01-30', deliveryEnd: '2027-02-02' }, '2026-11-22')).toEqual(['2027-01-30', '2027-01-31', '2027-02-01', '2027-02-02']);
    expect(deliveryDays({ deliveryStart: '2027-01-01', deliveryEnd: '2027-01-31' }, '2026-11-22')).toHaveLength(31);
  });
  it('are the day after the session for spot', () => {
    expect(deliveryDays({ deliveryStart: null, deliveryEnd: null }, '2026-12-31')).toEqual(['2027-01-01']);
  });
});
