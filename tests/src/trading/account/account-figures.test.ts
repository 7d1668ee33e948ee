import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { debouncedRefresh$, figures$, type FiguresState } from '../../../../src/trading/account/account-figures.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** A loader whose calls resolve or fail when the test says so. */
function controlledLoader() {
  const calls: Array<{ signal: AbortSignal; resolve: (value: number) => void; reject: (error: unknown) => void }> = [];
  const load = (signal: AbortSignal) =>
    new Promise<number>((resolve, reject) => {
      calls.push({ signal, resolve, reject });
    });
  return { calls, load };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('account figures stream', () => {
  it('loads at once, again on each refresh, and keeps the data while it reloads', async () => {
    const { calls, load } = controlledLoader();
    const refresh = new Subject<void>();
    const states: Array<FiguresState<number>> = [];
    const subscription = figures$(load, refresh).subscribe((state) => states.push(state));
    expect(calls).toHaveLength(1);
    expect(states.at(-1)).toMatchObject({ status: 'loading', data: null });
    calls[0]!.resolve(1);
    await flush();
    expect(states.at(-1)).toMatchObject({ status: 'ready', data: 1 });

    refresh.next();
    expect(calls).toHaveLength(2);
    expect(states.at(-1)).toMatchObject({ status: 'ready', data: 1 });
    calls[1]!.resolve(2);
    await flush();
    expect(states.at(-1)).toMatchObject({ status: 'ready', data: 2 });
    subscription.unsubscribe();
  });

  it('aborts a load a newer refresh supersedes, and ignores its late answer', async () => {
    const { calls, load } = controlledLoader();
    const refresh = new Subject<void>();
    const states: Array<FiguresState<number>> = [];
    const subscription = figures$(load, refresh).subscribe((state) => states.push(state));
    refresh.next();
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[1]!.resolve(20);
    calls[0]!.resolve(10);
    await flush();
    expect(states.at(-1)).toMatchObject({ status: 'ready', data: 20 });
    subscription.unsubscribe();
    refresh.next();
    expect(calls).toHaveLength(2);
  });

  it('reports an error and keeps the last figures', async () => {
    const { calls, load } = controlledLoader();
    const refresh = new Subject<void>();
    const states: Array<FiguresState<number>> = [];
    const subscription = figures$(load, refresh).subscribe((state) => states.push(state));
    calls[0]!.resolve(7);
    await flush();
    refresh.next();
    calls[1]!.reject(new Error('down'));
    await flush();
    expect(states.at(-1)).toMatchObject({ status: 'error', data: 7 });
    expect((states.at(-1)!.error as Error).message).toBe('down');
    subscription.unsubscribe();
  });

  it('refreshes once after a burst of order and trade updates has gone quiet', () => {
    vi.useFakeTimers();
    const orders = new Subject<string>();
    const trades = new Subject<string>();
    const seen: unknown[] = [];
    const subscription = debouncedRefresh$([orders, trades], 300).subscribe((value) => seen.push(value));
    orders.next('o1');
    vi.advanceTimersByTime(200);
    trades.next('t1');
    vi.advanceTimersByTime(200);
    orders.next('o2');
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(300);
    expect(seen).toEqual(['o2']);
    trades.next('t2');
    vi.advanceTimersByTime(300);
    expect(seen).toEqual(['o2', 't2']);
    subscription.unsubscribe();
  });
});
