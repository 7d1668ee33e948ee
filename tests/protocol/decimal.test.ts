import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDecimal, isMultipleOf, multiplyToAmount, parseDecimal, rescale } from '../../protocol/decimal.ts';

describe('parseDecimal', () => {
  it('reads display strings into minor units exactly', () => {
    expect(parseDecimal('123.45', 2)).toEqual({ ok: true, value: 12345 });
    expect(parseDecimal('0,1', 2)).toEqual({ ok: true, value: 10 });
    expect(parseDecimal('-7', 3)).toEqual({ ok: true, value: -7000 });
    expect(parseDecimal('.5', 1)).toEqual({ ok: true, value: 5 });
    expect(parseDecimal('0.10', 1)).toEqual({ ok: true, value: 1 });
    expect(parseDecimal('-0', 2)).toEqual({ ok: true, value: 0 });
  });

  it('refuses what is not a plain decimal', () => {
    expect(parseDecimal('', 2)).toEqual({ ok: false, reason: 'empty' });
    expect(parseDecimal('1e3', 2)).toEqual({ ok: false, reason: 'notANumber' });
    expect(parseDecimal('1.2.3', 2)).toEqual({ ok: false, reason: 'notANumber' });
    expect(parseDecimal('.', 2)).toEqual({ ok: false, reason: 'notANumber' });
    expect(parseDecimal('1.234', 2)).toEqual({ ok: false, reason: 'tooManyDecimals' });
    expect(parseDecimal('1234567890123', 2)).toEqual({ ok: false, reason: 'tooManyWholeDigits' });
    expect(parseDecimal('123456789012', 2)).toEqual({ ok: true, value: 12345678901200 });
  });

  it('round-trips with formatDecimal for any safe value', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e14, max: 1e14 }), fc.integer({ min: 0, max: 4 }), (minor, decimals) => {
        const text = formatDecimal(minor, decimals);
        expect(parseDecimal(text, decimals, 20)).toEqual({ ok: true, value: minor });
      }),
    );
  });
});

describe('formatDecimal', () => {
  it('pads and signs', () => {
    expect(formatDecimal(5, 2)).toBe('0.05');
    expect(formatDecimal(-1250, 2)).toBe('-12.50');
    expect(formatDecimal(42, 0)).toBe('42');
  });
});

describe('amounts', () => {
  it('multiplies price by quantity exactly with half-up rounding', () => {
    // 123.45 RON/MWh × 10.5 MWh = 1296.225 RON -> 1296.23 at 2 decimals
    expect(multiplyToAmount(12345, 2, 105, 1, 2)).toBe(129623);
    expect(multiplyToAmount(-12345, 2, 105, 1, 2)).toBe(-129623);
    expect(multiplyToAmount(100, 2, 3, 0, 4)).toBe(30000);
  });

  it('rescales only without loss', () => {
    expect(rescale(1234, 2, 4)).toBe(123400);
    expect(rescale(123400, 4, 2)).toBe(1234);
    expect(rescale(123401, 4, 2)).toBeNull();
    expect(isMultipleOf(150, 50)).toBe(true);
    expect(isMultipleOf(151, 50)).toBe(false);
  });
});
