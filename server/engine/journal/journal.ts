import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, openSync, fsyncSync, closeSync, ftruncateSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * Append-only command journal with group commit.
 *
 * A record on disk: [u32 payload length][u32 crc32 of payload][payload: UTF-8 JSON of { seq, entry }].
 * `append` resolves only after the record is written and fdatasync'd; records that arrive while a sync
 * is under way are written together with the next one (group commit), so many acknowledgements share
 * one disk sync. Recovery reads every whole record and truncates a torn or corrupt tail.
 *
 * Segments: `journal-<firstSeq>.log`. A snapshot `snapshot-<seq>.json` covers every record up to seq;
 * after one is written a new segment starts and fully covered segments are deleted.
 */

const HEADER_BYTES = 8;
/** A record larger than this is corrupt by definition (commands are small). */
export const MAX_RECORD_BYTES = 1024 * 1024;

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

export function encodeRecord(seq: number, entry: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify({ seq, entry }), 'utf8');
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}

/** Decodes whole records from a buffer; stops at the first torn or corrupt one and says where. */
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

interface Pending {
  buffer: Buffer;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** A snapshot queued behind the records appended before it (see snapshot()). */
interface Rotation<S> {
  rotation: true;
  seq: number;
  state: S;
  /** First seq of the new segment: every record appended before the snapshot was asked for is below it. */
  nextSegmentSeq: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class Journal<T, S = unknown> {
  private handle: FileHandle | null = null;
  private queue: Array<Pending | Rotation<S>> = [];
  private flushing = false;
  private failed: Error | null = null;
  private nextSeq = 1;
  private closed = false;
  /** Number of disk syncs, to see group commit at work. */
  syncCount = 0;

  private constructor(private readonly dir: string) {}

  /**
   * Opens the journal in `dir` and returns what it holds: the newest readable snapshot and the records
   * after it. A torn or corrupt tail of the last segment is cut off before anything is appended.
   */
  static async open<T, S>(dir: string): Promise<{ journal: Journal<T, S>; recovered: RecoveredJournal<T, S> }> {
    mkdirSync(dir, { recursive: true });
    const journal = new Journal<T, S>(dir);
    const recovered = journal.recover();
    journal.nextSeq = recovered.lastSeq + 1;
    const segments = journal.segments();
    const current = segments.at(-1) ?? segmentName(journal.nextSeq);
    journal.handle = await open(join(dir, current), 'a');
    if (segments.length === 0) fsyncDirectory(dir);
    return { journal, recovered };
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** Appends one entry; resolves with its sequence number once it is on disk. */
  append(entry: T): Promise<number> {
    if (this.closed) return Promise.reject(new Error('journal closed'));
    if (this.failed) return Promise.reject(this.failed);
    const seq = this.nextSeq++;
    const buffer = encodeRecord(seq, entry);
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ buffer, resolve: () => resolve(seq), reject });
      if (!this.flushing) void this.flush();
    });
  }

  /**
   * Writes a snapshot of the state after record `seq`, starts a new segment and drops segments the
   * snapshot fully covers. Records after `seq` stay in the journal and are replayed on top of it.
   *
   * The snapshot queues behind every record appended so far: it is written only once they are all on
   * disk (never when one of them failed), and the segment switch happens between two writes, so appends
   * may go on meanwhile (they are written after it, into the new segment). `seq` must not be past the
   * last appended record; records appended before the call but after `seq` stay covered by the journal.
   */
  snapshot(seq: number, state: S): Promise<void> {
    if (this.closed) return Promise.reject(new Error('journal closed'));
    if (this.failed) return Promise.reject(this.failed);
    if (!(Number.isSafeInteger(seq) && seq >= 0 && seq <= this.lastSeq)) return Promise.reject(new Error(`snapshot seq ${seq} is not a journaled record (last ${this.lastSeq})`));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ rotation: true, seq, state, nextSegmentSeq: this.nextSeq, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** Runs between writes (the flush loop is paused on it): snapshot file, new segment, clean-up. */
  private async rotate(r: Rotation<S>): Promise<void> {
    const file = join(this.dir, snapshotName(r.seq));
    const temporary = `${file}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      writeFileSync(fd, JSON.stringify({ seq: r.seq, state: r.state }));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
    // Roll to a new segment starting after the records written so far; old segments and snapshots are now redundant.
    // (When the new segment cannot be opened, appends go on in the old one: the snapshot is still valid.)
    const next = await open(join(this.dir, segmentName(r.nextSegmentSeq)), 'a');
    const old = this.handle;
    this.handle = next;
    await old?.close();
    fsyncDirectory(this.dir);
    // A segment is covered when every record in it (up to the next segment's first seq) is at or before `seq`.
    const segments = this.segments();
    for (const [index, segment] of segments.entries()) {
      const following = segments[index + 1];
      if (following !== undefined && seqOf(following) - 1 <= r.seq) rmSync(join(this.dir, segment));
    }
    for (const older of this.snapshots()) if (seqOf(older) < r.seq) rmSync(join(this.dir, older));
    fsyncDirectory(this.dir);
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
    await this.handle?.close();
    this.handle = null;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const head = this.queue[0]!;
        if ('rotation' in head) {
          this.queue.shift();
          if (this.failed) head.reject(this.failed);
          else await this.rotate(head).then(head.resolve, head.reject);
          continue;
        }
        // the records up to the next snapshot, written and synced together
        let end = 1;
        while (end < this.queue.length && !('rotation' in this.queue[end]!)) end++;
        const batch = this.queue.slice(0, end) as Pending[];
        this.queue = this.queue.slice(end);
        try {
          await this.handle!.writev(batch.map((pending) => pending.buffer));
          await this.handle!.datasync();
          this.syncCount++;
          for (const pending of batch) pending.resolve();
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

  private recover(): RecoveredJournal<T, S> {
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
    const segments = this.segments();
    for (const [index, segment] of segments.entries()) {
      const path = join(this.dir, segment);
      const buffer = readFileSync(path);
      const decoded = decodeRecords<T>(buffer);
      if (decoded.validBytes < buffer.length) {
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
      if (decoded.validBytes < buffer.length && index < segments.length - 1) {
        throw new Error(`journal segment ${segment} is corrupt at byte ${decoded.validBytes} and is not the last one`);
      }
    }
    return { snapshot, records, truncatedBytes, lastSeq };
  }
}
