/**
 * The durations of the journal's group-commit syncs (write + fdatasync of one batch), in a fixed ring
 * buffer: recording one is two array stores, no allocation. The operator console reads the p99 of the
 * last minute from it.
 */
export class SyncTimings {
  private readonly at: Float64Array;
  private readonly ms: Float64Array;
  private next = 0;
  private size = 0;

  constructor(
    capacity = 4096,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.at = new Float64Array(capacity);
    this.ms = new Float64Array(capacity);
  }

  /** The monotonic time now (ms): a sync's start, handed back to `record`. */
  start(): number {
    return this.clock();
  }

  /** A sync that began at `startedAt` (from `start`) has finished. */
  record(startedAt: number): void {
    const now = this.clock();
    this.at[this.next] = now;
    this.ms[this.next] = now - startedAt;
    this.next = (this.next + 1) % this.at.length;
    if (this.size < this.at.length) this.size++;
  }

  /** The 99th percentile (nearest rank) of the syncs that finished within the last `windowMs`; null when none did. */
  p99(windowMs = 60_000): number | null {
    const since = this.clock() - windowMs;
    const recent: number[] = [];
    for (let i = 0; i < this.size; i++) if (this.at[i]! >= since) recent.push(this.ms[i]!);
    if (recent.length === 0) return null;
    recent.sort((a, b) => a - b);
    return recent[Math.min(recent.length - 1, Math.ceil(recent.length * 0.99) - 1)]!;
  }
}
