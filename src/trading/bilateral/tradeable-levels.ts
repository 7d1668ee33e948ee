/**
 * What the user's clients may trade with on a bilateral (whitelist-restricted) asset, per price level,
 * as the book reads it: one map lookup by price per level drawn, never a request per row.
 */
import type { BookLevel } from '../../../protocol/market-data.ts';

export interface TradeableBook {
  assetId: string;
  /** The client the quantities are for; null: all the user's clients. */
  clientCode: string | null;
  /** Partners' quantity and orders by price. */
  bids: ReadonlyMap<number, BookLevel>;
  asks: ReadonlyMap<number, BookLevel>;
}

export function tradeableBookOf(response: { assetId: string; bids: readonly BookLevel[]; asks: readonly BookLevel[] }, clientCode: string | null): TradeableBook {
  const byPrice = (levels: readonly BookLevel[]) => new Map(levels.map((level) => [level.price, level]));
  return { assetId: response.assetId, clientCode, bids: byPrice(response.bids), asks: byPrice(response.asks) };
}

/**
 * The quantity of `level` the clients may trade with, or null when it is not known (a level that came
 * after the last fetch: shown as it is until the next one). The fetch lags the book, so a level that
 * shrank since is capped at its quantity now.
 */
export function tradeableQty(tradeable: ReadonlyMap<number, BookLevel>, level: BookLevel): number | null {
  const known = tradeable.get(level.price);
  return known === undefined ? null : Math.min(known.qty, level.qty);
}

/**
 * The levels with only their partners' part ("Only partners' orders"): a level with none of it goes;
 * a level not known yet stays as it is (the next fetch, within a second, tells).
 */
export function partnersOnlyLevels(levels: readonly BookLevel[], tradeable: ReadonlyMap<number, BookLevel>): BookLevel[] {
  const out: BookLevel[] = [];
  for (const level of levels) {
    const known = tradeable.get(level.price);
    if (known === undefined) out.push(level);
    else if (known.qty > 0 && level.qty > 0) out.push(known.qty >= level.qty && known.orders >= level.orders ? level : { price: level.price, qty: Math.min(known.qty, level.qty), orders: Math.min(known.orders, level.orders) });
  }
  return out;
}
