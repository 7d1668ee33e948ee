/**
 * The deterministic operation stream of `npm run bench:engine` (issue 3), generated before timing
 * from a seeded PRNG while a small independent book simulation tracks what rests, so that cancels
 * name orders resting at that moment:
 *
 * - 70% passive limit orders: side 50/50, distance from the current mid 1 + an exponential of mean
 *   10 ticks, capped at 50; size 1-100;
 * - 20% cancels of a uniformly chosen resting order;
 * - 10% aggressive orders: half market orders, half limits priced 0-4 ticks through the opposite best
 *   (their remainder rests); their size scales with the book so it holds near 5,000-7,500 orders.
 *
 * Order ids are predicted exactly as the engine assigns them (one per accepted order, market orders
 * included; a market order against an empty side is refused and takes no id).
 */

export const OP_LIMIT = 0;
export const OP_MARKET = 1;
export const OP_CANCEL = 2;

export interface EngineStream {
  kind: Uint8Array;
  /** 0 bid, 1 ask */
  side: Uint8Array;
  price: Float64Array;
  qty: Float64Array;
  /** Limit / market: the id the order gets (0 when refused); cancel: the target id. */
  id: Float64Array;
  /** 1 for the aggressive orders (market and limits through the opposite best). */
  aggressive: Uint8Array;
  length: number;
  stats: { passive: number; cancels: number; aggressiveLimits: number; markets: number; avgResting: number; maxResting: number; endResting: number; avgLevelsPerSide: number };
}

/** mulberry32: small, fast, good enough for a benchmark stream. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface SimOrder {
  id: number;
  side: number;
  price: number;
  qty: number;
  /** index in the resting array (for O(1) random pick and removal) */
  idx: number;
}

class SimSide {
  /** price -> FIFO of orders */
  readonly levels = new Map<number, SimOrder[]>();
  /** sorted ascending */
  prices: number[] = [];
  constructor(readonly isBid: boolean) {}
  best(): number | undefined {
    if (this.prices.length === 0) return undefined;
    return this.isBid ? this.prices[this.prices.length - 1] : this.prices[0];
  }
  add(o: SimOrder): void {
    let q = this.levels.get(o.price);
    if (!q) {
      q = [];
      this.levels.set(o.price, q);
      let lo = 0;
      let hi = this.prices.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.prices[mid]! < o.price) lo = mid + 1;
        else hi = mid;
      }
      this.prices.splice(lo, 0, o.price);
    }
    q.push(o);
  }
  remove(o: SimOrder): void {
    const q = this.levels.get(o.price)!;
    q.splice(q.indexOf(o), 1);
    if (q.length === 0) this.dropLevel(o.price);
  }
  dropLevel(price: number): void {
    this.levels.delete(price);
    const i = this.prices.indexOf(price);
    this.prices.splice(i, 1);
  }
}

export function generateStream(n: number, seed = 20240601, startMid = 500_000): EngineStream {
  const rnd = mulberry32(seed);
  const s: EngineStream = {
    kind: new Uint8Array(n),
    side: new Uint8Array(n),
    price: new Float64Array(n),
    qty: new Float64Array(n),
    id: new Float64Array(n),
    aggressive: new Uint8Array(n),
    length: n,
    stats: { passive: 0, cancels: 0, aggressiveLimits: 0, markets: 0, avgResting: 0, maxResting: 0, endResting: 0, avgLevelsPerSide: 0 },
  };
  const sides = [new SimSide(true), new SimSide(false)];
  const resting: SimOrder[] = [];
  let nextId = 1;
  let lastMid = startMid;
  let restingSum = 0;
  let levelSum = 0;

  const removeResting = (o: SimOrder): void => {
    const last = resting.pop()!;
    if (last !== o) {
      resting[o.idx] = last;
      last.idx = o.idx;
    }
  };
  const rest = (id: number, side: number, price: number, qty: number): void => {
    const o: SimOrder = { id, side, price, qty, idx: resting.length };
    resting.push(o);
    sides[side]!.add(o);
  };
  /** Matches an incoming order; limit = null for market. Returns the remaining quantity. */
  const match = (side: number, limit: number | null, qty: number): number => {
    const opp = sides[1 - side]!;
    while (qty > 0) {
      const best = opp.best();
      if (best === undefined) break;
      if (limit !== null && (side === 0 ? best > limit : best < limit)) break;
      const q = opp.levels.get(best)!;
      while (q.length > 0 && qty > 0) {
        const maker = q[0]!;
        const f = Math.min(maker.qty, qty);
        maker.qty -= f;
        qty -= f;
        if (maker.qty === 0) {
          q.shift();
          removeResting(maker);
        }
      }
      if (q.length === 0) opp.dropLevel(best);
    }
    return qty;
  };
  const mid = (): number => {
    const b = sides[0]!.best();
    const a = sides[1]!.best();
    if (b !== undefined && a !== undefined) lastMid = (b + a) / 2;
    else if (b !== undefined) lastMid = Math.max(lastMid, b + 1);
    else if (a !== undefined) lastMid = Math.min(lastMid, a - 1);
    return lastMid;
  };
  const aggressiveSize = (): number => {
    const mean = 252 * (resting.length / 5200) ** 2;
    return 1 + Math.floor(rnd() * Math.max(1, 2 * mean));
  };

  for (let i = 0; i < n; i++) {
    const r = rnd();
    const side = rnd() < 0.5 ? 0 : 1;
    if (r < 0.2 && resting.length > 0) {
      const o = resting[Math.floor(rnd() * resting.length)]!;
      s.kind[i] = OP_CANCEL;
      s.side[i] = o.side;
      s.price[i] = o.price;
      s.id[i] = o.id;
      sides[o.side]!.remove(o);
      removeResting(o);
      s.stats.cancels++;
    } else if (r < 0.3) {
      const size = aggressiveSize();
      s.side[i] = side;
      s.aggressive[i] = 1;
      s.qty[i] = size;
      const oppBest = sides[1 - side]!.best();
      if (rnd() < 0.5) {
        s.kind[i] = OP_MARKET;
        if (oppBest === undefined) {
          s.id[i] = 0; // refused: nothing to take
        } else {
          s.id[i] = nextId++;
          match(side, null, size);
        }
        s.stats.markets++;
      } else {
        const through = Math.floor(rnd() * 5);
        const m = mid();
        const price = oppBest !== undefined ? (side === 0 ? oppBest + through : oppBest - through) : side === 0 ? Math.floor(m) - 1 : Math.ceil(m) + 1;
        s.kind[i] = OP_LIMIT;
        s.price[i] = price;
        const id = nextId++;
        s.id[i] = id;
        const left = match(side, price, size);
        if (left > 0) rest(id, side, price, left);
        s.stats.aggressiveLimits++;
      }
    } else {
      const m = mid();
      const distance = 1 + Math.min(49, Math.floor(-Math.log(1 - rnd()) * 10));
      const price = side === 0 ? Math.ceil(m - distance) : Math.floor(m + distance);
      const size = 1 + Math.floor(rnd() * 100);
      const id = nextId++;
      s.kind[i] = OP_LIMIT;
      s.side[i] = side;
      s.price[i] = price;
      s.qty[i] = size;
      s.id[i] = id;
      const left = match(side, price, size); // never trades: passive prices are off the mid
      if (left > 0) rest(id, side, price, left);
      s.stats.passive++;
    }
    restingSum += resting.length;
    levelSum += sides[0]!.prices.length + sides[1]!.prices.length;
    if (resting.length > s.stats.maxResting) s.stats.maxResting = resting.length;
  }
  s.stats.avgResting = Math.round(restingSum / n);
  s.stats.endResting = resting.length;
  s.stats.avgLevelsPerSide = Math.round(levelSum / n / 2);
  return s;
}
