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
import { partnersOf } from './whitelist.ts';

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

/**
 * Continuous matching on a bilateral asset: as matchIncoming, but only against resting orders of the
 * taker's whitelist partners; the others are skipped and stay in the book, whose levels are walked by
 * index (best last) so that a level emptied and removed under the walk shifts only levels already passed.
 */
export function matchIncomingBilateral(s: EngineState, a: AssetState, taker: OrderState, at: number): void {
  const oppSide: SideIndex = taker.side === BID ? ASK : BID;
  const levels = a.book.sides[oppSide].levels;
  const isBid = taker.side === BID;
  const limit = taker.price;
  const partners = partnersOf(s, taker.clientCode);
  for (let i = levels.length - 1; i >= 0 && taker.remaining > 0; i--) {
    const level = levels[i]!;
    const price = level.price;
    if (isBid ? price > limit : price < limit) break;
    let traded = false;
    let maker = level.head;
    while (maker !== null && taker.remaining > 0) {
      const next = maker.next;
      if (partners.has(maker.clientCode)) {
        const q = maker.remaining < taker.remaining ? maker.remaining : taker.remaining;
        taker.remaining -= q;
        taker.tradedQty += q;
        taker.tradedValue += q * price;
        if (isBid) trade(s, a, taker, maker, q, price, 'bid', at);
        else trade(s, a, maker, taker, q, price, 'ask', at);
        fillResting(s, a, maker, q, price, at);
        traded = true;
      }
      maker = next;
    }
    if (traded) s.levelEvent(a, oppSide, level);
  }
  taker.status = taker.tradedQty === 0 ? taker.status : taker.remaining === 0 ? 'traded' : 'tradedPartially';
  taker.lastModifiedAt = at;
}

/** Whether an order of `clientCode` on `side` at `price` meets a resting order of a partner (bilateral assets). */
export function crossesPartner(s: EngineState, a: AssetState, side: SideIndex, price: number, clientCode: string): boolean {
  return partnerQty(s, a, side, price, clientCode, 1) > 0;
}

/** Partners' opposite quantity at prices an order on `side` at `price` accepts, counted up to `want` (FOK on bilateral assets). */
export function partnerQty(s: EngineState, a: AssetState, side: SideIndex, price: number, clientCode: string, want: number): number {
  const levels = a.book.sides[side === BID ? ASK : BID].levels;
  const partners = partnersOf(s, clientCode);
  if (partners.size === 0) return 0;
  let total = 0;
  for (let i = levels.length - 1; i >= 0 && total < want; i--) {
    const level = levels[i]!;
    if (side === BID ? level.price > price : level.price < price) break;
    for (let o = level.head; o !== null && total < want; o = o.next) if (partners.has(o.clientCode)) total += o.remaining;
  }
  return total;
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
  if (a.bilateral) return uncrossBilateral(s, a, mode, competingSide, at);
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

/**
 * The uncross of a bilateral asset as it would execute: per candidate price, the volume that pairing
 * bids at or above it with partners' asks at or below it (price-time priority, `pairVolume`) gives.
 * Only prices of the crossed range matter; the eligible orders are the same at a level's price and
 * across each gap between two levels, so the candidates are the levels' prices and, for each gap,
 * its on-step prices as one range. `ranges` holds, ascending, the [lo, hi] ranges (on the price step)
 * whose volume is the largest; empty when no partners cross.
 */
interface BilateralSimulation {
  volume: number;
  ranges: Array<[number, number]>;
}

function simulateBilateral(s: EngineState, a: AssetState): BilateralSimulation {
  const bestBid = a.book.sides[BID].best();
  const bestAsk = a.book.sides[ASK].best();
  const none: BilateralSimulation = { volume: 0, ranges: [] };
  if (bestBid === undefined || bestAsk === undefined || bestBid.price < bestAsk.price) return none;
  // every order that can take part, best first: bids down to the best ask, asks up to the best bid
  const bids = eligible(a, BID, bestAsk.price);
  const asks = eligible(a, ASK, bestBid.price);
  const prices = [...new Set([...bids, ...asks].map((o) => o.price))].sort((x, y) => x - y);
  const step = a.priceStep;
  let volume = 0;
  let ranges: Array<[number, number]> = [];
  const consider = (lo: number, hi: number, bidFloor: number, askCeiling: number): void => {
    const v = pairVolume(s, bids, countWhile(bids, (o) => o.price >= bidFloor), asks, countWhile(asks, (o) => o.price <= askCeiling));
    if (v === 0 || v < volume) return;
    if (v > volume) {
      volume = v;
      ranges = [];
    }
    ranges.push([lo, hi]);
  };
  for (let i = 0; i < prices.length; i++) {
    const p = prices[i]!;
    consider(p, p, p, p);
    const next = prices[i + 1];
    if (next === undefined) break;
    // the prices strictly between two levels: bids of the upper level and above, asks of the lower and below
    const lo = (Math.floor(p / step) + 1) * step;
    const hi = (Math.ceil(next / step) - 1) * step;
    if (lo <= hi) consider(lo, hi, next, p);
  }
  return volume === 0 ? none : { volume, ranges };
}

/** How many of `orders` (best first) from the start satisfy `accepts`. */
function countWhile(orders: OrderState[], accepts: (o: OrderState) => boolean): number {
  let n = 0;
  while (n < orders.length && accepts(orders[n]!)) n++;
  return n;
}

/**
 * The volume the bilateral uncross executes over the first `nb` bids and `na` asks: each bid in
 * price-time priority against the asks in price-time priority whose client is its partner (the walk
 * of uncrossBilateral, on copies of the quantities).
 */
function pairVolume(s: EngineState, bids: OrderState[], nb: number, asks: OrderState[], na: number): number {
  const left = new Array<number>(na);
  for (let j = 0; j < na; j++) left[j] = asks[j]!.remaining;
  let volume = 0;
  for (let i = 0; i < nb; i++) {
    const b = bids[i]!;
    const partners = partnersOf(s, b.clientCode);
    if (partners.size === 0) continue;
    let r = b.remaining;
    for (let j = 0; j < na && r > 0; j++) {
      if (left[j] === 0 || !partners.has(asks[j]!.clientCode)) continue;
      const q = r < left[j]! ? r : left[j]!;
      r -= q;
      left[j]! -= q;
      volume += q;
    }
  }
  return volume;
}

/** The price of `ranges` nearest to `target` (the lower one on a tie). */
function nearest(ranges: Array<[number, number]>, target: number): number {
  let best = ranges[0]![0];
  let distance = Infinity;
  for (const [lo, hi] of ranges) {
    const p = target < lo ? lo : target > hi ? hi : target;
    const d = Math.abs(p - target);
    if (d < distance) {
      best = p;
      distance = d;
    }
  }
  return best;
}

/**
 * The bilateral uncross price, by the rule of uncrossPrice over the prices that execute the most
 * between partners: the competing side's marginal price at the end of delta T (the highest of those
 * prices for bids, the lowest for asks); in an auction the one nearest the reference price, else
 * nearest the middle of their span on the price step.
 */
function bilateralPrice(a: AssetState, mode: 'auction' | 'deltaT', competingSide: SideIndex, sim: BilateralSimulation): number {
  const low = sim.ranges[0]![0];
  const high = sim.ranges[sim.ranges.length - 1]![1];
  if (mode === 'deltaT') return competingSide === BID ? high : low;
  const ref = a.stats.lastPrice ?? a.settlementPrice;
  return nearest(sim.ranges, ref ?? low + Math.floor((high - low) / 2 / a.priceStep) * a.priceStep);
}

/** What the uncross would execute now (indicativeUncross): on a bilateral asset, partners only, with the span of the prices that execute it. */
export function indicativeSimulation(s: EngineState, a: AssetState): UncrossSimulation {
  if (!a.bilateral) return simulateUncross(a);
  const sim = simulateBilateral(s, a);
  if (sim.volume === 0) return { volume: 0, bidPrice: 0, askPrice: 0 };
  return { volume: sim.volume, bidPrice: sim.ranges[sim.ranges.length - 1]![1], askPrice: sim.ranges[0]![0] };
}

/**
 * The uncross of a bilateral asset, at a price that executes the most between partners
 * (simulateBilateral, bilateralPrice): bids at or above it in price-time priority, each against the
 * asks at or below it in price-time priority whose client is a partner. Orders are taken in two lists
 * first (filling retires orders and empties levels under the walk); every pair is visited once, so it
 * ends however the relations lie. Non-partners stay crossed.
 */
function uncrossBilateral(s: EngineState, a: AssetState, mode: 'auction' | 'deltaT', competingSide: SideIndex, at: number): number {
  const sim = simulateBilateral(s, a);
  const price = sim.volume === 0 ? 0 : bilateralPrice(a, mode, competingSide, sim);
  const bids = sim.volume === 0 ? [] : eligible(a, BID, price);
  const asks = sim.volume === 0 ? [] : eligible(a, ASK, price);
  let volume = 0;
  for (const b of bids) {
    const partners = partnersOf(s, b.clientCode);
    if (partners.size === 0) continue;
    for (const sell of asks) {
      if (b.remaining === 0) break;
      if (sell.remaining === 0 || !partners.has(sell.clientCode)) continue;
      const q = b.remaining < sell.remaining ? b.remaining : sell.remaining;
      const bl = b.level!;
      const al = sell.level!;
      trade(s, a, b, sell, q, price, b.priority > sell.priority ? 'bid' : 'ask', at);
      fillResting(s, a, b, q, price, at);
      fillResting(s, a, sell, q, price, at);
      s.levelEvent(a, BID, bl);
      s.levelEvent(a, ASK, al);
      volume += q;
    }
  }
  a.stats.tradeableQty = volume;
  a.stats.surplusQty = 0;
  s.statsChanged(a);
  return volume > 0 ? price : 0;
}

/** Resting orders of one side at prices that accept `price`, best level first, FIFO within a level. */
function eligible(a: AssetState, side: SideIndex, price: number): OrderState[] {
  const levels = a.book.sides[side].levels;
  const out: OrderState[] = [];
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i]!;
    if (side === BID ? level.price < price : level.price > price) break;
    for (let o = level.head; o !== null; o = o.next) out.push(o);
  }
  return out;
}
