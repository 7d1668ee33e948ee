import type { AuditRecord } from '../../protocol/audit.ts';

/** How security events are coalesced (docs/audit.md, "Caps"). */
export interface CoalescingLimits {
  /** Length of a window, ms (a minute). */
  windowMs: number;
  /** Distinct keys written one by one per window; beyond them, one overflow count per action. */
  maxKeysPerWindow: number;
}

export const defaultCoalescingLimits: CoalescingLimits = { windowMs: 60_000, maxKeysPerWindow: 100 };

interface Bucket {
  /** The first event of the key in this window (written at once). */
  first: AuditRecord;
  /** Events after the first, counted and written as one entry when the window closes. */
  repeats: number;
  lastAt: string;
  /** The repeats' distinct subjects, at most 10 kept (the overflow buckets gather many). */
  subjects: Set<string>;
}

const MAX_SUBJECTS = 10;

/**
 * Security events come in floods (a password guesser, a client retrying a forbidden route): each is
 * noted without waiting for the database, and coalesced per window (a minute) and key (action, code,
 * remote address, actor). The first event of a key in a window is written at once with `count: 1`;
 * the others are counted and written as ONE entry when the window closes, with `count`, `firstAt`,
 * `lastAt` and up to 10 of their subjects. At most `maxKeysPerWindow` keys are tracked per window;
 * events of further keys are counted into one overflow entry per action (`subject: '*'`,
 * `overflow: true`). So a window writes at most 2 × maxKeysPerWindow + (number of actions) entries,
 * however many events arrive. Write failures are logged, never thrown into the caller.
 */
export class CoalescingRecorder {
  private window = -1;
  private readonly buckets = new Map<string, Bucket>();
  private readonly overflow = new Map<string, Bucket>();
  private readonly pending = new Set<Promise<void>>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly write: (entry: AuditRecord) => Promise<void>,
    private readonly now: () => number,
    private readonly limits: CoalescingLimits = defaultCoalescingLimits,
  ) {
    // Closes a window that nothing else closes (no event after it); the clock may be a test's.
    this.timer = setInterval(() => this.roll(), Math.min(limits.windowMs, 10_000));
    this.timer.unref();
  }

  /** Notes one event; returns at once (the write, if any, runs in the background: see idle()). */
  note(entry: AuditRecord): void {
    this.roll();
    const at = entry.at ?? new Date(this.now()).toISOString();
    const key = [entry.action, entry.code ?? '', entry.remoteAddress ?? '', entry.actorUserId ?? ''].join('\u0000');
    const bucket = this.buckets.get(key);
    if (bucket) {
      this.repeat(bucket, entry.subject, at);
      return;
    }
    if (this.buckets.size >= this.limits.maxKeysPerWindow) {
      const spill = this.overflow.get(entry.action);
      if (spill) this.repeat(spill, entry.subject, at);
      else this.overflow.set(entry.action, { first: { ...entry, at }, repeats: 1, lastAt: at, subjects: new Set([entry.subject]) });
      return;
    }
    this.buckets.set(key, { first: { ...entry, at }, repeats: 0, lastAt: at, subjects: new Set() });
    this.start({ ...entry, at, details: { ...entry.details, count: 1 } });
  }

  /** Closes the current window: its counts are written. The server calls it before it closes the store. */
  async flush(): Promise<void> {
    this.closeWindow();
    await this.idle();
  }

  /** Resolves when every write started so far has ended. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private repeat(bucket: Bucket, subject: string, at: string): void {
    bucket.repeats += 1;
    bucket.lastAt = at;
    if (bucket.subjects.size < MAX_SUBJECTS) bucket.subjects.add(subject);
  }

  private roll(): void {
    const window = Math.floor(this.now() / this.limits.windowMs);
    if (window === this.window) return;
    this.closeWindow();
    this.window = window;
  }

  private closeWindow(): void {
    for (const bucket of this.buckets.values()) if (bucket.repeats > 0) this.start(summary(bucket, false));
    for (const bucket of this.overflow.values()) this.start(summary(bucket, true));
    this.buckets.clear();
    this.overflow.clear();
  }

  private start(entry: AuditRecord): void {
    const write = this.write(entry)
      .catch((error: unknown) => console.error(`audit: a ${entry.action} entry could not be stored:`, error))
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }
}

/** The entry standing for a bucket's repeats (or, for an overflow bucket, all its events). */
function summary(bucket: Bucket, overflow: boolean): AuditRecord {
  const subjects = [...bucket.subjects];
  const base = overflow ? { ...bucket.first, actorUserId: null, actorRole: null, remoteAddress: null, subject: '*' } : bucket.first;
  const details: AuditRecord['details'] = overflow ? {} : { ...bucket.first.details };
  details.count = bucket.repeats;
  details.firstAt = bucket.first.at ?? null;
  details.lastAt = bucket.lastAt;
  details.subjects = subjects.join(', ').slice(0, 500);
  if (overflow) details.overflow = true;
  else details.coalesced = true;
  return { ...base, subject: overflow ? '*' : subjects.length === 1 ? subjects[0]! : base.subject, at: bucket.lastAt, details };
}
