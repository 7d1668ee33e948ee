import { hash } from 'node:crypto';
import { apiError, ExchangeError } from '../../protocol/error-codes.ts';
import { Engine } from '../engine/engine.ts';
import { Journal, type JournalIo, type JournalRecord, type RecoveredJournal } from '../engine/journal/journal.ts';
import { OrderHeader, ProductInfo } from '../engine/header.ts';
import type { EngineSnapshot } from '../engine/snapshot.ts';
import type { CancelReason, EngineCommand, EngineEvent, EngineResult, OrderEvent, OrderEventKind, OrderView } from '../engine/types.ts';
import { IdempotencyKeys } from './idempotency-keys.ts';
import type { SequencedResult } from './sequenced-result.ts';

/** What the journal keeps per command: the command and who sent it (idempotency keys rebuild from it). */
export interface JournalEntry {
  command: EngineCommand;
  meta?: { userId?: string; idempotencyKey?: string };
}

/** A command as callers hand it in: the sequencer stamps the time. */
export type UnstampedCommand = EngineCommand extends infer C ? (C extends EngineCommand ? Omit<C, 'at'> : never) : never;

export type { SequencedResult } from './sequenced-result.ts';

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

/** Marks a digest made by fingerprintOf; a digest without it is a SHA-256 from snapshots written before. */
const DIGEST_PREFIX = 'c53:';

/**
 * cyrb53 (public domain): a 53-bit hash over the string's UTF-16 units in two multiplicative lanes. It
 * only tells one user's retry from another order under the same key, which no attacker gains by
 * forging, so a cryptographic hash (a third of the order path's sequencer time) buys nothing here.
 */
function cyrb53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** The command's JSON without its time, in the command's own key order (which the journal keeps). */
function commandText(command: UnstampedCommand | EngineCommand): string {
  if (!('at' in command)) return JSON.stringify(command);
  const { at: _at, ...rest } = command;
  return JSON.stringify(rest);
}

/**
 * What a key was used for: a digest of the command without its time. A retry must send the same
 * order; another order under a used key is refused (ORDER_IDEMPOTENCY_KEY_REUSED), as payment APIs
 * do, instead of silently answering with the first order. A replay computes the same digest.
 */
function fingerprintOf(command: UnstampedCommand | EngineCommand): string {
  return DIGEST_PREFIX + cyrb53(commandText(command));
}

/**
 * `JSON.stringify({ command: { ...command, at }, meta })` (meta left out when absent) from the
 * command's own JSON `text`: `at` is a key the command did not have, so it comes last. Undefined when
 * `at` is not a finite number (JSON would write null).
 */
export function entryJsonOf(text: string, at: number, meta: JournalEntry['meta'] | undefined): string | undefined {
  if (!Number.isFinite(at) || text.length < 2 || text[text.length - 1] !== '}') return undefined;
  const stamped = text.length === 2 ? `{"at":${at}}` : `${text.slice(0, -1)},"at":${at}}`;
  return meta ? `{"command":${stamped},"meta":${JSON.stringify(meta)}}` : `{"command":${stamped}}`;
}

/** Whether `command` is what the key was used for (a key without a digest is not checked). */
function sameCommand(used: string | undefined, fingerprint: string, command: UnstampedCommand): boolean {
  if (used === undefined || used === fingerprint) return true;
  // A SHA-256 digest from a snapshot written before: compared as it was made.
  return !used.startsWith(DIGEST_PREFIX) && used === hash('sha256', commandText(command), 'base64url');
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
  /** How long a key keeps its full result before it is settled (default 10 min; idempotency-keys.ts). */
  idempotencyRetryWindowMs?: number;
  /** The journal's disk operations (tests make them fail: a full disk). */
  journalIo?: JournalIo;
}

/** The first reload after a failed journal write is tried this soon; each further one twice as late, up to RECOVERY_MAX_MS. */
export const RECOVERY_FIRST_MS = 100;
export const RECOVERY_MAX_MS = 5_000;

/** An engine and its remembered keys rebuilt from the journal on disk. */
interface Rebuilt {
  journal: Journal<JournalEntry, SequencerSnapshot>;
  recovered: RecoveredJournal<JournalEntry, SequencerSnapshot>;
  engine: Engine;
  idempotency: IdempotencyKeys;
  snapshotSeq: number;
}

function idempotencyKeysFor(options: SequencerOptions): IdempotencyKeys {
  return new IdempotencyKeys(options.idempotencyRetentionMs ?? DEFAULT_IDEMPOTENCY_RETENTION_MS, options.idempotencyRetryWindowMs);
}

/** Opens the journal and rebuilds the engine and the remembered keys; `onRecord` sees every replayed record. */
async function rebuild(options: SequencerOptions, onRecord: (record: JournalRecord<JournalEntry>, result: EngineResult) => void): Promise<Rebuilt> {
  const { journal, recovered } = await Journal.open<JournalEntry, SequencerSnapshot>(options.journalDir, { io: options.journalIo });
  const snapshotSeq = recovered.snapshot?.seq ?? 0;
  // An older snapshot lacks the engine's count of changing commands: every journaled record is one,
  // so it is the snapshot's journal seq.
  const engine = recovered.snapshot ? Engine.fromSnapshot(recovered.snapshot.state.engine, { changedCommands: snapshotSeq }) : new Engine();
  const idempotency = idempotencyKeysFor(options);
  // Compact results come back as plain data (header and product without their classes): only their
  // fields are read (orderViewOf). Older snapshots held full views: converted.
  const compactEvents = recovered.snapshot?.state.idempotencyEvents === 'compact';
  for (const [key, result, at, fingerprint] of recovered.snapshot?.state.idempotency ?? []) {
    idempotency.set(key, { result: compactEvents ? result : fromLegacyResult(result, snapshotSeq), at: at ?? engine.clock, fingerprint });
  }
  for (const record of recovered.records) {
    idempotency.forgetBefore(record.entry.command.at);
    const result = engine.execute(record.entry.command);
    const { meta } = record.entry;
    if (meta?.userId && meta.idempotencyKey) {
      idempotency.set(idempotencyKeyOf(meta.userId, meta.idempotencyKey), {
        result: compactResult({ ...result, journalSeq: record.seq }),
        at: record.entry.command.at,
        fingerprint: fingerprintOf(record.entry.command),
      });
    }
    onRecord(record, result);
  }
  return { journal, recovered, engine, idempotency, snapshotSeq };
}

export const DEFAULT_SNAPSHOT_EVERY = 50_000;

/**
 * The single-threaded command processor around the engine: stamps each command with the time,
 * executes it, appends it to the journal when it changed anything, and acknowledges only after the
 * journal's sync. Listeners (market data, read models) get the events after the sync, in journal order.
 *
 * Commands that change nothing (refusals, idle ticks) produce no events and are not journaled:
 * replaying the journal gives the same books without them.
 *
 * A failed journal write (a full disk) leaves the engine ahead of the disk: from then on every command
 * is refused with SERVICE_UNAVAILABLE, and the sequencer reloads the engine from what the journal
 * holds (in place, so every component keeps its engine), retrying with backoff until a probe write
 * succeeds; then commands are taken again. A command whose write failed was never acknowledged and is
 * gone unless its record reached the disk whole (then it is kept, its events published, and a retry
 * with its idempotency key gets its result).
 */
export class Sequencer {
  private readonly listeners: EventListener[] = [];
  /** Idempotency key → result and its journaled time, oldest first, for commands on disk (or that changed nothing). */
  private readonly idempotency: IdempotencyKeys;
  /** Idempotency key → result of a command whose record is being synced, and its acknowledgement. */
  private readonly syncing = new Map<string, { result: SequencedResult; durable: Promise<SequencedResult>; fingerprint: string }>();
  private timer: NodeJS.Timeout | null = null;
  /** The tick interval to resume with after a reload (0: not ticking). */
  private tickIntervalMs = 0;
  private failed: Error | null = null;
  /** The last journal record whose events the listeners have had. */
  private publishedSeq: number;
  private recoveryTimer: NodeJS.Timeout | null = null;
  private recovering: Promise<void> | null = null;
  private closed = false;
  /** Journaled commands since the last snapshot (or since the start of the replay). */
  private sinceSnapshot = 0;
  private readonly snapshotEvery: number;
  private readonly beforeSnapshotWrite: SequencerOptions['beforeSnapshotWrite'];
  private readonly onSnapshotError: (error: Error) => void;
  /** Snapshots handed to the journal and not yet written (close() waits for them). */
  private readonly snapshotting = new Set<Promise<void>>();
  /** Order commands (add, modify, cancel) submitted since start, refused ones included: the console's orders/s. */
  orderCommands = 0;
  /** The newest snapshot written (or found at start, its time unknown): the console's engine health. */
  lastSnapshot: { seq: number; at: number | null } | null = null;

  private constructor(
    private journal: Journal<JournalEntry, SequencerSnapshot>,
    private readonly now: () => number,
    readonly engine: Engine,
    private readonly options: SequencerOptions,
  ) {
    this.snapshotEvery = options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY;
    this.onSnapshotError = options.onSnapshotError ?? ((error) => console.error('journal snapshot failed:', error));
    this.beforeSnapshotWrite = options.beforeSnapshotWrite;
    this.idempotency = idempotencyKeysFor(options);
    this.publishedSeq = journal.lastSeq;
  }

  /**
   * Opens the journal and rebuilds the engine: from the newest snapshot when there is one, then the
   * records after it. `snapshotSeq` is the record the snapshot covered (0 without one): replayed events
   * (onReplayedEvents) start after it, so a read model whose watermark is older misses the events in
   * between (`replayGap`).
   */
  static async open(options: SequencerOptions): Promise<{ sequencer: Sequencer; replayed: number; truncatedBytes: number; snapshotSeq: number; replayGap: { fromSeq: number; toSeq: number } | null }> {
    const fromSeq = options.replayFromSeq ?? 0;
    const { journal, recovered, engine, idempotency, snapshotSeq } = await rebuild(options, (record, result) => {
      if (options.onReplayedEvents && record.seq > fromSeq && result.events.length > 0) options.onReplayedEvents(result.events, record.seq);
    });
    const sequencer = new Sequencer(journal, options.now ?? Date.now, engine, options);
    sequencer.idempotency.replaceWith(idempotency);
    const replayGap = options.onReplayedEvents && fromSeq < snapshotSeq ? { fromSeq: fromSeq + 1, toSeq: snapshotSeq } : null;
    sequencer.sinceSnapshot = recovered.records.length;
    if (snapshotSeq > 0) sequencer.lastSnapshot = { seq: snapshotSeq, at: null };
    if (options.tickIntervalMs) sequencer.startTicking(options.tickIntervalMs);
    return { sequencer, replayed: recovered.records.length, truncatedBytes: recovered.truncatedBytes, snapshotSeq, replayGap };
  }

  /** False while the journal cannot be written: commands are refused with SERVICE_UNAVAILABLE. */
  get available(): boolean {
    return this.failed === null;
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
    if (this.failed || this.closed) throw unavailable();
    if (command.type === 'addOrder' || command.type === 'modifyOrder' || command.type === 'cancelOrder') this.orderCommands++;
    const key = meta?.userId && meta.idempotencyKey ? idempotencyKeyOf(meta.userId, meta.idempotencyKey) : null;
    // Stamped here so the journal holds the exact time the engine saw; never earlier than the last one.
    const at = Math.max(this.now(), this.engine.clock);
    this.idempotency.forgetBefore(at);
    // An add's JSON serves its digest and, with its time put last, its journal record (one serialisation).
    const text = key !== null && !('at' in command) ? JSON.stringify(command) : null;
    const fingerprint = key === null ? '' : text === null ? fingerprintOf(command) : DIGEST_PREFIX + cyrb53(text);
    if (key !== null) {
      const remembered = this.idempotency.get(key);
      const syncing = remembered ? undefined : this.syncing.get(key);
      const used = remembered ?? syncing;
      if (used) {
        if (!sameCommand(used.fingerprint, fingerprint, command)) throw new ExchangeError(apiError('ORDER_IDEMPOTENCY_KEY_REUSED', { idempotencyKey: meta!.idempotencyKey! }));
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
    const durable = this.journal.append(entry, text === null ? undefined : entryJsonOf(text, at, meta)).then(
      (seq) => {
        pending.journalSeq = seq;
        this.publishedSeq = seq;
        if (key !== null) {
          this.syncing.delete(key);
          // Kept from now on without the events a retry does not need (less to hold, collect and snapshot).
          this.idempotency.set(key, { result: compactResult(pending), at, fingerprint });
        }
        for (const listener of this.listeners) listener(result.events, entry, result, seq);
        return pending;
      },
      (error: unknown) => {
        // The engine moved ahead of the disk: nothing more may be acknowledged until it is reloaded from the journal.
        if (key !== null) this.syncing.delete(key);
        this.fail(error as Error);
        throw unavailable();
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
    this.tickIntervalMs = intervalMs;
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

  /**
   * The last journal record on disk whose events the listeners have had: state up to it is
   * acknowledged and can no longer be lost (lastJournalSeq may be ahead, still syncing).
   */
  get durableSeq(): number {
    return this.publishedSeq;
  }

  get journalSyncs(): number {
    return this.journal.syncCount;
  }

  /** p99 of the journal's group-commit syncs over the last `windowMs`, ms (null when none). */
  journalSyncP99Ms(windowMs = 60_000): number | null {
    return this.journal.syncTimings.p99(windowMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopTicking();
    if (this.recoveryTimer) clearTimeout(this.recoveryTimer);
    await this.recovering;
    await Promise.all(this.snapshotting);
    await this.journal.close();
  }

  /** The first failed write stops the ticks and starts the reloads (later failures of the same batch add nothing). */
  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = error;
    const ticking = this.tickIntervalMs;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    console.error('journal write failed: commands are refused until the journal can be written again:', error);
    this.scheduleRecovery(0, ticking);
  }

  private scheduleRecovery(attempt: number, ticking: number): void {
    if (this.closed) return;
    this.recoveryTimer = setTimeout(
      () => {
        this.recoveryTimer = null;
        this.recovering = this.recover().then((recovered) => {
          this.recovering = null;
          if (!recovered) this.scheduleRecovery(attempt + 1, ticking);
          else if (ticking > 0 && !this.closed) this.startTicking(ticking);
        });
      },
      Math.min(RECOVERY_MAX_MS, RECOVERY_FIRST_MS * 2 ** attempt),
    );
    this.recoveryTimer.unref();
  }

  /**
   * Reloads the engine from the journal on disk (its records up to the failed write, a torn tail cut
   * off), publishes the records that reached the disk but not the listeners, and takes commands again
   * once a probe write and sync succeed. False when the journal cannot be opened or written yet.
   */
  private async recover(): Promise<boolean> {
    try {
      // Every append of the failed journal has been rejected by now (a failed write rejects its queue);
      // its pending snapshots are refused by it.
      await this.journal.close().catch(() => {});
      const unpublished: Array<{ record: JournalRecord<JournalEntry>; result: EngineResult }> = [];
      const rebuilt = await rebuild(this.options, (record, result) => {
        if (record.seq > this.publishedSeq && result.events.length > 0) unpublished.push({ record, result });
      });
      this.journal = rebuilt.journal;
      this.engine.adoptState(rebuilt.engine);
      this.idempotency.replaceWith(rebuilt.idempotency);
      this.sinceSnapshot = rebuilt.recovered.records.length;
      for (const { record, result } of unpublished) {
        this.publishedSeq = record.seq;
        for (const listener of this.listeners) listener(result.events, record.entry, result, record.seq);
      }
      this.publishedSeq = Math.max(this.publishedSeq, rebuilt.journal.lastSeq);
      if (this.closed) return true;
      await this.journal.probe();
    } catch (error) {
      console.error('journal still cannot be written:', (error as Error).message);
      return false;
    }
    this.failed = null;
    console.error('journal writable again: engine reloaded from the journal, commands are taken again');
    return true;
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
    for (const [key, { result, at, fingerprint }] of this.idempotency.entries()) idempotency.push(fingerprint === undefined ? [key, result, at] : [key, result, at, fingerprint]);
    for (const [key, { result, fingerprint }] of this.syncing) idempotency.push([key, compactResult(result), this.engine.clock, fingerprint]);
    const state: SequencerSnapshot = { engine: this.engine.exportState(), idempotency, idempotencyEvents: 'compact' };
    const ready = this.beforeSnapshotWrite ? this.beforeSnapshotWrite(seq) : Promise.resolve();
    // This journal's: after a reload from the journal, the new one's record `seq` may be another command.
    const journal = this.journal;
    const written = ready
      .then(() => journal.snapshot(seq, state))
      .then(() => {
        // The engine's time, not a new reading of the clock: a stepping test clock must see one reading per command.
        if (this.lastSnapshot === null || this.lastSnapshot.seq < seq) this.lastSnapshot = { seq, at: this.engine.clock };
      })
      .catch((error: unknown) => {
      if (!this.failed) this.onSnapshotError(error as Error);
    });
    this.snapshotting.add(written);
    void written.finally(() => this.snapshotting.delete(written));
  }
}

/** The refusal of every command while the journal cannot be written. */
function unavailable(): ExchangeError<'SERVICE_UNAVAILABLE'> {
  return new ExchangeError(apiError('SERVICE_UNAVAILABLE'));
}
