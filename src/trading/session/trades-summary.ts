/**
 * The client trades summary: the user's clients' trades on one asset in one session, per client code.
 * Integers throughout: quantities and prices in the asset's minor units, values (price × quantity) in
 * BigInt, the weighted average rounded half up to the price's minor unit, as the engine rounds its
 * client statistics.
 */
import type { Transaction } from '../../../protocol/market-data.ts';

export interface ClientTrades {
  /** The client code; '' for the total row. */
  clientCode: string;
  boughtQty: number;
  soldQty: number;
  /** Bought minus sold. */
  netQty: number;
  buys: number;
  sells: number;
  /** Trades the row takes part in (a trade between two of the user's clients counts once in the total). */
  count: number;
  avgBuyPrice: number | null;
  avgSellPrice: number | null;
  /** Over both sides. */
  avgPrice: number | null;
}

export interface TradesSummary {
  rows: ClientTrades[];
  total: ClientTrades;
}

/** Σ(price × qty) / Σqty rounded half up (away from zero for a negative value), or null without quantity. */
export function weightedAverage(value: bigint, qty: number): number | null {
  if (qty === 0) return null;
  const q = BigInt(qty);
  const sign = value < 0n ? -1n : 1n;
  const magnitude = value * sign;
  return Number(((2n * magnitude + q) / (2n * q)) * sign);
}

class Tally {
  boughtQty = 0;
  soldQty = 0;
  buys = 0;
  sells = 0;
  count = 0;
  buyValue = 0n;
  sellValue = 0n;

  add(way: 'bid' | 'ask', price: number, qty: number): void {
    const value = BigInt(price) * BigInt(qty);
    if (way === 'bid') {
      this.boughtQty += qty;
      this.buys += 1;
      this.buyValue += value;
    } else {
      this.soldQty += qty;
      this.sells += 1;
      this.sellValue += value;
    }
  }

  row(clientCode: string): ClientTrades {
    return {
      clientCode,
      boughtQty: this.boughtQty,
      soldQty: this.soldQty,
      netQty: this.boughtQty - this.soldQty,
      buys: this.buys,
      sells: this.sells,
      count: this.count,
      avgBuyPrice: weightedAverage(this.buyValue, this.boughtQty),
      avgSellPrice: weightedAverage(this.sellValue, this.soldQty),
      avgPrice: weightedAverage(this.buyValue + this.sellValue, this.boughtQty + this.soldQty),
    };
  }
}

/** The ids of the transactions any copy of which says they were superseded. */
function supersededIds(transactions: readonly Pick<Transaction, 'transactionId' | 'status'>[]): Set<string> {
  const ids = new Set<string>();
  for (const transaction of transactions) if (transaction.status === 'superseded') ids.add(transaction.transactionId);
  return ids;
}

/**
 * Sums the trades of `clientCodes` on `assetId` whose trade date is `sessionDate` (every date when
 * null). Each transaction id counts once, however many copies (REST and live) came in. A transaction
 * superseded by a transfer to the central counterparty counts not at all, whichever copy came first
 * (superseded is final): its children (the `transfer` in the target asset, the `split` remainder in
 * this one) carry its quantity on, so counting it too would count the quantity twice.
 */
export function summarizeTrades(trades: readonly Transaction[], clientCodes: readonly string[], assetId: string, sessionDate: string | null): TradesSummary {
  const mine = new Set(clientCodes);
  const byClient = new Map<string, Tally>();
  const total = new Tally();
  const seen = new Set<string>(supersededIds(trades));
  const tally = (clientCode: string) => {
    let entry = byClient.get(clientCode);
    if (!entry) byClient.set(clientCode, (entry = new Tally()));
    return entry;
  };
  for (const trade of trades) {
    if (trade.assetId !== assetId || (sessionDate !== null && trade.txDate !== sessionDate) || seen.has(trade.transactionId)) continue;
    seen.add(trade.transactionId);
    let counted = false;
    for (const [way, clientCode] of [['bid', trade.buyer], ['ask', trade.seller]] as const) {
      if (!mine.has(clientCode)) continue;
      const entry = tally(clientCode);
      entry.add(way, trade.price, trade.qty);
      entry.count += 1;
      total.add(way, trade.price, trade.qty);
      counted = true;
    }
    if (counted) total.count += 1;
  }
  const rows = [...byClient.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([clientCode, entry]) => entry.row(clientCode));
  return { rows, total: total.row('') };
}
