import { closeSync, constants, fsyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { SyncTimings } from './sync-timings.ts';

/**
 * Append-only command journal with group commit.
 *
 * A record on disk: [u32 payload length][u32 crc32 of payload][payload: UTF-8 JSON of { seq, entry }].
 * `append` resolves only after the record is written and fdatasync'd; records that arrive while a sync
 * is under way are written together with the next one (group commit), so many acknowledgements share
 * one disk sync. Recovery reads every whole record and truncates a torn or corrupt tail.
 *
 * Segments: `journal-<firstSeq>.log`. A snapshot `snapshot-<seq>.json` covers every record up to seq;
 * once one is written, the next batch of records starts a new segment and fully covered segments are
 * deleted. The snapshot file is written in pieces beside the record writes, which never wait for it.
 *
 * Pre-zeroed space: the segment being written is kept PREALLOCATE_BYTES ahead of its records with
 * synced zeros, and records overwrite them in place. An fdatasync then flushes data only: appending
 * past the end of the file would change its size and make every sync wait for a file-system journal
 * commit (shared with every other process on the disk), the same reason PostgreSQL pre-zeroes its WAL
 * segments. A zero length field ends the records; a clean close trims the zeros away.
 */

const HEADER_BYTES = 8;
/** A record larger than this is corrupt by definition (commands are small). */
export const MAX_RECORD_BYTES = 1024 * 1024;
/** Zeros kept synced ahead of the records; extended in the background when less than half is left. */
export const PREALLOCATE_BYTES = 4 * 1024 * 1024;
const zeros = Buffer.alloc(PREALLOCATE_BYTES / 4);
/** Values (nested ones counted) above which jsonPieces splits an array or object. */
const SPLIT_NODES = 1024;
/** Characters of snapshot JSON per write: a few milliseconds of serialising between two turns of the event loop. */
const SNAPSHOT_WRITE_CHARS = 256 * 1024;

export interface JournalRecord<T> {
  seq: number;
  entry: T;
}

export interface RecoveredJournal<T, S> {
  snapshot: { seq: number; state: S } | null;
  /** Records after the snapshot, in order. */
  records: Array<JournalRecord<T>>;
  /** Bytes cut from a torn or corrupt tail (0 when the journal was whole). */
  truncatedBytes: number;
  lastSeq: number;
}

/**
 * One record: length, CRC-32 and the JSON of `{ seq, entry }`. `entryJson`, when the caller has it,
 * must be exactly `JSON.stringify(entry)` (it saves serialising again what the caller just did).
 */
export function encodeRecord(seq: number, entry: unknown, entryJson?: string): Buffer {
  const json = entryJson === undefined ? JSON.stringify({ seq, entry }) : `{"seq":${seq},"entry":${entryJson}}`;
  // One buffer for header and payload (most records fit the shared pool of Buffer.allocUnsafe).
  const record = Buffer.allocUnsafe(HEADER_BYTES + Buffer.byteLength(json, 'utf8'));
  const length = record.write(json, HEADER_BYTES, 'utf8');
  record.writeUInt32LE(length, 0);
  record.writeUInt32LE(crc32(record.subarray(HEADER_BYTES)), 4);
  return record;
}

/** True when every byte from `offset` on is zero: pre-zeroed space, not a torn record. */
function zeroFrom(buffer: Buffer, offset: number): boolean {
  for (let i = offset; i < buffer.length; i++) if (buffer[i] !== 0) return false;
  return true;
}

/**
 * Decodes whole records from a buffer; stops at the first torn or corrupt one, or at pre-zeroed space,
 * and says where.
 */
export function decodeRecords<T>(buffer: Buffer): { records: Array<JournalRecord<T>>; validBytes: number } {
  const records: Array<JournalRecord<T>> = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= buffer.length) {
    const length = buffer.readUInt32LE(offset);
    const checksum = buffer.readUInt32LE(offset + 4);
    if (length === 0 || length > MAX_RECORD_BYTES || offset + HEADER_BYTES + length > buffer.length) break;
    const payload = buffer.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + length);
    if (crc32(payload) !== checksum) break;
    let parsed: JournalRecord<T>;
    try {
      parsed = JSON.parse(payload.toString('utf8')) as JournalRecord<T>;
    } catch {
      break;
    }
    if (typeof parsed?.seq !== 'number') break;
    records.push(parsed);
    offset += HEADER_BYTES + length;
  }
  return { records, validBytes: offset };
}

function segmentName(firstSeq: number): string {
  return `journal-${String(firstSeq).padStart(12, '0')}.log`;
}
function snapshotName(seq: number): string {
  return `snapshot-${String(seq).padStart(12, '0')}.json`;
}
function seqOf(file: string): number {
  return Number(/-(\d+)\./.exec(file)?.[1] ?? NaN);
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The same, off the event loop. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isSplittable(value: unknown): value is object {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Values nested in `value` (itself included), counted until past `limit`. */
function nodesUpTo(value: object, limit: number): number {
  let count = 1;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length && count <= limit; index++) {
      const member: unknown = value[index];
      count += isSplittable(member) ? nodesUpTo(member, limit - count) : 1;
    }
  } else {
    for (const key in value) {
      if (count > limit) break;
      const member: unknown = (value as Record<string, unknown>)[key];
      count += isSplittable(member) ? nodesUpTo(member, limit - count) : 1;
    }
  }
  return count;
}

function isLarge(value: unknown, splitNodes: number): boolean {
  return isSplittable(value) && nodesUpTo(value, splitNodes) > splitNodes;
}

/**
 * JSON.stringify(value) in pieces (joined, the same text): arrays and objects of more than
 * SPLIT_NODES values are split member by member, the small members one JSON.stringify each, so a
 * large snapshot can be serialised a slice at a time.
 */
export function* jsonPieces(value: unknown, splitNodes = SPLIT_NODES): Generator<string> {
  if (!isLarge(value, splitNodes)) {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  const array = Array.isArray(value);
  const record = value as Record<string, unknown>;
  let text = array ? '[' : '{';
  let first = true;
  for (const key of array ? value.keys() : Object.keys(record)) {
    const raw = array ? value[key as number] : record[key as string];
    if (!array && isOmitted(raw)) continue;
    const member = isOmitted(raw) ? null : raw;
    text += `${first ? '' : ','}${array ? '' : `${JSON.stringify(key)}:`}`;
    first = false;
    if (isLarge(member, splitNodes)) {
      yield text;
      text = '';
      yield* jsonPieces(member, splitNodes);
    } else {
      text += JSON.stringify(member);
      if (text.length >= SNAPSHOT_WRITE_CHARS / 4) {
        yield text;
        text = '';
      }
    }
  }
  yield `${text}${array ? ']' : '}'}`;
}

/**
 * The disk operations of the record path. The default calls the file handle; a test passes its own to
 * make the disk fail (ENOSPC) where and when it likes.
 */
export interface JournalIo {
  writev(handle: FileHandle, buffers: Buffer[], position: number): Promise<{ bytesWritten: number }>;
  datasync(handle: FileHandle): Promise<void>;
}

const directIo: JournalIo = {
  writev: (handle, buffers, position) => handle.writev(buffers, position),
  datasync: (handle) => handle.datasync(),
};

/** Bytes the probe writes: one page of zeros. */
const PROBE_BYTES = 4096;

interface Pending {
  seq: number;
  buffer: Buffer;
  resolve: (seq: number) => void;
  reject: (error: Error) => void;
}

/** A snapshot queued behind the records appended before it (see snapshot()). */
interface Rotation<S> {
  rotation: true;
  seq: number;
  state: S;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class Journal<T, S = unknown> {
  private handle: FileHandle | null = null;
  /** File name of the segment being written. */
  private segment = '';
  /** Where the next record goes in that segment: the end of its records. */
  private position = 0;
  /** The segment's size on disk (synced); the bytes from `position` up to it are zeros. */
  private allocated = 0;
  /** A background extension of the pre-zeroed space, if one is under way. */
  private extending: Promise<void> | null = null;
  private queue: Array<Pending | Rotation<S>> = [];
  /** Snapshot files are written one after the other, beside the record writes. */
  private snapshotWrites: Promise<void> = Promise.resolve();
  /** The newest snapshot written since the last segment switch: the next batch starts a new segment. */
  private switchAfter: number | null = null;
  /** Old segments being trimmed and closed. */
  private readonly retiring = new Set<Promise<void>>();
  private flushing = false;
  private failed: Error | null = null;
  private nextSeq = 1;
  private closed = false;
  /** Number of disk syncs, to see group commit at work. */
  syncCount = 0;
  /** How long each batch's write and sync took (the operator console's journal sync p99). */
  readonly syncTimings = new SyncTimings();

  private constructor(
    private readonly dir: string,
    private readonly io: JournalIo,
  ) {}

  /**
   * Opens the journal in `dir` and returns what it holds: the newest readable snapshot and the records
   * after it. A torn or corrupt tail of the last segment is cut off before anything is appended.
   */
  static async open<T, S>(dir: string, options: { io?: JournalIo } = {}): Promise<{ journal: Journal<T, S>; recovered: RecoveredJournal<T, S> }> {
    mkdirSync(dir, { recursive: true });
    const journal = new Journal<T, S>(dir, options.io ?? directIo);
    const { recovered, lastSegmentBytes } = journal.recover();
    journal.nextSeq = recovered.lastSeq + 1;
    const segments = journal.segments();
    journal.segment = segments.at(-1) ?? segmentName(journal.nextSeq);
    // Read-write without O_APPEND: records are written at `position`, over the pre-zeroed space.
    journal.handle = await open(join(dir, journal.segment), constants.O_RDWR | constants.O_CREAT);
    journal.position = lastSegmentBytes;
    journal.allocated = (await journal.handle.stat()).size;
    if (segments.length === 0) fsyncDirectory(dir);
    return { journal, recovered };
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /**
   * Writes and syncs a page of zeros just past the records: proves that the disk takes writes again
   * (after a failure, before appends resume) without changing what a recovery reads (zeros past the
   * records are pre-allocated space).
   */
  async probe(): Promise<void> {
    if (this.closed || this.failed) throw this.failed ?? new Error('journal closed');
    const { bytesWritten } = await this.io.writev(this.handle!, [zeros.subarray(0, PROBE_BYTES)], this.position);
    if (bytesWritten !== PROBE_BYTES) throw new Error(`journal probe: ${bytesWritten} of ${PROBE_BYTES} bytes written`);
    await this.io.datasync(this.handle!);
  }

  /**
   * Appends one entry; resolves with its sequence number once it is on disk. `entryJson`, when given,
   * must be exactly `JSON.stringify(entry)`.
   */
  append(entry: T, entryJson?: string): Promise<number> {
    if (this.closed) return Promise.reject(new Error('journal closed'));
    if (this.failed) return Promise.reject(this.failed);
    const seq = this.nextSeq++;
    const buffer = encodeRecord(seq, entry, entryJson);
    let pending!: Pending;
    const synced = new Promise<number>((resolve, reject) => {
      pending = { seq, buffer, resolve, reject };
    });
    this.queue.push(pending);
    if (!this.flushing) void this.flush();
    return synced;
  }

  /**
   * Writes a snapshot of the state after record `seq`; then the next records go to a new segment and
   * segments the snapshot fully covers are dropped. Records after `seq` stay in the journal and are
   * replayed on top of it. Resolves once the snapshot file is on disk.
   *
   * The snapshot queues behind every record appended so far: it is written only once they are all on
   * disk (never when one of them failed). The file is serialised and written a slice at a time while
   * appends go on, so `state` must not change afterwards (give a copy). `seq` must not be past the last
   * appended record; records after `seq` stay covered by the journal.
   */
  snapshot(seq: number, state: S): Promise<void> {
    if (this.closed) return Promise.reject(new Error('journal closed'));
    if (this.failed) return Promise.reject(this.failed);
    if (!(Number.isSafeInteger(seq) && seq >= 0 && seq <= this.lastSeq)) return Promise.reject(new Error(`snapshot seq ${seq} is not a journaled record (last ${this.lastSeq})`));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ rotation: true, seq, state, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** Serialises the snapshot in slices (each write lets the event loop turn), syncs it, then drops older snapshots. */
  private async writeSnapshot(seq: number, state: S): Promise<void> {
    const file = join(this.dir, snapshotName(seq));
    const temporary = `${file}.tmp`;
    const handle = await open(temporary, 'w');
    try {
      let text = '';
      for (const piece of jsonPieces({ seq, state })) {
        text += piece;
        if (text.length >= SNAPSHOT_WRITE_CHARS) {
          await handle.write(text);
          text = '';
        }
      }
      await handle.write(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
    await syncDirectory(this.dir);
    for (const older of this.snapshots()) if (seqOf(older) < seq) await rm(join(this.dir, older), { force: true });
    this.switchAfter = Math.max(this.switchAfter ?? 0, seq);
  }

  /**
   * Runs between two batches once a snapshot is written: the batch starting at `firstSeq` opens a new
   * segment (durably named before any record in it is acknowledged), and segments the snapshot covers
   * are deleted. When the new segment cannot be opened, appends go on in the old one (the snapshot is
   * still valid).
   */
  private async switchSegment(firstSeq: number): Promise<void> {
    const covered = this.switchAfter!;
    this.switchAfter = null;
    // The same name comes back when nothing was written since the last switch: that segment is kept.
    // Any other existing file of that name is not ours to overwrite (O_EXCL: the switch fails).
    const name = segmentName(firstSeq);
    if (name !== this.segment) {
      const path = join(this.dir, name);
      const next = await open(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL);
      try {
        await syncDirectory(this.dir);
      } catch (error) {
        // Not left behind: an empty segment named after a seq it does not start with would mislead the clean-up.
        await next.close().catch(() => {});
        await rm(path, { force: true }).catch(() => {});
        throw error;
      }
      await this.extending;
      const old = this.handle!;
      const oldEnd = this.position;
      this.handle = next;
      this.segment = name;
      this.position = 0;
      this.allocated = 0;
      // The old segment keeps only its records (trailing zeros would be harmless, but cost disk).
      const retired = old
        .truncate(oldEnd)
        .then(() => old.datasync())
        .catch(() => {})
        .finally(() => old.close().catch(() => {}));
      this.retiring.add(retired);
      void retired.finally(() => this.retiring.delete(retired));
    }
    // A segment is covered when every record in it (up to the next segment's first seq) is at or before `covered`.
    const segments = this.segments();
    let removed = false;
    for (const [index, segment] of segments.entries()) {
      const following = segments[index + 1];
      if (following !== undefined && seqOf(following) - 1 <= covered) {
        await rm(join(this.dir, segment), { force: true });
        removed = true;
      }
    }
    if (removed) await syncDirectory(this.dir);
  }

  /** Waits until everything appended so far is on disk. */
  async drain(): Promise<void> {
    while (this.flushing || this.queue.length > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  async close(): Promise<void> {
    await this.drain();
    this.closed = true;
    await this.snapshotWrites;
    await Promise.all(this.retiring);
    await this.extending;
    const handle = this.handle;
    this.handle = null;
    // A clean close leaves only records (the zeros are re-made when appends resume).
    if (handle && !this.failed) await handle.truncate(this.position).then(() => handle.datasync()).catch(() => {});
    await handle?.close();
  }

  /**
   * Keeps PREALLOCATE_BYTES of synced zeros ahead of the records, in the background. Never needed for
   * correctness (a write past the end grows the file and its sync then also commits the new size);
   * a failure (a full disk) is left for the record writes to report.
   */
  private preallocate(): void {
    if (this.extending || this.closed || this.failed || this.allocated - this.position >= PREALLOCATE_BYTES / 2) return;
    const handle = this.handle!;
    const from = Math.max(this.allocated, this.position);
    const to = this.position + PREALLOCATE_BYTES;
    this.extending = (async () => {
      try {
        for (let at = from; at < to; at += zeros.length) await this.io.writev(handle, [zeros.subarray(0, Math.min(zeros.length, to - at))], at);
        await this.io.datasync(handle);
        if (handle === this.handle) this.allocated = Math.max(this.allocated, to);
      } catch {
        // left to the record writes
      } finally {
        this.extending = null;
      }
    })();
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const head = this.queue[0]!;
        if ('rotation' in head) {
          this.queue.shift();
          if (this.failed) head.reject(this.failed);
          else {
            // Every record up to head.seq is on disk: the file is written while later records go on.
            const written = this.snapshotWrites.then(() => this.writeSnapshot(head.seq, head.state));
            written.then(head.resolve, head.reject);
            this.snapshotWrites = written.catch(() => {});
          }
          continue;
        }
        // the records up to the next snapshot, written and synced together
        let end = 1;
        while (end < this.queue.length && !('rotation' in this.queue[end]!)) end++;
        const batch = this.queue.slice(0, end) as Pending[];
        this.queue = this.queue.slice(end);
        try {
          if (this.switchAfter !== null) await this.switchSegment(batch[0]!.seq).catch(() => {});
          const buffers = batch.map((pending) => pending.buffer);
          let bytes = 0;
          for (const buffer of buffers) bytes += buffer.length;
          // The zeros being written ahead must not land on these records: past their end, wait for them.
          if (this.position + bytes > this.allocated && this.extending) await this.extending;
          const startedAt = this.syncTimings.start();
          const { bytesWritten } = await this.io.writev(this.handle!, buffers, this.position);
          // A short write (a full disk) is a failed write: the tail of the batch is not there.
          if (bytesWritten !== bytes) throw new Error(`journal write: ${bytesWritten} of ${bytes} bytes written`);
          this.position += bytes;
          await this.io.datasync(this.handle!);
          this.allocated = Math.max(this.allocated, this.position);
          this.syncCount++;
          this.syncTimings.record(startedAt);
          for (const pending of batch) pending.resolve(pending.seq);
          this.preallocate();
        } catch (error) {
          // Once a write fails nothing later may be acknowledged: the order on disk would be unknown.
          this.failed = error as Error;
          for (const pending of [...batch, ...this.queue]) pending.reject(this.failed);
          this.queue = [];
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private segments(): string[] {
    return readdirSync(this.dir).filter((file) => /^journal-\d+\.log$/.test(file)).sort();
  }

  private snapshots(): string[] {
    return readdirSync(this.dir).filter((file) => /^snapshot-\d+\.json$/.test(file)).sort();
  }

  /** Reads what the journal holds; `lastSegmentBytes` is where the records of the last segment end. */
  private recover(): { recovered: RecoveredJournal<T, S>; lastSegmentBytes: number } {
    let snapshot: { seq: number; state: S } | null = null;
    for (const file of this.snapshots().reverse()) {
      try {
        snapshot = JSON.parse(readFileSync(join(this.dir, file), 'utf8')) as { seq: number; state: S };
        break;
      } catch {
        // A snapshot that does not parse is ignored; an older one (or the full journal) is used.
      }
    }
    for (const file of readdirSync(this.dir)) if (file.endsWith('.tmp')) rmSync(join(this.dir, file));
    const fromSeq = snapshot?.seq ?? 0;
    const records: Array<JournalRecord<T>> = [];
    let truncatedBytes = 0;
    let lastSeq = fromSeq;
    let lastSegmentBytes = 0;
    const segments = this.segments();
    for (const [index, segment] of segments.entries()) {
      const path = join(this.dir, segment);
      const buffer = readFileSync(path);
      const decoded = decodeRecords<T>(buffer);
      lastSegmentBytes = decoded.validBytes;
      // Zeros after the records are pre-allocated space; anything else is a torn or corrupt tail.
      const torn = !zeroFrom(buffer, decoded.validBytes);
      if (torn) {
        truncatedBytes += buffer.length - decoded.validBytes;
        if (index === segments.length - 1) {
          const fd = openSync(path, 'r+');
          try {
            ftruncateSync(fd, decoded.validBytes);
            fsyncSync(fd);
          } finally {
            closeSync(fd);
          }
        }
      }
      for (const record of decoded.records) {
        if (record.seq <= lastSeq) continue;
        if (record.seq !== lastSeq + 1) throw new Error(`journal gap: expected seq ${lastSeq + 1}, found ${record.seq} in ${segment}`);
        records.push(record);
        lastSeq = record.seq;
      }
      // A corrupt record inside an older segment means later records cannot be trusted in order.
      if (torn && index < segments.length - 1) {
        throw new Error(`journal segment ${segment} is corrupt at byte ${decoded.validBytes} and is not the last one`);
      }
    }
    return { recovered: { snapshot, records, truncatedBytes, lastSeq }, lastSegmentBytes };
  }
}
