/**
 * Money arithmetic of the engine, exact on integers: the value of price × quantity in amount units
 * (currency minor units with AMOUNT_DECIMALS places), and margins as basis points of a value. Both
 * round up (the exchange never under-reserves). Falls back to BigInt when a product leaves the safe
 * integer range.
 */
import type { AssetState } from './state.ts';

const MAX = Number.MAX_SAFE_INTEGER;

function ceilDiv(numerator: number, divisor: number): number {
  // numerator >= 0, divisor > 0, both safe integers
  let q = Math.floor(numerator / divisor);
  let r = numerator - q * divisor;
  if (r < 0) {
    q -= 1;
    r += divisor;
  } else if (r >= divisor) {
    q += 1;
    r -= divisor;
  }
  return r > 0 ? q + 1 : q;
}

function bigCeilDiv(n: bigint, d: bigint): number {
  const q = n / d;
  const result = n % d === 0n ? q : q + 1n;
  const asNumber = Number(result);
  if (!Number.isSafeInteger(asNumber)) throw new RangeError('amount exceeds safe integer range');
  return asNumber;
}

/** Value of `qty` at `price` in amount units, rounded up. Prices are non-negative here. */
export function amountOf(asset: AssetState, price: number, qty: number): number {
  const raw = price * qty;
  if (raw <= MAX) {
    if (asset.amountDiv === 1) {
      const v = raw * asset.amountMul;
      if (v <= MAX) return v;
    } else {
      return ceilDiv(raw, asset.amountDiv);
    }
  }
  return bigCeilDiv(BigInt(price) * BigInt(qty) * BigInt(asset.amountMul), BigInt(asset.amountDiv));
}

/** Margin of a value, rounded up: value × bps / 10 000. */
export function marginOf(bps: number, value: number): number {
  if (bps === 0 || value === 0) return 0;
  const raw = value * bps;
  if (raw <= MAX) return ceilDiv(raw, 10_000);
  return bigCeilDiv(BigInt(value) * BigInt(bps), 10_000n);
}
