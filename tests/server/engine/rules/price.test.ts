import { describe, expect, it } from 'vitest';
import { marketOrderRefusal, priceOk, priceRefusal, resolvePriceBounds } from '../../../../server/engine/rules/price.ts';
import { asset } from '../state-builders.ts';

describe('rules/price', () => {
  it('folds the asset limits, session bounds and regulator maximum into [priceLo, priceHi]', () => {
    const a = asset({ minPrice: 100, maxPrice: 1_000_000, sessionMinPrice: 5_000, sessionMaxPrice: 20_000, regulatorMaxPrice: 15_000 });
    expect([a.priceLo, a.priceHi]).toEqual([5_000, 15_000]);
    a.hasRegulatorMax = false;
    resolvePriceBounds(a);
    expect([a.priceLo, a.priceHi]).toEqual([5_000, 20_000]);
  });

  it('the fast check passes a price on the step inside the bounds, and only such a price', () => {
    const a = asset();
    expect(priceOk(a, 10_000)).toBe(true);
    expect(priceRefusal(a, 10_000)).toBeNull();
    for (const bad of [10_001, 95, 1_000_005, 0, -5, 10.5]) expect(priceOk(a, bad)).toBe(false);
  });

  it('refuses in order: not an integer, negative, zero, digits, step, limits, session bounds, regulator maximum', () => {
    const a = asset({ sessionMinPrice: 5_000, sessionMaxPrice: 20_000, regulatorMaxPrice: 15_000 });
    const code = (p: number) => priceRefusal(a, p)?.result;
    expect(code(10.5)).toBe('REQUEST_INVALID');
    expect(code(-5)).toBe('ORDER_PRICE_NEGATIVE');
    expect(code(0)).toBe('ORDER_PRICE_ZERO');
    expect(priceRefusal(a, 1e14)).toMatchObject({ result: 'ORDER_PRICE_TOO_MANY_DIGITS', params: { maxDigits: 12 } });
    expect(priceRefusal(a, 10_001)).toMatchObject({ result: 'ORDER_PRICE_STEP', params: { step: '0.05', currency: 'RON' } });
    expect(priceRefusal(a, 1_000_005)).toMatchObject({ result: 'ORDER_PRICE_OUTSIDE_LIMITS', params: { min: '1.00', max: '10000.00', currency: 'RON' } });
    expect(priceRefusal(a, 4_000)).toMatchObject({ result: 'ORDER_SESSION_MIN_PRICE', params: { bound: '50.00' } });
    expect(priceRefusal(a, 25_000)).toMatchObject({ result: 'ORDER_SESSION_MAX_PRICE', params: { bound: '200.00' } });
    expect(priceRefusal(a, 16_000)).toMatchObject({ result: 'ORDER_REGULATOR_MAX_PRICE', params: { bound: '150.00' } });
  });

  it('a refusal carries no events', () => {
    expect(priceRefusal(asset(), -5)?.events).toEqual([]);
  });

  it('only IOC and FOK may come without a price', () => {
    expect(marketOrderRefusal('normal')?.result).toBe('ORDER_PRICE_MISSING');
    expect(marketOrderRefusal('IOC')).toBeNull();
    expect(marketOrderRefusal('FOK')).toBeNull();
  });
});
