import { describe, expect, it } from 'vitest';
import { SyncTimings } from '../../../../server/engine/journal/sync-timings.ts';

describe('SyncTimings', () => {
  it('gives the p99 (nearest rank) of the syncs that finished within the window, and null without any', () => {
    let clock = 0;
    const timings = new SyncTimings(4096, () => clock);
    expect(timings.p99()).toBeNull();
    // 200 syncs of 1..200 ms: the p99 is the 198th.
    for (let ms = 1; ms <= 200; ms++) {
      const started = timings.start();
      clock += ms;
      timings.record(started);
    }
    expect(timings.p99(Number.POSITIVE_INFINITY)).toBe(198);
    // Only the syncs that ended in the last 400 ms: those of 200, 199 and 198 ms.
    expect(timings.p99(400)).toBe(200);
    clock += 60_001;
    expect(timings.p99(60_000)).toBeNull();
  });

  it('keeps the newest `capacity` syncs', () => {
    let clock = 0;
    const timings = new SyncTimings(4, () => clock);
    for (const ms of [500, 500, 500, 500, 1, 2, 3, 4]) {
      const started = timings.start();
      clock += ms;
      timings.record(started);
    }
    expect(timings.p99(Number.POSITIVE_INFINITY)).toBe(4);
  });
});
