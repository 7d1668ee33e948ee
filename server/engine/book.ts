/**
 * The order book of one asset: two sides, each a sorted array of price levels with the best level at
 * the END of the array (bids ascending, asks descending), so the best level is read, and removed when
 * it empties, in O(1). Each level holds its orders in an intrusive doubly linked FIFO list; the engine
 * keeps a Map<orderId, OrderState> for lookups. Everything is plain integer arithmetic.
 */
import type { ExecutionType, OrderStatus, ValidityType, Way } from '../../protocol/enums.ts';
import type { OrderFields, ProductInfo } from './events.ts';
import type { AssetState, ClientState, ResolvedRules } from './state.ts';

export const BID = 0;
export const ASK = 1;
export type SideIndex = 0 | 1;

/** Per client and asset: open aggregates and the client's resting orders per side (intrusive list). */
export class ClientAssetState {
  readonly clientCode: string;
  readonly assetId: string;
  /** The asset (its state object lives as long as the engine), so order commands need no lookup by id. */
  readonly asset: AssetState;
  readonly client: ClientState;
  /** Rules of this client on this asset, resolved from both configurations (see state.ts). */
  readonly rules: ResolvedRules;
  /** Open (offered) quantity of resting orders per side. */
  openQty: [number, number] = [0, 0];
  openCount: [number, number] = [0, 0];
  /** Heads of the client's resting orders per side (linked through cPrev / cNext). */
  heads: [OrderState | null, OrderState | null] = [null, null];
  /** Traded this session per side, and traded value (price × qty) for the average price. */
  tradedQty: [number, number] = [0, 0];
  tradedValue = 0;
  tradedTotalQty = 0;
  /** This session's traded value and trade margin in amount units (the client's share on this asset). */
  tradedAmount = 0;
  tradesMargin = 0;
  constructor(client: ClientState, asset: AssetState, rules: ResolvedRules) {
    this.clientCode = client.clientCode;
    this.client = client;
    this.asset = asset;
    this.assetId = asset.assetId;
    this.rules = rules;
  }
}

/**
 * The mutable part of an order inside the engine. Instances are pooled and reused (`init` resets
 * every field), so nothing outside the engine keeps one: events hold the header and copies.
 */
export class OrderState implements OrderFields {
  id = 0;
  assetId = '';
  /** Per-asset constants at creation (market, session date, product factors). */
  product!: ProductInfo;
  clientCode = '';
  brokerId: string | null = null;
  way: Way = 'bid';
  side: SideIndex = BID;
  /** Limit price (a market order holds its internal limit: any price). */
  price = 0;
  /** Open quantity (offered). */
  remaining = 0;
  tradedQty = 0;
  tradedValue = 0;
  /** Quantity when created (balancing-group decrease cap). */
  originalQty = 0;
  executionType: ExecutionType = 'normal';
  validityType: ValidityType = 'day';
  validity: number | null = null;
  expiresAt: number | null = null;
  createdAt = 0;
  lastModifiedAt = 0;
  status: OrderStatus = 'created';
  suspended = false;
  /** In the book (false while suspended or once finished). */
  resting = false;
  /** In the engine's live map (resting or suspended). */
  live = false;
  /** Time priority sequence. */
  priority = 0;
  balancingGroupId: string | null = null;
  initiator = false;
  /** A market order (IOC / FOK without a limit). */
  market = false;
  /** Power per settlement interval as entered, or null (derived from qty). */
  powerPerInterval: number | null = null;
  /** Margin and exposure this order reserves on its client (amount units). */
  reservedMargin = 0;
  reservedValue = 0;
  reservedContracts = 0;
  // intrusive links
  level: Level | null = null;
  prev: OrderState | null = null;
  next: OrderState | null = null;
  cPrev: OrderState | null = null;
  cNext: OrderState | null = null;
  cas!: ClientAssetState;

  init(
    id: number,
    product: ProductInfo,
    clientCode: string,
    brokerId: string | null,
    way: Way,
    price: number,
    qty: number,
    executionType: ExecutionType,
    validityType: ValidityType,
    validity: number | null,
    at: number,
    priority: number,
    balancingGroupId: string | null,
    initiator: boolean,
    market: boolean,
    powerPerInterval: number | null,
    cas: ClientAssetState,
  ): this {
    this.id = id;
    this.assetId = product.assetId;
    this.product = product;
    this.clientCode = clientCode;
    this.brokerId = brokerId;
    this.way = way;
    this.side = way === 'bid' ? BID : ASK;
    this.price = price;
    this.remaining = qty;
    this.tradedQty = 0;
    this.tradedValue = 0;
    this.originalQty = qty;
    this.executionType = executionType;
    this.validityType = validityType;
    this.validity = validity;
    this.expiresAt = validityType === 'GTD' || validityType === 'GTSV' ? validity : null;
    this.createdAt = at;
    this.lastModifiedAt = at;
    this.status = 'created';
    this.suspended = false;
    this.resting = false;
    this.live = true;
    this.priority = priority;
    this.balancingGroupId = balancingGroupId;
    this.initiator = initiator;
    this.market = market;
    this.powerPerInterval = powerPerInterval;
    this.reservedMargin = 0;
    this.reservedValue = 0;
    this.reservedContracts = 0;
    this.level = null;
    this.prev = null;
    this.next = null;
    this.cPrev = null;
    this.cNext = null;
    this.cas = cas;
    return this;
  }
}

export class Level {
  declare readonly price: number;
  declare qty: number;
  declare count: number;
  declare head: OrderState | null;
  declare tail: OrderState | null;
  constructor(price: number) {
    this.price = price;
    this.qty = 0;
    this.count = 0;
    this.head = null;
    this.tail = null;
  }
}

export class BookSide {
  readonly side: SideIndex;
  /** Sorted so that the best level is last: bids ascending by price, asks descending. */
  readonly levels: Level[] = [];
  constructor(side: SideIndex) {
    this.side = side;
  }

  best(): Level | undefined {
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
  levelFor(price: number): Level {
    const levels = this.levels;
    const n = levels.length;
    // Fast path: best level or a new best (common for matching and tight quoting).
    if (n > 0) {
      const top = levels[n - 1]!;
      if (top.price === price) return top;
      if (this.side === BID ? price > top.price : price < top.price) {
        const level = new Level(price);
        levels.push(level);
        return level;
      }
    }
    const i = this.search(price);
    if (i >= 0) return levels[i]!;
    const level = new Level(price);
    levels.splice(-i - 1, 0, level);
    return level;
  }

  find(price: number): Level | undefined {
    const i = this.search(price);
    return i >= 0 ? this.levels[i] : undefined;
  }

  removeLevel(level: Level): void {
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
  append(order: OrderState): Level {
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
  unlink(order: OrderState): Level {
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

export class Book {
  readonly sides: [BookSide, BookSide] = [new BookSide(BID), new BookSide(ASK)];
  get bids(): BookSide {
    return this.sides[BID];
  }
  get asks(): BookSide {
    return this.sides[ASK];
  }
  crossed(): boolean {
    const b = this.sides[BID].best();
    const a = this.sides[ASK].best();
    return b !== undefined && a !== undefined && b.price >= a.price;
  }
}

/** Client list links: the client's resting orders on one side of one asset. */
export function clientLink(order: OrderState): void {
  const cas = order.cas;
  const s = order.side;
  const head = cas.heads[s];
  order.cPrev = null;
  order.cNext = head;
  if (head) head.cPrev = order;
  cas.heads[s] = order;
  cas.openQty[s] += order.remaining;
  cas.openCount[s]++;
}

export function clientUnlink(order: OrderState): void {
  const cas = order.cas;
  const s = order.side;
  if (order.cPrev) order.cPrev.cNext = order.cNext;
  else cas.heads[s] = order.cNext;
  if (order.cNext) order.cNext.cPrev = order.cPrev;
  order.cPrev = null;
  order.cNext = null;
  cas.openQty[s] -= order.remaining;
  cas.openCount[s]--;
}
