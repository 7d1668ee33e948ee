import type { SessionStats } from '../../protocol/index.ts';
import type { OrderEvent as WireOrderEvent, OrderFill } from '../../protocol/order-history.ts';
import { orderViewOf } from '../engine/events.ts';
import type { EngineEvent, OrderEvent, OrderView, TradeEvent, TransactionView } from '../engine/types.ts';
import type { OrderEventRow, TradingRepository, TransactionUpdateRow } from '../store/trading.repository.ts';
import { iso, orderToWire, statsToWire, transactionToWire, transactionViewToWire } from './wire.ts';

/** A book trade (its event) or an off-book transaction (its view) waiting for its batch. */
type PendingTransaction = TradeEvent | TransactionView;
const transactionRow = (t: PendingTransaction) => ('type' in t ? transactionToWire(t) : transactionViewToWire(t));

/** An order event waiting for its batch, with the fills the command gave the order before it. */
interface PendingOrderEvent {
  journalSeq: number;
  eventIndex: number;
  event: OrderEvent;
  fills: OrderFill[];
}

/** The first retry after a failed write waits this long; each further one twice as long, up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 250;
export const RETRY_MAX_MS = 5_000;

/** What the projector has taken for one write: put back in front of newer events when the write fails. */
interface Batch {
  seq: number;
  orders: Map<number, OrderEvent>;
  orderEvents: PendingOrderEvent[];
  transactions: PendingTransaction[];
  transactionUpdates: TransactionUpdateRow[];
  stats: Map<string, SessionStats>;
}

/** The read models' side of GET /health. */
export interface ReadModelHealth {
  /** degraded: the last write failed (the database is away); the projector retries from its watermark. */
  status: 'ok' | 'degraded';
  /** Journal records received whose events are not in the store yet. */
  behindBy: number;
  writtenSeq: number;
}

/**
 * Keeps the store's orders (each one's latest state), order events, transactions and statistics in
 * step with the engine's events.
 * Writes are batched and run one batch at a time, off the command path: the journal, not the
 * store, is what an acknowledgement waits for; after a crash the replay re-projects everything.
 * Each batch is one transaction with its watermark (TradingRepository.writeBatch); the database
 * works on another thread or process (PGlite's worker thread, or PostgreSQL).
 * Events wait as they are (compact, immutable) and become rows when their batch is written: the
 * command path only files them, and an order changed many times in a batch is converted once.
 *
 * A failed write (the database stopped) loses nothing: the batch goes back in front of the events
 * that came meanwhile and is retried with backoff (RETRY_FIRST_MS doubling to RETRY_MAX_MS) until the
 * database answers. Every row is keyed (an order by id, its latest state winning; an event by journal
 * record and index; a transaction by id), so a batch written twice (a commit whose answer was lost)
 * stores each row once, and the watermark only moves with the rows it vouches for. Meanwhile the
 * events wait in memory, and the journal keeps their records (beforeSnapshotWrite postpones snapshots).
 */
export class ReadModelProjector {
  /** Each order's last event in the batch. */
  private orders = new Map<number, OrderEvent>();
  private orderEvents: PendingOrderEvent[] = [];
  private transactions: PendingTransaction[] = [];
  /** Post-trade changes of stored transactions (superseded, margins switched), applied after the batch's inserts. */
  private transactionUpdates: TransactionUpdateRow[] = [];
  private stats = new Map<string, SessionStats>();
  private running: Promise<void> | null = null;
  /** The error of the last write, null once a write succeeds again. */
  private lastError: Error | null = null;
  /** Failed writes in a row (the backoff's exponent). */
  private failures = 0;
  private stopped = false;
  /** Wakes the drain from its wait (stop()). */
  private wake: (() => void) | null = null;
  /** Resolved after each write attempt (settled() waits on it). */
  private attempted: { promise: Promise<void>; resolve: () => void } = signal();
  private pendingSeq = 0;
  /** The journal sequence whose events are all in the store. */
  writtenSeq: number;

  /**
   * `batchIntervalMs`: the projector writes at most this often. Embedded PostgreSQL pays per
   * statement and per commit, so fewer, larger batches leave more of the machine's CPU to the
   * engine and the gateway.
   */
  constructor(
    private readonly repository: TradingRepository,
    watermark = 0,
    private readonly batchIntervalMs = 250,
  ) {
    this.writtenSeq = watermark;
  }

  get health(): ReadModelHealth {
    return { status: this.lastError ? 'degraded' : 'ok', behindBy: Math.max(0, this.pendingSeq - this.writtenSeq), writtenSeq: this.writtenSeq };
  }

  /** Resolves once every event up to `seq` is written (or after `timeoutMs`, reporting false). */
  async caughtUpTo(seq: number, timeoutMs = 30_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.writtenSeq < seq) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return true;
  }

  /** Resolves once everything received so far is written (false after `timeoutMs`, or at once while the store fails): a read after a write sees it. */
  async flushed(timeoutMs = 2_000): Promise<boolean> {
    if (this.lastError) return false;
    return this.caughtUpTo(this.pendingSeq, timeoutMs);
  }

  /** `journalSeq`: the journal record these events came from; written as the watermark with them. */
  onEvents = (events: EngineEvent[], journalSeq: number | null): void => {
    if (journalSeq !== null) this.pendingSeq = Math.max(this.pendingSeq, journalSeq);
    // The fills of each order since its last order event: a trade comes before the order events it causes.
    let fills: Map<number, OrderFill[]> | null = null;
    for (let index = 0; index < events.length; index++) {
      const event = events[index]!;
      if (event.type === 'order') {
        this.orders.set(event.orderId, event);
        const own = fills?.get(event.orderId) ?? [];
        fills?.delete(event.orderId);
        if (journalSeq !== null) this.orderEvents.push({ journalSeq, eventIndex: index, event, fills: own });
      } else if (event.type === 'trade') {
        this.transactions.push(event);
        fills ??= new Map();
        const fill = { transactionId: String(event.transactionId), price: event.price, qty: event.qty };
        for (const orderId of [event.buyOrderId, event.sellOrderId]) fills.set(orderId, [...(fills.get(orderId) ?? []), fill]);
      } else if (event.type === 'offBookTrade') this.transactions.push(event.transaction);
      else if (event.type === 'transactionUpdate') this.transactionUpdates.push({ transactionId: String(event.transactionId), status: event.status, marginsExposureActive: event.marginsExposureActive });
      else if (event.type === 'stats') this.stats.set(`${event.stats.assetId}|${event.stats.sessionDate}`, statsToWire(event.stats, Date.now()));
    }
    if (!this.running && !this.stopped) this.running = this.drain().finally(() => (this.running = null));
  };

  /**
   * Resolves when everything received so far is written; rejects with the write's error as soon as a
   * write fails (the projector goes on retrying: this does not wait for the database to come back).
   */
  async settled(): Promise<void> {
    while (this.running) {
      if (this.lastError) throw this.lastError;
      await Promise.race([this.running, this.attempted.promise]);
    }
    if (this.lastError) throw this.lastError;
  }

  /** Stops writing (the server is closing): a retry waiting for the database gives up. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private hasWork(): boolean {
    return this.orders.size > 0 || this.orderEvents.length > 0 || this.transactions.length > 0 || this.transactionUpdates.length > 0 || this.stats.size > 0 || this.pendingSeq > this.writtenSeq;
  }

  private async drain(): Promise<void> {
    while (!this.stopped && this.hasWork()) {
      const wait = this.failures === 0 ? this.batchIntervalMs : Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (this.failures - 1));
      if (wait > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
        if (this.stopped) break;
      }
      const batch = this.take();
      try {
        const watermark = batch.seq > this.writtenSeq ? batch.seq : null;
        await this.repository.writeBatch({
          transactions: batch.transactions.map(transactionRow),
          transactionUpdates: batch.transactionUpdates,
          orders: Array.from(batch.orders.values(), (event) => orderToWire(orderViewOf(event))),
          orderEvents: batch.orderEvents.map(orderEventRow),
          stats: [...batch.stats.values()],
          watermark,
        });
        if (watermark !== null) this.writtenSeq = watermark;
        this.lastError = null;
        this.failures = 0;
      } catch (error) {
        this.lastError = error as Error;
        this.failures++;
        this.putBack(batch);
      }
      const attempted = this.attempted;
      this.attempted = signal();
      attempted.resolve();
    }
  }

  /** Everything received so far, as one batch up to the newest journal record. */
  private take(): Batch {
    const batch = { seq: this.pendingSeq, orders: this.orders, orderEvents: this.orderEvents, transactions: this.transactions, transactionUpdates: this.transactionUpdates, stats: this.stats };
    this.orders = new Map();
    this.orderEvents = [];
    this.transactions = [];
    this.transactionUpdates = [];
    this.stats = new Map();
    return batch;
  }

  /** A failed batch goes back before what came since: the newer state of an order or statistic wins, events and trades keep journal order. */
  private putBack(batch: Batch): void {
    for (const [orderId, event] of this.orders) batch.orders.set(orderId, event);
    for (const [key, stats] of this.stats) batch.stats.set(key, stats);
    // Map.set on an existing key keeps its place, and a newer one is set after: insertion order stays oldest first.
    this.orders = batch.orders;
    this.stats = batch.stats;
    this.orderEvents = batch.orderEvents.concat(this.orderEvents);
    this.transactions = batch.transactions.concat(this.transactions);
    this.transactionUpdates = batch.transactionUpdates.concat(this.transactionUpdates);
  }
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

function orderEventRow({ journalSeq, eventIndex, event, fills }: PendingOrderEvent): OrderEventRow {
  const view = orderViewOf(event);
  return { journalSeq, eventIndex, clientCode: view.clientCode, event: orderEventToWire(event, view, fills) };
}

function orderEventToWire(event: OrderEvent, view: OrderView, fills: OrderFill[]): WireOrderEvent {
  return {
    orderId: String(view.orderId),
    kind: event.kind,
    at: new Date(event.at).toISOString(),
    status: view.status,
    suspended: view.suspended,
    price: view.price,
    qty: view.qty,
    offeredQty: view.offeredQty,
    tradedQty: view.tradedQty,
    tradedPrice: view.tradedPrice,
    validityType: view.validityType,
    validity: view.validity === null ? null : iso(view.validity),
    reason: event.reason ?? null,
    fills: event.kind === 'traded' || event.kind === 'tradedPartially' ? fills : [],
  };
}
