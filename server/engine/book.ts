/**
 * The order book of one asset: two sides, each a sorted array of price levels with the best level at
 * the END of the array (bids ascending, asks descending), so the best level is read, and removed when
 * it empties, in O(1). Each level holds its orders in an intrusive doubly linked FIFO list; the engine
 * keeps its own index of orders by id. Everything is plain integer arithmetic.
 *
 * Generic over the resting order type so that the book knows only the links it walks (the engine's
 * OrderState, in state.ts, points back to its client records: no import from here to there).
 */
import { ASK, BID, type SideIndex } from './sides.ts';

/** What the book needs of an order: its price, its open quantity and its links. */
export interface Resting<O extends Resting<O>> {
  price: number;
  remaining: number;
  level: Level<O> | null;
  prev: O | null;
  next: O | null;
}

export class Level<O extends Resting<O>> {
  declare readonly price: number;
  declare qty: number;
  declare count: number;
  declare head: O | null;
  declare tail: O | null;
  constructor(price: number) {
    this.price = price;
    this.qty = 0;
    this.count = 0;
    this.head = null;
    this.tail = null;
  }
}

export class BookSide<O extends Resting<O>> {
  readonly side: SideIndex;
  /** Sorted so that the best level is last: bids ascending by price, asks descending. */
  readonly levels: Array<Level<O>> = [];
  constructor(side: SideIndex) {
    this.side = side;
  }

  best(): Level<O> | undefined {
    const n = this.levels.length;
    return n === 0 ? undefined : this.levels[n - 1];
  }

  /** Index of the level at `price`, or -(insertion point) - 1. */
  private search(price: number): number {
    const levels = this.levels;
    let lo = 0;
    let hi = levels.length - 1;
    if (this.side === BID) {
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const p = levels[mid]!.price;
        if (p < price) lo = mid + 1;
        else if (p > price) hi = mid - 1;
        else return mid;
      }
    } else {
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const p = levels[mid]!.price;
        if (p > price) lo = mid + 1;
        else if (p < price) hi = mid - 1;
        else return mid;
      }
    }
    return -lo - 1;
  }

  /** Level at `price`, created when absent. */
  levelFor(price: number): Level<O> {
    const levels = this.levels;
    const n = levels.length;
    // Fast path: best level or a new best (common for matching and tight quoting).
    if (n > 0) {
      const top = levels[n - 1]!;
      if (top.price === price) return top;
      if (this.side === BID ? price > top.price : price < top.price) {
        const level = new Level<O>(price);
        levels.push(level);
        return level;
      }
    }
    const i = this.search(price);
    if (i >= 0) return levels[i]!;
    const level = new Level<O>(price);
    levels.splice(-i - 1, 0, level);
    return level;
  }

  find(price: number): Level<O> | undefined {
    const i = this.search(price);
    return i >= 0 ? this.levels[i] : undefined;
  }

  removeLevel(level: Level<O>): void {
    const levels = this.levels;
    const n = levels.length;
    if (n > 0 && levels[n - 1] === level) {
      levels.pop();
      return;
    }
    const i = this.search(level.price);
    if (i >= 0) levels.splice(i, 1);
  }

  /** Appends at the tail of its price level (last in time priority). */
  append(order: O): Level<O> {
    const level = this.levelFor(order.price);
    order.level = level;
    order.next = null;
    order.prev = level.tail;
    if (level.tail) level.tail.next = order;
    else level.head = order;
    level.tail = order;
    level.qty += order.remaining;
    level.count++;
    return level;
  }

  /** Unlinks from its level; removes the level when it empties. */
  unlink(order: O): Level<O> {
    const level = order.level!;
    if (order.prev) order.prev.next = order.next;
    else level.head = order.next;
    if (order.next) order.next.prev = order.prev;
    else level.tail = order.prev;
    order.prev = null;
    order.next = null;
    order.level = null;
    level.qty -= order.remaining;
    level.count--;
    if (level.count === 0) this.removeLevel(level);
    return level;
  }
}

export class Book<O extends Resting<O>> {
  readonly sides: [BookSide<O>, BookSide<O>] = [new BookSide<O>(BID), new BookSide<O>(ASK)];
  get bids(): BookSide<O> {
    return this.sides[BID];
  }
  get asks(): BookSide<O> {
    return this.sides[ASK];
  }
  crossed(): boolean {
    const b = this.sides[BID].best();
    const a = this.sides[ASK].best();
    return b !== undefined && a !== undefined && b.price >= a.price;
  }

  /** An order on `side` at `price` would meet the opposite best level. */
  crosses(side: SideIndex, price: number): boolean {
    const best = this.sides[side === BID ? ASK : BID].best();
    if (best === undefined) return false;
    return side === BID ? best.price <= price : best.price >= price;
  }

  /** Price of the farthest opposite level `qty` on `side` would reach (the best level when the side is short). */
  reachPrice(side: SideIndex, qty: number): number {
    const levels = this.sides[side === BID ? ASK : BID].levels;
    let total = 0;
    let price = 0;
    for (let i = levels.length - 1; i >= 0 && total < qty; i--) {
      price = levels[i]!.price;
      total += levels[i]!.qty;
    }
    return price;
  }

  /** Opposite quantity at prices an order on `side` at `price` accepts, counted up to `want`. */
  executableQty(side: SideIndex, price: number, want: number): number {
    const levels = this.sides[side === BID ? ASK : BID].levels;
    let total = 0;
    for (let i = levels.length - 1; i >= 0 && total < want; i--) {
      const level = levels[i]!;
      if (side === BID ? level.price > price : level.price < price) break;
      total += level.qty;
    }
    return total;
  }
}
