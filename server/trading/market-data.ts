import {
  destinations,
  parseDestination,
  type AssetActivity,
  type BookDelta,
  type BookLevel,
  type BookLevelChange,
  type BookSnapshot,
  type MarketWatchRow,
  type OwnBest,
  type PhaseUpdate,
} from '../../protocol/index.ts';
import type { Engine } from '../engine/engine.ts';
import { limitPriceOf, orderViewOf } from '../engine/events.ts';
import type { EngineEvent, OrderEvent, OrderEventKind } from '../engine/types.ts';
import type { StompGateway } from '../gateway/stomp-gateway.ts';
import { OwnPrices } from './own-prices.ts';
import { orderToWire, statsToWire, tradeToWire, transactionToWire, transactionViewToWire } from './wire.ts';

export interface MarketDataOptions {
  engine: Engine;
  gateway: StompGateway;
  /** Asset -> market and type, for market watch rows. */
  assets: Array<{ id: string; marketId: string; type: string }>;
  /** Which users act for a client code (their private queues get the client's orders and trades). */
  usersOfClient: (clientCode: string) => readonly string[];
  /** The client codes a user acts for. */
  clientsOfUser: (userId: string) => readonly string[];
  /**
   * The journal sequence the engine's current state stands at (the sequencer's last appended record):
   * the `seq` of the orders sent on subscribe, which already include every record up to it.
   */
  lastJournalSeq: () => number;
  /**
   * Book deltas and market-watch rows are conflated over this many ms: every change of a level inside
   * the window goes out as one delta carrying the level's latest absolute quantity. 0 = per command.
   */
  conflateMs?: number;
  now?: () => number;
}

const RECENTLY_FINISHED_PER_CLIENT = 200;

const activityOf: Partial<Record<OrderEventKind, AssetActivity['type']>> = {
  created: 'orderCreated',
  modified: 'orderModified',
  traded: 'orderTraded',
  tradedPartially: 'orderTradedPartially',
  cancelled: 'orderCancelled',
  expired: 'orderCancelled',
};

/**
 * Turns engine events into STOMP messages. Books: a snapshot to each new subscriber, then deltas with
 * a contiguous `seq` per asset. Because every change carries the level's absolute quantity, a delta
 * that repeats what a snapshot already showed is harmless, which lets a snapshot be taken at any time.
 */
export class MarketDataPublisher {
  private readonly bookSeq = new Map<string, number>();
  /** Each asset's book as the deltas sent so far describe it (what a subscriber has at `seq`). */
  private readonly published = new Map<string, { bid: Map<number, BookLevel>; ask: Map<number, BookLevel> }>();
  /** Orders finished lately per client (their last event), replayed on subscribe so a client that was away learns their end. */
  private readonly recentlyFinished = new Map<string, OrderEvent[]>();
  private readonly pendingLevels = new Map<string, Map<string, BookLevelChange>>();
  private readonly dirtyWatch = new Set<string>();
  private readonly lastPrice = new Map<string, number>();
  /** The running delta-T period per asset, so a page opened during one shows it (sent on subscribe). */
  private readonly deltaTRunning = new Map<string, AssetActivity>();
  private readonly assetInfo: Map<string, { marketId: string; type: string }>;
  /** Live priced orders per asset and client, kept from the order events (no scans of the engine). */
  private readonly ownPrices = new OwnPrices();
  /** Clients whose own best may have changed, per asset, since the last flush. */
  private readonly dirtyClients = new Map<string, Set<string>>();
  private flushTimer: NodeJS.Timeout | null = null;
  /** The last journal record whose events reached onEvents, and the last one a flush published. */
  private deliveredSeq = 0;
  private flushedSeq = 0;
  private readonly conflateMs: number;
  private readonly now: () => number;

  constructor(private readonly options: MarketDataOptions) {
    this.assetInfo = new Map(options.assets.map((asset) => [asset.id, { marketId: asset.marketId, type: asset.type }]));
    this.conflateMs = options.conflateMs ?? 0;
    this.now = options.now ?? Date.now;
    // The books at start-up are the engine's: every record so far is in them.
    this.deliveredSeq = this.flushedSeq = options.lastJournalSeq();
    // Live orders only: none is finished yet.
    for (const order of options.engine.listOrders()) {
      this.ownPrices.track(order);
      this.markDirty(order.assetId, order.clientCode);
    }
  }

  private track(event: OrderEvent): void {
    const { clientCode, way, product } = event.header;
    const finished = event.status === 'traded' || event.status === 'cancelled';
    this.ownPrices.apply(product.assetId, clientCode, event.orderId, way, limitPriceOf(event), event.suspended, finished);
    if (finished) {
      const recent = this.recentlyFinished.get(clientCode) ?? [];
      recent.push(event);
      if (recent.length > RECENTLY_FINISHED_PER_CLIENT) recent.shift();
      this.recentlyFinished.set(clientCode, recent);
    }
    this.markDirty(product.assetId, clientCode);
  }

  private markDirty(assetId: string, clientCode: string): void {
    let dirty = this.dirtyClients.get(assetId);
    if (!dirty) this.dirtyClients.set(assetId, (dirty = new Set()));
    dirty.add(clientCode);
  }

  /** The gateway's onSubscribe hook: a book snapshot, the current phase, or the market watch rows. */
  onSubscribe = (principal: { clientCodes: string[] }, destination: string, reply: (body: unknown) => void): void => {
    const parsed = parseDestination(destination);
    if (!parsed) return;
    const { engine } = this.options;
    if (parsed.kind === 'myOrders') {
      // The orders finished lately, then the live ones: a client that (re)subscribes learns what
      // happened to its orders while it was away.
      const clients = new Set(principal.clientCodes);
      const seq = this.options.lastJournalSeq();
      for (const clientCode of clients) {
        for (const event of this.recentlyFinished.get(clientCode) ?? []) reply({ seq, order: orderToWire(orderViewOf(event)) });
      }
      for (const order of engine.listOrders()) if (clients.has(order.clientCode)) reply({ seq, order: orderToWire(order) });
      return;
    }
    if (!('id' in parsed)) return;
    if (parsed.kind === 'book') reply(this.snapshot(parsed.id));
    else if (parsed.kind === 'phase') {
      const market = engine.getMarketPhase(parsed.id);
      if (!market) return;
      const at = new Date(this.now()).toISOString();
      // The first entry still to apply, even one due but not yet ticked: it is the next change.
      const next = this.nextPhase(parsed.id, -Infinity);
      reply({ marketId: parsed.id, assetId: null, phase: market.phase, sessionDate: market.sessionDate, at, ...next } satisfies PhaseUpdate);
      for (const [assetId, info] of this.assetInfo) {
        const phase = info.marketId === parsed.id ? engine.getPhase(assetId) : undefined;
        if (phase && phase !== market.phase) reply({ marketId: parsed.id, assetId, phase, sessionDate: market.sessionDate, at, ...next } satisfies PhaseUpdate);
      }
    } else if (parsed.kind === 'marketWatch') {
      for (const [assetId, info] of this.assetInfo) if (info.marketId === parsed.id) reply(this.watchRow(assetId));
    } else if (parsed.kind === 'activity') {
      const running = this.deltaTRunning.get(parsed.id);
      if (running?.endsAt && Date.parse(running.endsAt) > this.now()) reply(running);
    } else if (parsed.kind === 'stats') {
      const stats = this.options.engine.getStats(parsed.id);
      if (stats) reply(statsToWire(stats, this.now()));
    }
  };

  /**
   * The book as published up to its current `seq`: built from the levels the deltas carried, not from
   * the engine's live book, which may hold commands not yet synced or not yet sent.
   */
  snapshot(assetId: string): BookSnapshot {
    const book = this.publishedBook(assetId);
    const levels = (side: Map<number, BookLevel>, descending: boolean) =>
      [...side.values()].sort((a, b) => (descending ? b.price - a.price : a.price - b.price));
    return {
      type: 'snapshot',
      assetId,
      seq: this.bookSeq.get(assetId) ?? 0,
      bids: levels(book.bid, true),
      asks: levels(book.ask, false),
      at: new Date(this.now()).toISOString(),
    };
  }

  /**
   * The journal seq the published book of an asset stands at: every record up to it is in the deltas
   * sent. An asset with changes waiting for the conflation window stands at the last flush.
   */
  publishedJournalSeq(assetId: string): number {
    return this.pendingLevels.has(assetId) ? this.flushedSeq : this.deliveredSeq;
  }

  /**
   * The engine's own book, newer than the published one, as a snapshot with the `seq` of the last delta
   * sent: every change in the deltas up to it is in the engine's book, and the deltas after it carry
   * absolute quantities, so a client merges it with them as with any snapshot. The engine's state may
   * hold records still syncing: the caller answers it only once they are durable (read-your-writes.ts).
   */
  engineSnapshot(assetId: string): BookSnapshot {
    const live = this.options.engine.getBook(assetId);
    const level = ({ price, qty, orders }: BookLevel): BookLevel => ({ price, qty, orders });
    return {
      type: 'snapshot',
      assetId,
      seq: this.bookSeq.get(assetId) ?? 0,
      bids: live?.bids.map(level) ?? [],
      asks: live?.asks.map(level) ?? [],
      at: new Date(this.now()).toISOString(),
    };
  }

  private publishedBook(assetId: string): { bid: Map<number, BookLevel>; ask: Map<number, BookLevel> } {
    let book = this.published.get(assetId);
    if (!book) {
      // First use: the engine's book, which at start-up is exactly what the journal holds.
      const live = this.options.engine.getBook(assetId);
      book = { bid: new Map(live?.bids.map((level) => [level.price, level])), ask: new Map(live?.asks.map((level) => [level.price, level])) };
      this.published.set(assetId, book);
    }
    return book;
  }

  /**
   * The sequencer's listener, for the events of journal record `journalSeq`. An order's private update
   * carries that record's seq and the order's state at the end of the command: an order created and
   * traded by one command goes out once, as traded, so no two updates of one order share a seq and a
   * client keeps the higher one (the REST reply carries the same pair).
   */
  onEvents = (events: EngineEvent[], journalSeq: number): void => {
    const { gateway, usersOfClient } = this.options;
    this.deliveredSeq = Math.max(this.deliveredSeq, journalSeq);
    let finalOrders: Map<number, OrderEvent> | null = null;
    for (const event of events) {
      switch (event.type) {
        case 'level': {
          let levels = this.pendingLevels.get(event.assetId);
          if (!levels) this.pendingLevels.set(event.assetId, (levels = new Map()));
          levels.set(`${event.way}:${event.price}`, { side: event.way, price: event.price, qty: event.qty, orders: event.orders });
          this.dirtyWatch.add(event.assetId);
          break;
        }
        case 'order': {
          this.track(event);
          (finalOrders ??= new Map()).set(event.orderId, event);
          const { assetId } = event.header.product;
          const activity = activityOf[event.kind];
          const activityDestination = activity ? destinations.activity(assetId) : null;
          if (activity && gateway.watched(activityDestination!)) {
            gateway.publish(activityDestination!, {
              assetId,
              type: activity,
              orderId: String(event.orderId),
              price: limitPriceOf(event),
              qty: event.tradedQty + event.remaining,
              endsAt: null,
              at: new Date(event.at).toISOString(),
            } satisfies AssetActivity);
          }
          this.dirtyWatch.add(assetId);
          break;
        }
        case 'trade': {
          const { assetId } = event.product;
          const tape = destinations.trades(assetId);
          if (gateway.watched(tape)) gateway.publish(tape, tradeToWire(event));
          this.sendToWatching(usersOfClient(event.buyer), usersOfClient(event.seller), destinations.myTrades, () => transactionToWire(event));
          this.lastPrice.set(assetId, event.price);
          this.dirtyWatch.add(assetId);
          break;
        }
        case 'offBookTrade': {
          // Off the book: the parties' private queues only (no public tape, no last price).
          const t = event.transaction;
          this.sendToWatching(usersOfClient(t.buyer), usersOfClient(t.seller), destinations.myTrades, () => transactionViewToWire(t));
          break;
        }
        case 'transactionUpdate': {
          // Superseded by a transfer, or its margins switched: the parties' lists replace their row by id
          // (`updatedAt` tells them it is not a new fill; the transfer's children follow as offBookTrade).
          const t = event.transaction;
          this.sendToWatching(usersOfClient(t.buyer), usersOfClient(t.seller), destinations.myTrades, () => ({ ...transactionViewToWire(t), updatedAt: new Date(event.at).toISOString() }));
          break;
        }
        case 'deltaT':
          if (event.kind === 'start') {
            const activity: AssetActivity = {
              assetId: event.assetId,
              type: 'deltaTStart',
              orderId: null,
              price: event.price,
              qty: null,
              endsAt: new Date(event.endsAt).toISOString(),
              at: new Date(event.at).toISOString(),
            };
            this.deltaTRunning.set(event.assetId, activity);
            gateway.publish(destinations.activity(event.assetId), activity);
          } else this.deltaTRunning.delete(event.assetId);
          break;
        case 'phase':
          gateway.publish(destinations.phase(event.marketId), {
            marketId: event.marketId,
            assetId: event.assetId,
            phase: event.phase,
            sessionDate: event.sessionDate,
            at: new Date(event.at).toISOString(),
            ...this.nextPhase(event.marketId, event.at),
          } satisfies PhaseUpdate);
          break;
        case 'stats': {
          const destination = destinations.stats(event.stats.assetId);
          if (gateway.watched(destination)) gateway.publish(destination, statsToWire(event.stats, this.now()));
          break;
        }
        case 'config':
          break;
      }
    }
    if (finalOrders) {
      for (const event of finalOrders.values()) {
        // The full order is built only when a user acting for the client has the queue open.
        this.sendToWatching(usersOfClient(event.header.clientCode), [], destinations.myOrders, () => ({ seq: journalSeq, order: orderToWire(orderViewOf(event)) }));
      }
    }
    if (this.conflateMs === 0) this.flush();
    else if (!this.flushTimer && (this.pendingLevels.size > 0 || this.dirtyWatch.size > 0)) {
      this.flushTimer = setTimeout(() => this.flush(), this.conflateMs);
    }
  };

  /**
   * Sends `body()` to the private queue `destination` of each of the users (both lists, each user
   * once) who has it open; the body is built once, and not at all when none of them is connected.
   */
  private sendToWatching(users: readonly string[], more: readonly string[], destination: string, body: () => unknown): void {
    const { gateway } = this.options;
    let built: unknown;
    let sent: Set<string> | null = null;
    for (const list of [users, more]) {
      for (const userId of list) {
        if (!gateway.watchedBy(userId, destination)) continue;
        if (sent === null) {
          sent = new Set();
          built = body();
        } else if (sent.has(userId)) continue;
        sent.add(userId);
        gateway.sendToUser(userId, destination, built);
      }
    }
  }

  /** The market's next scheduled phase after `after` (ms), for the phase payload. */
  private nextPhase(marketId: string, after: number): Pick<PhaseUpdate, 'nextPhase' | 'nextPhaseAt'> {
    const next = this.options.engine.getNextScheduledPhase(marketId, after);
    return { nextPhase: next?.phase ?? null, nextPhaseAt: next ? new Date(next.at).toISOString() : null };
  }

  /** Sends the pending book deltas and market-watch rows. */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const at = new Date(this.now()).toISOString();
    this.flushedSeq = this.deliveredSeq;
    for (const [assetId, levels] of this.pendingLevels) {
      const book = this.publishedBook(assetId);
      for (const change of levels.values()) {
        if (change.qty === 0) book[change.side].delete(change.price);
        else book[change.side].set(change.price, { price: change.price, qty: change.qty, orders: change.orders });
      }
      const seq = (this.bookSeq.get(assetId) ?? 0) + 1;
      this.bookSeq.set(assetId, seq);
      this.options.gateway.publish(destinations.book(assetId), { type: 'delta', assetId, seq, changes: [...levels.values()], at } satisfies BookDelta);
    }
    this.pendingLevels.clear();
    for (const assetId of this.dirtyWatch) this.publishWatch(assetId);
    this.dirtyWatch.clear();
  }

  close(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }

  watchRow(assetId: string): MarketWatchRow {
    const info = this.assetInfo.get(assetId);
    const book = this.options.engine.getBook(assetId, 1);
    const stats = this.options.engine.getStats(assetId);
    return {
      assetId,
      marketId: info?.marketId ?? '',
      type: info?.type ?? '',
      bestBid: book?.bids[0]?.price ?? null,
      bestBidQty: book?.bids[0]?.qty ?? null,
      bestAsk: book?.asks[0]?.price ?? null,
      bestAskQty: book?.asks[0]?.qty ?? null,
      lastPrice: stats?.lastPrice ?? this.lastPrice.get(assetId) ?? null,
      participants: this.ownPrices.participants(assetId),
      lastUpdate: new Date(this.now()).toISOString(),
    };
  }

  private publishWatch(assetId: string): void {
    const info = this.assetInfo.get(assetId);
    if (!info) return;
    const { gateway, usersOfClient } = this.options;
    const watch = destinations.marketWatch(info.marketId);
    if (gateway.watched(watch)) gateway.publish(watch, this.watchRow(assetId));

    // Own best bid and ask of the users acting for the clients whose orders changed, over all their clients.
    const dirty = this.dirtyClients.get(assetId);
    if (!dirty) return;
    this.dirtyClients.delete(assetId);
    const users = new Set<string>();
    for (const clientCode of dirty) for (const userId of usersOfClient(clientCode)) if (gateway.watchedBy(userId, destinations.myMarketWatch)) users.add(userId);
    if (users.size === 0) return;
    const lastUpdate = new Date(this.now()).toISOString();
    for (const userId of users) {
      const { bid, ask } = this.ownPrices.best(assetId, this.options.clientsOfUser(userId));
      gateway.sendToUser(userId, destinations.myMarketWatch, { assetId, ownBestBid: bid, ownBestAsk: ask, lastUpdate } satisfies OwnBest);
    }
  }
}
