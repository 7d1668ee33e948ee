import type { Order, SessionStats, Transaction } from '../../protocol/index.ts';
import type { EngineEvent, OrderView } from '../engine/types.ts';
import type { TradingRepository } from '../store/trading.repository.ts';
import { orderToWire, statsToWire, transactionToWire } from './wire.ts';

/** Rows per statement: about 5 ms of embedded-database work at a time. */
const WRITE_SLICE = 150;

/**
 * Keeps the store's finished orders, transactions and statistics in step with the engine's events.
 * Writes are batched and run one batch at a time, off the command path: the journal, not the
 * store, is what an acknowledgement waits for; after a crash the replay re-projects everything.
 */
export class ReadModelProjector {
  private orders = new Map<string, Order>();
  private transactions: Transaction[] = [];
  private stats = new Map<string, SessionStats>();
  private running: Promise<void> | null = null;
  private lastError: Error | null = null;
  private pendingSeq = 0;
  /** The journal sequence whose events are all in the store. */
  writtenSeq: number;

  /**
   * `batchIntervalMs`: the projector writes at most this often. Embedded PostgreSQL pays per
   * statement (each commits to its files), so fewer, larger batches keep it off the CPU the
   * engine and the gateway need.
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

  /** `journalSeq`: the journal record these events came from; written as the watermark with them. */
  onEvents = (events: EngineEvent[], journalSeq: number | null): void => {
    if (journalSeq !== null) this.pendingSeq = Math.max(this.pendingSeq, journalSeq);
    for (const event of events) {
      // Live orders are the engine's; the store keeps an order once it is finished (history).
      if (event.type === 'order' && isFinished(event.order)) this.orders.set(String(event.order.orderId), orderToWire(event.order));
      else if (event.type === 'trade') this.transactions.push(transactionToWire(event.transaction));
      else if (event.type === 'stats') this.stats.set(`${event.stats.assetId}|${event.stats.sessionDate}`, statsToWire(event.stats, Date.now()));
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
    while (this.orders.size > 0 || this.transactions.length > 0 || this.stats.size > 0 || this.pendingSeq > this.writtenSeq) {
      if (this.batchIntervalMs > 0) await new Promise((resolve) => setTimeout(resolve, this.batchIntervalMs));
      const seq = this.pendingSeq;
      const orders = [...this.orders.values()];
      const transactions = this.transactions;
      const stats = [...this.stats.values()];
      this.orders = new Map();
      this.transactions = [];
      this.stats = new Map();
      try {
        // Embedded PostgreSQL runs on this thread: slices keep each stall of the event loop short.
        for (let start = 0; start < transactions.length; start += WRITE_SLICE) await this.repository.insertTransactions(transactions.slice(start, start + WRITE_SLICE));
        for (let start = 0; start < orders.length; start += WRITE_SLICE) await this.repository.upsertOrders(orders.slice(start, start + WRITE_SLICE));
        await this.repository.upsertStats(stats);
        if (seq > this.writtenSeq) {
          await this.repository.setWatermark(seq);
          this.writtenSeq = seq;
        }
      } catch (error) {
        // A failed write is kept as the last error; the next replay re-projects from the journal.
        this.lastError = error as Error;
      }
    }
  }
}

function isFinished(order: OrderView): boolean {
  return order.status === 'traded' || order.status === 'cancelled';
}
