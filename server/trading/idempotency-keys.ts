import type { SequencedResult } from './sequenced-result.ts';

/** What a key was used for, as a retry is answered: the (compact) result, when, and the command's digest. */
export interface RememberedKey {
  result: SequencedResult;
  at: number;
  /** Digest of the command (absent for keys from snapshots written before digests): another body is refused. */
  fingerprint: string | undefined;
}

/** A key past the retry window: only what a late retry needs (the order it made, not its events). */
interface SettledKey {
  orderId: number | undefined;
  journalSeq: number | null;
  at: number;
  fingerprint: string | undefined;
}

/** How long a key keeps its full result: a retry comes in seconds, a reconnect in a minute or two. */
export const DEFAULT_RETRY_WINDOW_MS = 10 * 60 * 1000;

/**
 * The idempotency keys of one exchange, by journaled time. A key keeps its compact result (the order's
 * last event) for the retry window; after that it is settled: its order id, journal seq and digest,
 * about a third of the memory (bench/idempotency-memory.ts), and a late retry is answered with the
 * order as it is now. After the retention the key is forgotten. Both maps are oldest first, so each
 * pass stops at the first key it must keep.
 */
export class IdempotencyKeys {
  private readonly recent = new Map<string, RememberedKey>();
  private readonly settled = new Map<string, SettledKey>();

  constructor(
    private readonly retentionMs: number,
    private readonly retryWindowMs = DEFAULT_RETRY_WINDOW_MS,
  ) {}

  get size(): number {
    return this.recent.size + this.settled.size;
  }

  get(key: string): RememberedKey | undefined {
    const recent = this.recent.get(key);
    if (recent) return recent;
    const settled = this.settled.get(key);
    if (!settled) return undefined;
    // No events: the caller answers with the order as it is now.
    return { result: { result: 'OK', orderId: settled.orderId, events: [], journalSeq: settled.journalSeq }, at: settled.at, fingerprint: settled.fingerprint };
  }

  set(key: string, remembered: RememberedKey): void {
    this.settled.delete(key);
    this.recent.delete(key); // re-inserted at the end: the maps stay oldest first
    this.recent.set(key, remembered);
  }

  /** Settles the keys past the retry window and forgets those past the retention, as of `at`. */
  forgetBefore(at: number): void {
    const oldest = at - this.retentionMs;
    for (const [key, { at: taken }] of this.settled) {
      if (taken >= oldest) break;
      this.settled.delete(key);
    }
    // A retention shorter than the window (tests) forgets recent keys directly.
    const keepFrom = Math.max(at - this.retryWindowMs, oldest);
    for (const [key, remembered] of this.recent) {
      if (remembered.at >= keepFrom) break;
      this.recent.delete(key);
      if (remembered.at >= oldest) {
        this.settled.set(key, { orderId: remembered.result.orderId, journalSeq: remembered.result.journalSeq, at: remembered.at, fingerprint: remembered.fingerprint });
      }
    }
  }

  /** Every key, oldest first (settled ones with an empty result), for a snapshot. */
  *entries(): IterableIterator<[string, RememberedKey]> {
    for (const key of this.settled.keys()) yield [key, this.get(key)!];
    yield* this.recent;
  }

  /** Takes the keys of another set (a reload from the journal). */
  replaceWith(other: IdempotencyKeys): void {
    this.recent.clear();
    this.settled.clear();
    for (const [key, value] of other.recent) this.recent.set(key, value);
    for (const [key, value] of other.settled) this.settled.set(key, value);
  }
}
