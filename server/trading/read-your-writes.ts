/**
 * Read-your-writes for API clients (issue 16, item 3): every order reply carries the journal `seq` of
 * its command; GET /books/:assetId, GET /transactions and GET /orders/mine take `?minSeq=N` and answer
 * only with data at least as new as record N, waiting at most `waitMs`, else READ_NOT_CAUGHT_UP
 * { minSeq, atSeq }. Every answer of these reads carries the seq it stands at (EXCHANGE_SEQ_HEADER).
 * See docs/api.md "Read-your-writes".
 */
import { apiError, ExchangeError, type BookSnapshot } from '../../protocol/index.ts';
import type { MarketDataPublisher } from './market-data.ts';
import type { ReadModelProjector } from './read-model-projector.ts';
import type { Sequencer } from './sequencer.ts';

/** The response header with the journal seq an answer stands at. */
export const EXCHANGE_SEQ_HEADER = 'x-exchange-seq';
/** How long a read with `minSeq` waits for the data to catch up, by default. */
export const DEFAULT_READ_WAIT_MS = 1_000;

/** Wakes the reads waiting for a sequence counter to reach their seq; `poke` when it may have moved. */
class SeqGate {
  private readonly waiters = new Set<{ seq: number; done: () => void }>();

  constructor(private readonly current: () => number) {}

  poke(): void {
    const at = this.current();
    for (const waiter of this.waiters) if (at >= waiter.seq) waiter.done();
  }

  /** True once the counter is at `seq` or beyond, false when `timeoutMs` passed first. */
  reached(seq: number, timeoutMs: number): Promise<boolean> {
    if (this.current() >= seq) return Promise.resolve(true);
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter = {
        seq,
        done: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(this.current() >= seq);
        },
      };
      const timer = setTimeout(waiter.done, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  close(): void {
    for (const waiter of this.waiters) waiter.done();
  }
}

export interface ReadYourWritesOptions {
  sequencer: Sequencer;
  marketData: MarketDataPublisher;
  projector: ReadModelProjector;
  /** The longest a read with `minSeq` waits (default DEFAULT_READ_WAIT_MS). */
  waitMs?: number;
}

const notCaughtUp = (minSeq: number, atSeq: number) => new ExchangeError(apiError('READ_NOT_CAUGHT_UP', { minSeq, atSeq }));

/** The reads that answer "at least as new as seq N": the book from the engine, the read models from the projector. */
export class ReadYourWrites {
  private readonly durable: SeqGate;
  private readonly waitMs: number;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: ReadYourWritesOptions) {
    this.waitMs = options.waitMs ?? DEFAULT_READ_WAIT_MS;
    this.durable = new SeqGate(() => options.sequencer.durableSeq);
    // Listeners run right after a record's sync: the moment its state becomes durable.
    this.unsubscribe = options.sequencer.onEvents(() => this.durable.poke());
  }

  /**
   * An asset's book and the journal seq it stands at. Without `minSeq`, or when the published book is
   * already that new: the published one (what STOMP subscribers have). Otherwise the engine's own book,
   * taken once `minSeq` is durable and answered once every record in it is durable too (a journal
   * group commit, a few ms): never a state a failed journal write could take back.
   */
  async book(assetId: string, minSeq?: number): Promise<{ book: BookSnapshot; seq: number }> {
    const { marketData, sequencer } = this.options;
    const published = marketData.publishedJournalSeq(assetId);
    if (minSeq === undefined || published >= minSeq) return { book: marketData.snapshot(assetId), seq: published };
    const deadline = Date.now() + this.waitMs;
    if (!(await this.durable.reached(minSeq, this.waitMs))) throw notCaughtUp(minSeq, sequencer.durableSeq);
    // Synchronously: the engine's state after record `seq`, with the delta seq sent so far.
    const seq = sequencer.lastJournalSeq;
    const book = marketData.engineSnapshot(assetId);
    if (!(await this.durable.reached(seq, deadline - Date.now()))) throw notCaughtUp(minSeq, sequencer.durableSeq);
    return { book, seq };
  }

  /** Waits until the engine's state (live orders) holds record `minSeq`: at once for any seq a reply gave. */
  async engine(minSeq?: number): Promise<void> {
    const { sequencer } = this.options;
    if (minSeq === undefined || sequencer.lastJournalSeq >= minSeq) return;
    if (!(await this.durable.reached(minSeq, this.waitMs))) throw notCaughtUp(minSeq, sequencer.lastJournalSeq);
  }

  /**
   * Waits until the read models (orders, transactions) hold every record up to `minSeq`; answers the
   * seq they stand at, taken before the caller's query (the store holds at least that).
   */
  async readModels(minSeq?: number): Promise<number> {
    const { projector } = this.options;
    if (minSeq !== undefined && !(await projector.caughtUpTo(minSeq, this.waitMs))) throw notCaughtUp(minSeq, projector.writtenSeq);
    return projector.writtenSeq;
  }

  close(): void {
    this.unsubscribe();
    this.durable.close();
  }
}
