import type { SessionStats } from '../../protocol/index.ts';
import type { OrderEvent as WireOrderEvent, OrderFill } from '../../protocol/order-history.ts';
import { orderViewOf } from '../engine/events.ts';
import type { EngineEvent, OrderEvent, OrderView, TradeEvent } from '../engine/types.ts';
import type { OrderEventRow, TradingRepository } from '../store/trading.repository.ts';
import { iso, orderToWire, statsToWire, transactionToWire } from './wire.ts';

/** An order event waiting for its batch, with the fills the command gave the order before it. */
interface PendingOrderEvent {
  journalSeq: number;
  eventIndex: number;
  event: OrderEvent;
  fills: OrderFill[];
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
 */
export class ReadModelProjector {
  /** Each order's last event in the batch. */
  private orders = new Map<number, OrderEvent>();
  private orderEvents: PendingOrderEvent[] = [];
  private transactions: TradeEvent[] = [];
  private stats = new Map<string, SessionStats>();
  private running: Promise<void> | null = null;
  private lastError: Error | null = null;
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

  /** Resolves once every event up to `seq` is written (or after `timeoutMs`, reporting false). */
  async caughtUpTo(seq: number, timeoutMs = 30_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.writtenSeq < seq) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return true;
  }

  /** Resolves once everything received so far is written (false after `timeoutMs`): a read after a write sees it. */
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
      } else if (event.type === 'stats') this.stats.set(`${event.stats.assetId}|${event.stats.sessionDate}`, statsToWire(event.stats, Date.now()));
    }
    // `finally` runs after the assignment even when there is nothing to write.
    if (!this.running) this.running = this.drain().finally(() => (this.running = null));
  };

  /** Resolves when everything received so far is written. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
    if (this.lastError) throw this.lastError;
  }

  private async drain(): Promise<void> {
    while (this.orders.size > 0 || this.orderEvents.length > 0 || this.transactions.length > 0 || this.stats.size > 0 || this.pendingSeq > this.writtenSeq) {
      if (this.batchIntervalMs > 0) await new Promise((resolve) => setTimeout(resolve, this.batchIntervalMs));
      const seq = this.pendingSeq;
      const orders = Array.from(this.orders.values(), (event) => orderToWire(orderViewOf(event)));
      const orderEvents = this.orderEvents.map(orderEventRow);
      const transactions = this.transactions.map(transactionToWire);
      const stats = [...this.stats.values()];
      this.orders = new Map();
      this.orderEvents = [];
      this.transactions = [];
      this.stats = new Map();
      try {
        // After a failed write the watermark stays where it was, so a restart re-projects the lost rows.
        const watermark = seq > this.writtenSeq && !this.lastError ? seq : null;
        await this.repository.writeBatch({ transactions, orders, orderEvents, stats, watermark });
        if (watermark !== null) this.writtenSeq = watermark;
      } catch (error) {
        this.lastError = error as Error;
      }
      if (this.lastError && this.orders.size === 0 && this.orderEvents.length === 0 && this.transactions.length === 0 && this.stats.size === 0) break;
    }
  }
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
