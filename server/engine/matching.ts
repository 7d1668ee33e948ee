/**
 * Matching: continuous matching of an incoming order at the resting prices, and the uncross of a
 * crossed book at one price (the opening auction, the end of delta T). The uncross simulation on
 * level aggregates (volume and marginal prices) is one function, shared with indicativeUncross().
 */
import type { Way } from '../../protocol/enums.ts';
import { recordTrade, release, reserve } from './clearing.ts';
import type { EngineState } from './engine-state.ts';
import { retire } from './resting.ts';
import { ASK, BID, type SideIndex } from './sides.ts';
import { clientUnlink, type AssetState, type OrderState } from './state.ts';

/** Continuous matching of an incoming order against the opposite side, at the resting prices. */
export function matchIncoming(s: EngineState, a: AssetState, taker: OrderState, at: number): void {
  const oppSide: SideIndex = taker.side === BID ? ASK : BID;
  const opp = a.book.sides[oppSide];
  const isBid = taker.side === BID;
  const limit = taker.price;
  while (taker.remaining > 0) {
    const level = opp.best();
    if (level === undefined) break;
    const price = level.price;
    if (isBid ? price > limit : price < limit) break;
    let maker = level.head;
    while (maker !== null && taker.remaining > 0) {
      const next = maker.next;
      const q = maker.remaining < taker.remaining ? maker.remaining : taker.remaining;
      taker.remaining -= q;
      taker.tradedQty += q;
      taker.tradedValue += q * price;
      if (isBid) trade(s, a, taker, maker, q, price, 'bid', at);
      else trade(s, a, maker, taker, q, price, 'ask', at);
      fillResting(s, a, maker, q, price, at);
      maker = next;
    }
    s.levelEvent(a, oppSide, level);
  }
  taker.status = taker.remaining === 0 ? 'traded' : 'tradedPartially';
  taker.lastModifiedAt = at;
}

/** A resting order gives `q` at `price`. */
function fillResting(s: EngineState, a: AssetState, o: OrderState, q: number, price: number, at: number): void {
  const level = o.level!;
  o.remaining -= q;
  level.qty -= q;
  o.cas.openQty[o.side] -= q;
  o.tradedQty += q;
  o.tradedValue += q * price;
  o.lastModifiedAt = at;
  if (o.remaining === 0) {
    o.status = 'traded';
    a.book.sides[o.side].unlink(o);
    clientUnlink(o);
    o.resting = false;
    release(o);
    retire(s, a, o);
    s.orderEvent(a, o, 'traded', at);
  } else {
    o.status = 'tradedPartially';
    reserve(s, a, o);
    s.orderEvent(a, o, 'tradedPartially', at);
  }
}

/** A match: the transaction event, the session statistics and the clients' trade accounting. */
function trade(s: EngineState, a: AssetState, buy: OrderState, sell: OrderState, q: number, price: number, aggressor: Way, at: number): void {
  s.tradeEvent(a, buy, sell, q, price, aggressor, at);
  const stats = a.stats;
  if (stats.minPrice === null || price < stats.minPrice) stats.minPrice = price;
  if (stats.maxPrice === null || price > stats.maxPrice) stats.maxPrice = price;
  stats.lastPrice = price;
  stats.volume += q;
  stats.transactions++;
  s.statsChanged(a);
  recordTrade(a, buy.cas, sell.cas, q, price);
}

/** What an uncross of the book would execute now: the volume and the marginal bid and ask prices (all 0 when the book does not cross). */
export interface UncrossSimulation {
  volume: number;
  bidPrice: number;
  askPrice: number;
}

/** Simulates the uncross on level aggregates, best levels first, until the book no longer crosses. No state change. */
export function simulateUncross(a: AssetState): UncrossSimulation {
  const bids = a.book.sides[BID].levels;
  const asks = a.book.sides[ASK].levels;
  let bi = bids.length - 1;
  let ai = asks.length - 1;
  let bq = bi >= 0 ? bids[bi]!.qty : 0;
  let aq = ai >= 0 ? asks[ai]!.qty : 0;
  let volume = 0;
  let bidPrice = 0;
  let askPrice = 0;
  while (bi >= 0 && ai >= 0 && bids[bi]!.price >= asks[ai]!.price) {
    const q = bq < aq ? bq : aq;
    volume += q;
    bidPrice = bids[bi]!.price;
    askPrice = asks[ai]!.price;
    bq -= q;
    aq -= q;
    if (bq === 0 && --bi >= 0) bq = bids[bi]!.qty;
    if (aq === 0 && --ai >= 0) aq = asks[ai]!.qty;
  }
  return { volume, bidPrice, askPrice };
}

/** The uncross price: the competing side's marginal price at the end of delta T; in an auction the reference price (last, else settlement) clamped into the marginal range, else the range's middle on the price step. */
export function uncrossPrice(a: AssetState, mode: 'auction' | 'deltaT', competingSide: SideIndex, sim: UncrossSimulation): number {
  if (mode === 'deltaT') return competingSide === BID ? sim.bidPrice : sim.askPrice;
  const lastBid = sim.bidPrice;
  const lastAsk = sim.askPrice;
  const ref = a.stats.lastPrice ?? a.settlementPrice;
  if (ref !== null) return ref < lastAsk ? lastAsk : ref > lastBid ? lastBid : ref;
  return lastAsk + Math.floor((lastBid - lastAsk) / 2 / a.priceStep) * a.priceStep;
}

/**
 * Executes a crossed book at one price (opening auction, end of delta T): the bids and asks that
 * price-time priority matches until the book no longer crosses, all at the uncross price. Returns
 * the price (0 when nothing crossed).
 */
export function uncross(s: EngineState, a: AssetState, mode: 'auction' | 'deltaT', competingSide: SideIndex, at: number): number {
  if (!a.book.crossed()) return 0;
  const sim = simulateUncross(a);
  const price = uncrossPrice(a, mode, competingSide, sim);
  // execute in price-time priority
  const bidSide = a.book.sides[BID];
  const askSide = a.book.sides[ASK];
  for (;;) {
    const bl = bidSide.best();
    const al = askSide.best();
    if (bl === undefined || al === undefined || bl.price < al.price) break;
    const b = bl.head!;
    const sell = al.head!;
    const q = b.remaining < sell.remaining ? b.remaining : sell.remaining;
    trade(s, a, b, sell, q, price, b.priority > sell.priority ? 'bid' : 'ask', at);
    fillResting(s, a, b, q, price, at);
    fillResting(s, a, sell, q, price, at);
    s.levelEvent(a, BID, bl);
    s.levelEvent(a, ASK, al);
  }
  // statistics of the uncross: executed volume and what is left at the price
  const bids = bidSide.levels;
  const asks = askSide.levels;
  let bidLeft = 0;
  for (let i = bids.length - 1; i >= 0 && bids[i]!.price >= price; i--) bidLeft += bids[i]!.qty;
  let askLeft = 0;
  for (let i = asks.length - 1; i >= 0 && asks[i]!.price <= price; i--) askLeft += asks[i]!.qty;
  a.stats.tradeableQty = sim.volume;
  a.stats.surplusQty = bidLeft - askLeft;
  s.statsChanged(a);
  return price;
}
