import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTradeableFeed, TRADEABLE_DEBOUNCE_MS, TRADEABLE_MAX_WAIT_MS } from '../../../../src/trading/bilateral/tradeable-feed.ts';

interface Call {
  signal: AbortSignal;
  resolve: (value: number) => void;
  reject: (error: unknown) => void;
}

/** A feed whose requests are answered by the test, one by one. */
function feedUnderTest() {
  const calls: Call[] = [];
  const loaded: number[] = [];
  const failed: unknown[] = [];
  const feed = createTradeableFeed<number>({
    load: (signal) => new Promise<number>((resolve, reject) => calls.push({ signal, resolve, reject })),
    onLoaded: (value) => loaded.push(value),
    onFailed: (error) => failed.push(error),
  });
  return { feed, calls, loaded, failed };
}

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('tradeable feed', () => {
  it('asks once, DEBOUNCE_MS after the last of a burst of changes', async () => {
    const { feed, calls } = feedUnderTest();
    feed.changed();
    await advance(100);
    feed.changed();
    await advance(100);
    feed.changed();
    await advance(TRADEABLE_DEBOUNCE_MS - 1);
    expect(calls).toHaveLength(0);
    await advance(1);
    expect(calls).toHaveLength(1);
    await advance(5_000);
    expect(calls).toHaveLength(1);
    feed.dispose();
  });

  it('asks at least every MAX_WAIT_MS while the book never stops moving', async () => {
    const { feed, calls } = feedUnderTest();
    for (let t = 0; t < TRADEABLE_MAX_WAIT_MS; t += 100) {
      feed.changed();
      await advance(100);
    }
    // A change every 100 ms never leaves 250 ms of quiet, yet the request went at MAX_WAIT_MS.
    expect(calls).toHaveLength(1);
    feed.dispose();
  });

  it('keeps at most one request in flight: changes meanwhile make exactly one more, after it', async () => {
    const { feed, calls, loaded } = feedUnderTest();
    feed.changed();
    await advance(TRADEABLE_DEBOUNCE_MS);
    expect(calls).toHaveLength(1);
    for (let i = 0; i < 5; i++) {
      feed.changed();
      await advance(TRADEABLE_DEBOUNCE_MS * 2);
    }
    expect(calls).toHaveLength(1); // the first is still out
    calls[0]!.resolve(1);
    await advance(0);
    expect(loaded).toEqual([1]);
    // The changes that waited were longer ago than MAX_WAIT_MS: asked at once, once.
    await advance(0);
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(2);
    await advance(TRADEABLE_MAX_WAIT_MS * 3);
    expect(loaded).toEqual([1, 2]);
    expect(calls).toHaveLength(2);
    feed.dispose();
  });

  it('a change while a request is out waits for it, then for the quiet time after the change', async () => {
    const { feed, calls } = feedUnderTest();
    feed.changed();
    await advance(TRADEABLE_DEBOUNCE_MS);
    feed.changed();
    await advance(50);
    calls[0]!.resolve(1);
    await advance(0);
    expect(calls).toHaveLength(1);
    await advance(TRADEABLE_DEBOUNCE_MS - 50);
    expect(calls).toHaveLength(2);
    feed.dispose();
  });

  it('reports a failure and asks again on the next change', async () => {
    const { feed, calls, failed, loaded } = feedUnderTest();
    feed.changed();
    await advance(TRADEABLE_DEBOUNCE_MS);
    calls[0]!.reject(new Error('down'));
    await advance(0);
    expect(failed).toHaveLength(1);
    feed.changed();
    await advance(TRADEABLE_DEBOUNCE_MS);
    calls[1]!.resolve(7);
    await advance(0);
    expect(loaded).toEqual([7]);
    feed.dispose();
  });

  it('once disposed, aborts the request out, drops its late answer and asks nothing more (the newer feed wins)', async () => {
    const { feed, calls, loaded, failed } = feedUnderTest();
    feed.changed();
    await advance(TRADEABLE_DEBOUNCE_MS);
    feed.changed();
    feed.dispose();
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.resolve(1);
    await advance(TRADEABLE_MAX_WAIT_MS * 2);
    feed.changed();
    await advance(TRADEABLE_MAX_WAIT_MS * 2);
    expect(loaded).toEqual([]);
    expect(failed).toEqual([]);
    expect(calls).toHaveLength(1);
  });
});
