/**
 * The engine's shared mutable state: the containers, the counters, the current command's events and
 * the caches of the hot path. One object, handed to every part (orders, matching, session,
 * configuration, queries) as their first argument; the parts are plain functions.
 */
import type { Way } from '../../protocol/enums.ts';
import { ExpiryHeap } from './heap.ts';
import { OrderIndex } from './order-index.ts';
import { BID } from './sides.ts';
import type { Level } from './book.ts';
import { ParticipantSuspensions, type AssetState, type ClientState, type MarketState, type OrderState } from './state.ts';
import type { CancelAllRefusal, CancelReason, EngineEvent, OrderEventKind, TransactionRecord } from './types.ts';

const NO_EVENTS: EngineEvent[] = [];

export class EngineState {
  readonly markets = new Map<string, MarketState>();
  readonly assets = new Map<string, AssetState>();
  readonly clients = new Map<string, ClientState>();
  /** Live orders: resting in a book or suspended. Finished orders leave the engine (the store keeps them). */
  readonly orders = new OrderIndex();
  readonly expiries = new ExpiryHeap();
  /** Assets with a running delta T, in start order (tick() breaks ties on it). */
  readonly deltaTAssets = new Set<AssetState>();
  /** Off-book transactions and those post-trade commands touched, by id (see TransactionRecord). */
  readonly transactions = new Map<number, TransactionRecord>();
  /** Active whitelist relations, both ways: client code -> its partners (bilateral assets). */
  readonly relations = new Map<string, Set<string>>();
  /** Clients and brokers the operator suspended (participants.ts, rules/participant-suspension.ts). */
  readonly suspensions = new ParticipantSuspensions();
  /** Value and margin of the order being added at its full quantity (see clearing.ts reserve()). */
  hintQty = -1;
  hintValue = 0;
  hintMargin = 0;
  /** One-entry cache of the asset of the last new order. */
  lastAsset: AssetState | null = null;
  /** Assets whose statistics changed during the command (a `stats` event each at its end). */
  readonly dirtyAssets: AssetState[] = [];
  /**
   * Finished OrderState objects, reused by new orders. Safe because events and queries copy what they
   * need, and a command takes at most one object from the pool, before anything finishes in it.
   */
  readonly pool: OrderState[] = [];
  nextOrderId = 1;
  nextTransactionId = 1;
  nextPriority = 1;
  /** Bumped on every configuration change; cached client/asset rules recompute when stale. */
  epoch = 0;
  /** Latest command time seen: the engine's only clock. */
  now = 0;
  /** Events of the current command: a new array per command that becomes the result's `events`. */
  events: EngineEvent[] = NO_EVENTS;
  /** Id of the order the current command created or acted on. */
  resultOrderId: number | undefined = undefined;
  /** cancelAll's outcome (undefined for every other command). */
  resultCancelAll: { cancelled: number[]; refused: CancelAllRefusal[] } | undefined = undefined;
  commandCount = 0;
  /**
   * Commands that changed the engine (emitted events), counted at their end: the `seq` of events.
   * Unlike commandCount, refusals and idle ticks (never journaled) do not count: replay-deterministic.
   */
  changedCommands = 0;

  /** Starts a command. A fresh (young) array per command, handed out as the result's events: storing
   * young events into a long-lived buffer would take the write barrier's slow path for every event. */
  begin(): void {
    this.events = [];
    this.resultOrderId = undefined;
    this.resultCancelAll = undefined;
    this.hintQty = -1;
    this.commandCount++;
  }

  emit(event: EngineEvent): void {
    this.events.push(event);
  }

  /** The command's events (the array itself: no copy). */
  takeEvents(): EngineEvent[] {
    const events = this.events;
    this.events = NO_EVENTS;
    return events;
  }

  /**
   * An order of asset `a` changed: an `order` event with what changes, as primitives, and the order's
   * shared header. One small object of one shape (`reason` always a key); no copy of the whole order.
   */
  orderEvent(a: AssetState, o: OrderState, kind: OrderEventKind, at: number, reason?: CancelReason): void {
    o.lastModifiedAt = at;
    this.emit({
      type: 'order',
      kind,
      orderId: o.id,
      seq: this.changedCommands + 1,
      at,
      reason,
      status: o.status,
      suspended: o.suspended,
      price: o.price,
      remaining: o.remaining,
      tradedQty: o.tradedQty,
      tradedValue: o.tradedValue,
      priority: o.priority,
      header: o.header,
    });
  }

  /** A match of `buy` and `sell` on asset `a`: ids, parties and the asset's product, no SPEC view. */
  tradeEvent(a: AssetState, buy: OrderState, sell: OrderState, qty: number, price: number, aggressor: Way, at: number): void {
    this.emit({
      type: 'trade',
      transactionId: this.nextTransactionId++,
      seq: this.changedCommands + 1,
      at,
      product: a.product,
      buyOrderId: buy.id,
      sellOrderId: sell.id,
      buyer: buy.clientCode,
      seller: sell.clientCode,
      buyerBrokerId: buy.brokerId,
      sellerBrokerId: sell.brokerId,
      aggressor,
      qty,
      price,
      marginsExposureActive: a.bookTradesMargined,
    });
  }

  levelEvent(a: AssetState, side: number, level: Level<OrderState>): void {
    this.emit({ type: 'level', assetId: a.assetId, way: side === BID ? 'bid' : 'ask', price: level.price, qty: level.qty, orders: level.count });
  }

  /** The asset's statistics changed: a `stats` event goes out at the end of the command. */
  statsChanged(a: AssetState): void {
    if (!a.statsDirty) {
      a.statsDirty = true;
      this.dirtyAssets.push(a);
    }
  }
}
