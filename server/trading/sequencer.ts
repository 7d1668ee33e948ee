import { Engine } from '../engine/engine.ts';
import { Journal } from '../engine/journal/journal.ts';
import type { EngineCommand, EngineEvent, EngineResult } from '../engine/types.ts';

/** What the journal keeps per command: the command and who sent it (idempotency keys rebuild from it). */
export interface JournalEntry {
  command: EngineCommand;
  meta?: { userId?: string; idempotencyKey?: string };
}

/** A command as callers hand it in: the sequencer stamps the time. */
export type UnstampedCommand = EngineCommand extends infer C ? (C extends EngineCommand ? Omit<C, 'at'> : never) : never;

export interface SequencedResult extends EngineResult {
  /** Journal sequence of the command, or null when it changed nothing and was not journaled. */
  journalSeq: number | null;
}

export type EventListener = (events: EngineEvent[], entry: JournalEntry, result: EngineResult, journalSeq: number) => void;

export interface SequencerOptions {
  journalDir: string;
  now?: () => number;
  /** Ms between time ticks (expiries, schedules, delta-T ends). 0 disables the timer (tests tick by hand). */
  tickIntervalMs?: number;
  /** Receives the events of replayed records after `replayFromSeq` (to catch up read models). */
  onReplayedEvents?: (events: EngineEvent[], journalSeq: number) => void;
  replayFromSeq?: number;
}

/**
 * The single-threaded command processor around the engine: stamps each command with the time,
 * executes it, appends it to the journal when it changed anything, and acknowledges only after the
 * journal's sync. Listeners (market data, read models) get the events after the sync, in journal order.
 *
 * Commands that change nothing (refusals, idle ticks) produce no events and are not journaled:
 * replaying the journal gives the same books without them.
 */
export class Sequencer {
  readonly engine = new Engine();
  private readonly listeners: EventListener[] = [];
  private readonly idempotency = new Map<string, SequencedResult>();
  private timer: NodeJS.Timeout | null = null;
  private failed: Error | null = null;

  private constructor(
    private readonly journal: Journal<JournalEntry>,
    private readonly now: () => number,
  ) {}

  /** Opens the journal and replays it into a fresh engine. */
  static async open(options: SequencerOptions): Promise<{ sequencer: Sequencer; replayed: number; truncatedBytes: number }> {
    const { journal, recovered } = await Journal.open<JournalEntry, unknown>(options.journalDir);
    const sequencer = new Sequencer(journal, options.now ?? Date.now);
    for (const record of recovered.records) {
      const result = sequencer.engine.execute(record.entry.command);
      sequencer.remember(record.entry, { ...result, journalSeq: record.seq });
      if (options.onReplayedEvents && record.seq > (options.replayFromSeq ?? 0) && result.events.length > 0) options.onReplayedEvents(result.events, record.seq);
    }
    if (options.tickIntervalMs) sequencer.startTicking(options.tickIntervalMs);
    return { sequencer, replayed: recovered.records.length, truncatedBytes: recovered.truncatedBytes };
  }

  onEvents(listener: EventListener): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  /** The earlier result of an add with this user's idempotency key, if any. */
  idempotentResult(userId: string, key: string): SequencedResult | undefined {
    return this.idempotency.get(`${userId}\u0000${key}`);
  }

  async submit(command: UnstampedCommand, meta?: JournalEntry['meta']): Promise<SequencedResult> {
    if (this.failed) throw this.failed;
    if (meta?.userId && meta.idempotencyKey) {
      const earlier = this.idempotentResult(meta.userId, meta.idempotencyKey);
      if (earlier) return earlier;
    }
    // Stamped here so the journal holds the exact time the engine saw; never earlier than the last one.
    const at = Math.max(this.now(), this.engine.clock);
    const stamped = { ...command, at } as EngineCommand;
    const entry: JournalEntry = meta ? { command: stamped, meta } : { command: stamped };
    const result = this.engine.execute(stamped);
    if (result.events.length === 0) {
      const unjournaled = { ...result, journalSeq: null };
      if (result.result === 'OK') this.remember(entry, unjournaled);
      return unjournaled;
    }
    // Remembered before the sync so a retry that arrives meanwhile gets this same result.
    const pending = { ...result, journalSeq: null as number | null };
    this.remember(entry, pending);
    try {
      pending.journalSeq = await this.journal.append(entry);
    } catch (error) {
      // The engine moved ahead of the disk: nothing more may be acknowledged. The process must restart.
      this.failed = error as Error;
      this.stopTicking();
      throw error;
    }
    for (const listener of this.listeners) listener(result.events, entry, result, pending.journalSeq);
    return pending;
  }

  startTicking(intervalMs: number): void {
    this.stopTicking();
    this.timer = setInterval(() => {
      this.submit({ type: 'tick' }).catch(() => {});
    }, intervalMs);
    this.timer.unref();
  }

  stopTicking(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  get journalSyncs(): number {
    return this.journal.syncCount;
  }

  async close(): Promise<void> {
    this.stopTicking();
    await this.journal.close();
  }

  private remember(entry: JournalEntry, result: SequencedResult): void {
    if (entry.meta?.userId && entry.meta.idempotencyKey) this.idempotency.set(`${entry.meta.userId}\u0000${entry.meta.idempotencyKey}`, result);
  }
}
