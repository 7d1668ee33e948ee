/**
 * Prices and quantities travel and compute as integers in minor units (10^-decimals of a unit).
 * These helpers convert exactly between display strings and minor units: no floating point.
 */

export type DecimalParseFailure = 'empty' | 'notANumber' | 'tooManyDecimals' | 'tooManyWholeDigits' | 'unsafe';
export type DecimalParseResult = { ok: true; value: number } | { ok: false; reason: DecimalParseFailure };

const decimalPattern = /^([+-])?(\d*)(?:[.,](\d*))?$/;

/** Whole part of a price has at most 12 digits (SPEC §9). */
export const MAX_WHOLE_DIGITS = 12;

/**
 * Parses "1234.5" (or "1234,5") into minor units with `decimals` places.
 * Accepts a leading sign; refuses exponents, spaces inside and more decimals than allowed.
 */
export function parseDecimal(text: string, decimals: number, maxWholeDigits = MAX_WHOLE_DIGITS): DecimalParseResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty' };
  const match = decimalPattern.exec(trimmed);
  if (!match) return { ok: false, reason: 'notANumber' };
  const [, sign, wholeRaw = '', fractionRaw = ''] = match;
  if (wholeRaw === '' && fractionRaw === '') return { ok: false, reason: 'notANumber' };
  const whole = wholeRaw.replace(/^0+(?=\d)/, '');
  if (whole.length > maxWholeDigits) return { ok: false, reason: 'tooManyWholeDigits' };
  const fraction = fractionRaw.replace(/0+$/, '');
  if (fraction.length > decimals) return { ok: false, reason: 'tooManyDecimals' };
  const digits = (whole === '' ? '0' : whole) + fraction.padEnd(decimals, '0');
  const magnitude = Number(digits);
  if (!Number.isSafeInteger(magnitude)) return { ok: false, reason: 'unsafe' };
  const value = sign === '-' ? -magnitude : magnitude;
  return { ok: true, value: value === 0 ? 0 : value };
}

/** Formats minor units as a plain decimal string with exactly `decimals` places ("-12.50"). */
export function formatDecimal(minor: number, decimals: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not a safe integer: ${minor}`);
  const negative = minor < 0;
  const digits = String(Math.abs(minor)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return (negative ? '-' : '') + whole + (decimals > 0 ? '.' + fraction : '');
}

/** Minor units as a JS number for display libraries (Intl); exact for any safe integer divided by 10^d. */
export function toDisplayNumber(minor: number, decimals: number): number {
  return Number(formatDecimal(minor, decimals));
}

/** Converts between two scales exactly; returns null when precision would be lost. */
export function rescale(minor: number, fromDecimals: number, toDecimals: number): number | null {
  if (toDecimals >= fromDecimals) {
    const value = minor * 10 ** (toDecimals - fromDecimals);
    return Number.isSafeInteger(value) ? value : null;
  }
  const divisor = 10 ** (fromDecimals - toDecimals);
  return minor % divisor === 0 ? minor / divisor : null;
}

/** price (priceDecimals) × quantity (qtyDecimals) as an exact amount in `amountDecimals`, via BigInt, rounded half up. */
export function multiplyToAmount(price: number, priceDecimals: number, qty: number, qtyDecimals: number, amountDecimals: number): number {
  const product = BigInt(price) * BigInt(qty);
  const shift = priceDecimals + qtyDecimals - amountDecimals;
  let result: bigint;
  if (shift <= 0) result = product * 10n ** BigInt(-shift);
  else {
    const divisor = 10n ** BigInt(shift);
    const half = divisor / 2n;
    result = product >= 0n ? (product + half) / divisor : -((-product + half) / divisor);
  }
  const asNumber = Number(result);
  if (!Number.isSafeInteger(asNumber)) throw new RangeError('amount exceeds safe integer range');
  return asNumber;
}

export function isMultipleOf(value: number, step: number): boolean {
  return step > 0 && value % step === 0;
}
