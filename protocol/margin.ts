/**
 * Order value and margin as the exchange reckons them, so the order dialog shows the exact amount the
 * engine will block: value = price × quantity in amount units (AMOUNT_DECIMALS places of the market
 * currency), margin = value × marginBps / 10 000, both rounded up (the exchange never under-reserves).
 * Exact on BigInt; tests/protocol/margin.test.ts checks it against the engine's own arithmetic.
 */
export const AMOUNT_DECIMALS = 2;

function ceilDiv(numerator: bigint, divisor: bigint): bigint {
  const quotient = numerator / divisor;
  return numerator % divisor === 0n ? quotient : quotient + 1n;
}

function toSafe(value: bigint): number {
  const asNumber = Number(value);
  if (!Number.isSafeInteger(asNumber)) throw new RangeError('amount exceeds safe integer range');
  return asNumber;
}

/** Value of `qty` at `price` (non-negative, in the asset's minor units) in amount units, rounded up. */
export function orderValue(price: number, qty: number, asset: { priceDecimals: number; quantityDecimals: number }): number {
  const shift = AMOUNT_DECIMALS - asset.priceDecimals - asset.quantityDecimals;
  const product = BigInt(price) * BigInt(qty);
  return toSafe(shift >= 0 ? product * 10n ** BigInt(shift) : ceilDiv(product, 10n ** BigInt(-shift)));
}

/** Margin an order of this value blocks, rounded up. */
export function orderMargin(value: number, marginBps: number): number {
  if (marginBps === 0 || value === 0) return 0;
  return toSafe(ceilDiv(BigInt(value) * BigInt(marginBps), 10_000n));
}
