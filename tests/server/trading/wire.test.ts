import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso } from '../../../server/trading/wire.ts';

describe('iso', () => {
  it('writes every instant as toISOString does, also when instants share a cache slot', () => {
    const base = Date.UTC(2026, 10, 23, 12, 0, 0);
    // 64 ms apart: the same slot, one after the other
    for (const ms of [base, base + 64, base, base + 128, base + 64]) expect(iso(ms)).toBe(new Date(ms).toISOString());
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 8.64e15 }), { minLength: 1, maxLength: 200 }), (instants) => {
        for (const ms of instants) expect(iso(ms)).toBe(new Date(ms).toISOString());
      }),
    );
    expect(() => iso(Number.NaN)).toThrow(RangeError);
  });
});
