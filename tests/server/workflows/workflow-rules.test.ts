import { describe, expect, it } from 'vitest';
import { addDays, dealMargin, limitBeforeDelivery } from '../../../server/workflows/workflow-rules.ts';
import type { AssetRecord } from '../../../server/store/reference.repository.ts';

const asset = { id: 'A', spec: { priceDecimals: 2, quantityDecimals: 1, config: { marginBps: 1000 } } } as unknown as AssetRecord;

describe('workflow rules', () => {
  it('puts the limit at 15:00 Bucharest on the day before delivery, in winter and in summer time', () => {
    expect(limitBeforeDelivery('2027-01-01')).toBe('2026-12-31T13:00:00.000Z');
    expect(limitBeforeDelivery('2027-07-01')).toBe('2027-06-30T12:00:00.000Z');
    // The day of the clock change (last Sunday of March 2027 is the 28th): 15:00 is already summer time.
    expect(limitBeforeDelivery('2027-03-29')).toBe('2027-03-28T12:00:00.000Z');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
  });

  it('reckons a deal margin from the value in amount minor units and the asset rate, and refuses a value past safe integers', () => {
    // 150.00 × 100.0 = 15,000.00 → 1500000 bani; 10 % = 150000.
    expect(dealMargin(asset, 15_000, 1_000)).toEqual({ value: 1_500_000, margin: 150_000 });
    expect(dealMargin(asset, 1, 1)).toEqual({ value: 1, margin: 1 });
    expect(() => dealMargin(asset, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toThrow(/REQUEST_INVALID/);
  });
});
