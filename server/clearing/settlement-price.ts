import type { SettlementPriceSource } from '../../protocol/clearing.ts';

/** Floor division of BigInts (BigInt's `/` truncates toward zero). */
export function floorDiv(numerator: bigint, divisor: bigint): bigint {
  const quotient = numerator / divisor;
  return (numerator % divisor !== 0n) && ((numerator < 0n) !== (divisor < 0n)) ? quotient - 1n : quotient;
}

export function ceilDiv(numerator: bigint, divisor: bigint): bigint {
  return -floorDiv(-numerator, divisor);
}

function safeNumber(value: bigint): number {
  const asNumber = Number(value);
  if (!Number.isSafeInteger(asNumber)) throw new RangeError('settlement figure exceeds the safe integer range');
  return asNumber;
}

export interface PricedQuantity {
  price: number;
  qty: number;
}

/** Σ price·qty / Σ qty rounded half up to the price's minor unit; null without quantity. */
export function volumeWeightedPrice(trades: readonly PricedQuantity[]): number | null {
  let raw = 0n;
  let qty = 0n;
  for (const trade of trades) {
    raw += BigInt(trade.price) * BigInt(trade.qty);
    qty += BigInt(trade.qty);
  }
  if (qty === 0n) return null;
  return safeNumber(floorDiv(2n * raw + qty, 2n * qty));
}

/** (bid + ask) / 2 rounded half up; null unless both sides exist. */
export function midPrice(bestBid: number | null, bestAsk: number | null): number | null {
  if (bestBid === null || bestAsk === null) return null;
  return safeNumber(floorDiv(BigInt(bestBid) + BigInt(bestAsk) + 1n, 2n));
}

/** (price − previous) / previous in basis points, rounded half away from zero; null without a previous (or a zero) price. */
export function variationBps(price: number | null, previous: number | null): number | null {
  if (price === null || previous === null || previous === 0) return null;
  const numerator = 10_000n * (BigInt(price) - BigInt(previous));
  const divisor = BigInt(previous);
  const negative = (numerator < 0n) !== (divisor < 0n);
  const magnitude = (2n * (numerator < 0n ? -numerator : numerator) + (divisor < 0n ? -divisor : divisor)) / (2n * (divisor < 0n ? -divisor : divisor));
  return safeNumber(negative ? -magnitude : magnitude);
}

export interface DailySettlementPriceInputs {
  /** Trades of the asset's closing window. */
  windowTrades: readonly PricedQuantity[];
  bestBid: number | null;
  bestAsk: number | null;
  /** The price in force the session before (its override when there was one). */
  previous: number | null;
}

export interface ComputedDailySettlementPrice {
  priceFromTransactions: number | null;
  priceFromOrders: number | null;
  value: number | null;
  source: Exclude<SettlementPriceSource, 'override'>;
}

/** Transactions in the closing window, else the mid of the close's best bid and ask, else the previous price. */
export function computeDailySettlementPrice(inputs: DailySettlementPriceInputs): ComputedDailySettlementPrice {
  const priceFromTransactions = volumeWeightedPrice(inputs.windowTrades);
  const priceFromOrders = midPrice(inputs.bestBid, inputs.bestAsk);
  if (priceFromTransactions !== null) return { priceFromTransactions, priceFromOrders, value: priceFromTransactions, source: 'transactions' };
  if (priceFromOrders !== null) return { priceFromTransactions, priceFromOrders, value: priceFromOrders, source: 'orders' };
  return { priceFromTransactions, priceFromOrders, value: inputs.previous, source: 'previous' };
}
