import { hash } from 'node:crypto';
import { apiError, ExchangeError } from '../../protocol/error-codes.ts';
import { Engine } from '../engine/engine.ts';
import { Journal } from '../engine/journal/journal.ts';
import { OrderHeader, ProductInfo } from '../engine/header.ts';
import type { EngineSnapshot } from '../engine/snapshot.ts';
import type { CancelReason, EngineCommand, EngineEvent, EngineResult, OrderEvent, OrderEventKind, OrderView } from '../engine/types.ts';

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

/** What a journal snapshot holds: the engine state after the snapshot's record, and the idempotency results. */
export interface SequencerSnapshot {
  engine: EngineSnapshot;
  /**
   * Idempotency key → result, trimmed to the events a retry needs (the result order's last order
   * event), and the journaled time it was taken at (absent in snapshots written before keys
   * expired: the snapshot's engine clock stands in). A result whose record was still being synced
   * when the snapshot was taken keeps journalSeq null. The fourth element is the command's
   * fingerprint (absent in older snapshots: such a key is not checked for a different body).
   */
  idempotency?: Array<[string, SequencedResult, number?, string?]>;
  /**
   * 'compact': the results' events are compact order events (with their header). Absent in snapshots
   * written before: their events carried the full order view (`order`), converted on load.
   */
  idempotencyEvents?: 'compact';
}

/** An order event as snapshots written before compact events stored it. */
interface LegacyOrderEvent {
  type: 'order';
  kind: OrderEventKind;
  order: OrderView;
  at: number;
  reason?: CancelReason;
}

/**
 * The compact event of a remembered result from an older snapshot. The header's product constants
 * are chosen to give back exactly the stored view's derived fields (noCnt, totalQty; power per
 * interval is kept as stored), which is all a retry reads from it: orderViewOf(result) === view.
 */
export function orderEventFromLegacy(legacy: LegacyOrderEvent, seq: number): OrderEvent {
  const view = legacy.order;
  const qty = view.qty;
  // ceil(qty / ceil(qty / noCnt)) === noCnt whenever noCnt came from some contract size
  const contractQty = view.noCnt === qty || view.noCnt <= 0 ? 1 : Math.ceil(qty / view.noCnt);
  const deliveryDays = qty === 0 ? 1 : view.totalQty / qty;
  const product = new ProductInfo(view.assetId, view.marketId, view.sessionDate, contractQty, 24, deliveryDays, false);
  const header = new OrderHeader(
    product,
    view.clientCode,
    view.brokerId,
    view.way,
    view.executionType,
    view.createdAt,
    view.balancingGroupId,
    view.initiator,
    view.price === null,
    view.powerPerInterval,
    view.validityType,
    view.validity,
  );
  return {
    type: 'order',
    kind: legacy.kind,
    orderId: view.orderId,
    seq,
    at: legacy.at,
    reason: legacy.reason,
    status: view.status,
    suspended: view.suspended,
    price: view.price ?? 0,
    remaining: view.offeredQty,
    tradedQty: view.tradedQty,
    // tradedPrice is tradedValue / tradedQty rounded: this value rounds back to it
    tradedValue: (view.tradedPrice ?? 0) * view.tradedQty,
    priority: view.priority,
    header,
  };
}

function isLegacyOrderEvent(event: unknown): event is LegacyOrderEvent {
  return typeof event === 'object' && event !== null && (event as { type?: unknown }).type === 'order' && 'order' in event && !('header' in event);
}

/** A remembered result as an older snapshot stored it, with its order event made compact. */
function fromLegacyResult(result: SequencedResult, snapshotSeq: number): SequencedResult {
  const events = result.events.map((event) => (isLegacyOrderEvent(event) ? orderEventFromLegacy(event, result.journalSeq ?? snapshotSeq) : event));
  return { ...result, events };
}

/** How long an add's idempotency key is remembered: a trading day and more (a retry comes in seconds). */
export const DEFAULT_IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

function idempotencyKeyOf(userId: string, key: string): string {
  return `${userId}\u0000${key}`;
}

/**
 * What a key was used for: a digest of the command without its time. A retry must send the same
 * order; another order under a used key is refused (ORDER_IDEMPOTENCY_KEY_REUSED), as payment APIs
 * do, instead of silently answering with the first order. Key order is the command's own, which the
 * journal keeps, so a replay computes the same digest.
 */
function fingerprintOf(command: UnstampedCommand | EngineCommand): string {
  const { at: _at, ...rest } = command as EngineCommand;
  return hash('sha256', JSON.stringify(rest), 'base64url');
}

interface Remembered {
  result: SequencedResult;
  at: number;
  fingerprint: string | undefined;
}

/** A remembered result without the events a retry does not need. */
function compactResult(r: SequencedResult): SequencedResult {
  let last: EngineEvent | undefined;
  for (const event of r.events) if (event.type === 'order' && event.orderId === r.orderId) last = event;
  return { ...r, events: last ? [last] : [] };
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
  /**
   * Journaled commands between two engine snapshots (default 50,000; 0 disables them). A snapshot
   * lets a restart replay only the records after it; the journal then drops the segments it covers.
   */
  snapshotEvery?: number;
  /** Called when writing a snapshot failed (the journal stays usable; the next one is tried later). */
  onSnapshotError?: (error: Error) => void;
  /**
   * Awaited before a snapshot of record `seq` is written (which lets the journal drop what it covers):
   * the read models wait here until they hold every event up to `seq`, so a restart from the snapshot
   * leaves them no gap.
   */
  beforeSnapshotWrite?: (seq: number) => Promise<void>;
  /**
   * How long an idempotency key is remembered, by the commands' journaled times (default 24 h): a
   * replay forgets exactly what the live run forgot, and memory and snapshots stay bounded.
   */
  idempotencyRetentionMs?: number;
}

export const DEFAULT_SNAPSHOT_EVERY = 50_000;

/**
 * The single-threaded command processor around the engine: stamps each command with the time,
 * executes it, appends it to the journal when it changed anything, and acknowledges only after the
 * journal's sync. Listeners (market data, read models) get the events after the sync, in journal order.
 *
 * Commands that change nothing (refusals, idle ticks) produce no events and are not journaled:
 * replaying the journal gives the same books without them.
 */
export class Sequencer {
  private readonly listeners: EventListener[] = [];
  /** Idempotency key → result and its journaled time, oldest first, for commands on disk (or that changed nothing). */
  private readonly idempotency = new Map<string, Remembered>();
  private readonly idempotencyRetentionMs: number;
  /** Idempotency key → result of a command whose record is being synced, and its acknowledgement. */
  private readonly syncing = new Map<string, { result: SequencedResult; durable: Promise<SequencedResult>; fingerprint: string }>();
  private timer: NodeJS.Timeout | null = null;
  private failed: Error | null = null;
  /** Journaled commands since the last snapshot (or since the start of the replay). */
  private sinceSnapshot = 0;
  private readonly snapshotEvery: number;
  private readonly beforeSnapshotWrite: SequencerOptions['beforeSnapshotWrite'];
  private readonly onSnapshotError: (error: Error) => void;
  /** Snapshots handed to the journal and not yet written (close() waits for them). */
  private readonly snapshotting = new Set<Promise<void>>();

  private constructor(
    private readonly journal: Journal<JournalEntry, SequencerSnapshot>,
    private readonly now: () => number,
    readonly engine: Engine,
    options: SequencerOptions,
  ) {
    this.snapshotEvery = options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY;
    this.onSnapshotError = options.onSnapshotError ?? ((error) => console.error('journal snapshot failed:', error));
    this.beforeSnapshotWrite = options.beforeSnapshotWrite;
    this.idempotencyRetentionMs = options.idempotencyRetentionMs ?? DEFAULT_IDEMPOTENCY_RETENTION_MS;
  }

  /**
   * Opens the journal and rebuilds the engine: from the newest snapshot when there is one, then the
   * records after it. `snapshotSeq` is the record the snapshot covered (0 without one): replayed events
   * (onReplayedEvents) start after it, so a read model whose watermark is older misses the events in
   * between (`replayGap`).
   */
  static async open(options: SequencerOptions): Promise<{ sequencer: Sequencer; replayed: number; truncatedBytes: number; snapshotSeq: number; replayGap: { fromSeq: number; toSeq: number } | null }> {
    const { journal, recovered } = await Journal.open<JournalEntry, SequencerSnapshot>(options.journalDir);
    const snapshotSeq = recovered.snapshot?.seq ?? 0;
    // An older snapshot lacks the engine's count of changing commands: every journaled record is one,
    // so it is the snapshot's journal seq.
    const engine = recovered.snapshot ? Engine.fromSnapshot(recovered.snapshot.state.engine, { changedCommands: snapshotSeq }) : new Engine();
    const sequencer = new Sequencer(journal, options.now ?? Date.now, engine, options);
    // Compact results come back as plain data (header and product without their classes): only their
    // fields are read (orderViewOf). Older snapshots held full views: converted.
    const compactEvents = recovered.snapshot?.state.idempotencyEvents === 'compact';
    for (const [key, result, at, fingerprint] of recovered.snapshot?.state.idempotency ?? []) {
      sequencer.idempotency.set(key, { result: compactEvents ? result : fromLegacyResult(result, snapshotSeq), at: at ?? engine.clock, fingerprint });
    }
    const fromSeq = options.replayFromSeq ?? 0;
    const replayGap = options.onReplayedEvents && fromSeq < snapshotSeq ? { fromSeq: fromSeq + 1, toSeq: snapshotSeq } : null;
    for (const record of recovered.records) {
      sequencer.forgetKeysBefore(record.entry.command.at);
      const result = sequencer.engine.execute(record.entry.command);
      sequencer.remember(record.entry, compactResult({ ...result, journalSeq: record.seq }));
      if (options.onReplayedEvents && record.seq > (options.replayFromSeq ?? 0) && result.events.length > 0) options.onReplayedEvents(result.events, record.seq);
    }
    sequencer.sinceSnapshot = recovered.records.length;
    if (options.tickIntervalMs) sequencer.startTicking(options.tickIntervalMs);
    return { sequencer, replayed: recovered.records.length, truncatedBytes: recovered.truncatedBytes, snapshotSeq, replayGap };
  }

  onEvents(listener: EventListener): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  /** The earlier result of an add with this user's idempotency key, once its record is on disk. */
  idempotentResult(userId: string, key: string): SequencedResult | undefined {
    return this.idempotency.get(idempotencyKeyOf(userId, key))?.result;
  }

  async submit(command: UnstampedCommand, meta?: JournalEntry['meta']): Promise<SequencedResult> {
    if (this.failed) throw this.failed;
    const key = meta?.userId && meta.idempotencyKey ? idempotencyKeyOf(meta.userId, meta.idempotencyKey) : null;
    // Stamped here so the journal holds the exact time the engine saw; never earlier than the last one.
    const at = Math.max(this.now(), this.engine.clock);
    this.forgetKeysBefore(at);
    const fingerprint = key === null ? '' : fingerprintOf(command);
    if (key !== null) {
      const remembered = this.idempotency.get(key);
      const syncing = remembered ? undefined : this.syncing.get(key);
      const used = remembered ?? syncing;
      if (used) {
        if (used.fingerprint !== undefined && used.fingerprint !== fingerprint) throw new ExchangeError(apiError('ORDER_IDEMPOTENCY_KEY_REUSED', { idempotencyKey: meta!.idempotencyKey! }));
        return remembered ? remembered.result : syncing!.durable;
      }
    }
    const stamped = { ...command, at } as EngineCommand;
    const entry: JournalEntry = meta ? { command: stamped, meta } : { command: stamped };
    const result = this.engine.execute(stamped);
    if (result.events.length === 0) {
      const unjournaled = { ...result, journalSeq: null };
      if (key !== null && result.result === 'OK') this.idempotency.set(key, { result: compactResult(unjournaled), at, fingerprint });
      return unjournaled;
    }
    const pending = { ...result, journalSeq: null as number | null };
    const before = this.journal.lastSeq;
    const durable = this.journal.append(entry).then(
      (seq) => {
        pending.journalSeq = seq;
        if (key !== null) {
          this.syncing.delete(key);
          // Kept from now on without the events a retry does not need (less to hold, collect and snapshot).
          this.idempotency.set(key, { result: compactResult(pending), at, fingerprint });
        }
        for (const listener of this.listeners) listener(result.events, entry, result, seq);
        return pending;
      },
      (error: unknown) => {
        // The engine moved ahead of the disk: nothing more may be acknowledged. The process must restart.
        this.failed = error as Error;
        this.stopTicking();
        if (key !== null) this.syncing.delete(key);
        throw error;
      },
    );
    // A retry that arrives during the sync waits for this same sync: it is acknowledged no earlier.
    if (key !== null) this.syncing.set(key, { result: pending, durable, fingerprint });
    // The append took its seq synchronously: the engine is exactly in the state after that record.
    if (this.journal.lastSeq === before + 1 && this.snapshotEvery > 0 && ++this.sinceSnapshot >= this.snapshotEvery) this.takeSnapshot(before + 1);
    return durable;
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

  /** The journal sequence of the last command appended: the engine's state is the state after it. */
  get lastJournalSeq(): number {
    return this.journal.lastSeq;
  }

  get journalSyncs(): number {
    return this.journal.syncCount;
  }

  async close(): Promise<void> {
    this.stopTicking();
    await Promise.all(this.snapshotting);
    await this.journal.close();
  }

  /**
   * Copies the engine state now (synchronously, right after executing record `seq`) and hands it to
   * the journal, which writes it once every record up to `seq` is on disk, without holding up later
   * commands. A snapshot that fails to be written changes nothing: the journal still holds the records.
   */
  private takeSnapshot(seq: number): void {
    this.sinceSnapshot = 0;
    // Remembered results are compact and never change; one still syncing is copied as it is now (journalSeq null).
    const idempotency: Array<[string, SequencedResult, number, string?]> = [];
    for (const [key, { result, at, fingerprint }] of this.idempotency) idempotency.push(fingerprint === undefined ? [key, result, at] : [key, result, at, fingerprint]);
    for (const [key, { result, fingerprint }] of this.syncing) idempotency.push([key, compactResult(result), this.engine.clock, fingerprint]);
    const state: SequencerSnapshot = { engine: this.engine.exportState(), idempotency, idempotencyEvents: 'compact' };
    const ready = this.beforeSnapshotWrite ? this.beforeSnapshotWrite(seq) : Promise.resolve();
    const written = ready.then(() => this.journal.snapshot(seq, state)).catch((error: unknown) => {
      if (!this.failed) this.onSnapshotError(error as Error);
    });
    this.snapshotting.add(written);
    void written.finally(() => this.snapshotting.delete(written));
  }

  private remember(entry: JournalEntry, result: SequencedResult): void {
    if (entry.meta?.userId && entry.meta.idempotencyKey) {
      this.idempotency.set(idempotencyKeyOf(entry.meta.userId, entry.meta.idempotencyKey), { result, at: entry.command.at, fingerprint: fingerprintOf(entry.command) });
    }
  }

  /** Forgets the keys taken more than the retention before `at` (the map is oldest first). */
  private forgetKeysBefore(at: number): void {
    const oldest = at - this.idempotencyRetentionMs;
    for (const [key, { at: taken }] of this.idempotency) {
      if (taken >= oldest) break;
      this.idempotency.delete(key);
    }
  }
}
