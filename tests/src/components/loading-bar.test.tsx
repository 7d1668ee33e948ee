// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoadingBar } from '../../../src/components/LoadingBar.tsx';
import {
  LOADING_BAR_DURATION_MS,
  LOADING_BAR_HIDE_MS,
  LOADING_BAR_THROTTLE_MS,
  LoadingBarController,
} from '../../../src/components/loading-bar.ts';
import { WithIntl } from './intl.tsx';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function controller() {
  return new LoadingBarController({ now: () => Date.now() });
}

describe('loading bar (SPEC §9: 5000 ms duration, 200 ms throttle)', () => {
  it('uses the SPEC values', () => {
    expect(LOADING_BAR_DURATION_MS).toBe(5000);
    expect(LOADING_BAR_THROTTLE_MS).toBe(200);
  });

  it('never appears for work that ends within the throttle', () => {
    const bar = controller();
    const done = bar.start();
    vi.advanceTimersByTime(LOADING_BAR_THROTTLE_MS - 1);
    expect(bar.getSnapshot().visible).toBe(false);
    done();
    vi.advanceTimersByTime(10_000);
    expect(bar.getSnapshot().visible).toBe(false);
  });

  it('appears after the throttle and fills over the duration, never full before the work is done', () => {
    const bar = controller();
    const done = bar.start();
    vi.advanceTimersByTime(LOADING_BAR_THROTTLE_MS);
    expect(bar.getSnapshot()).toEqual({ visible: true, progress: 0 });
    vi.advanceTimersByTime(LOADING_BAR_DURATION_MS / 2);
    expect(bar.getSnapshot().progress).toBeCloseTo(50, 0);
    vi.advanceTimersByTime(LOADING_BAR_DURATION_MS * 2);
    expect(bar.getSnapshot().progress).toBeGreaterThan(90);
    expect(bar.getSnapshot().progress).toBeLessThan(100);
    done();
    expect(bar.getSnapshot()).toEqual({ visible: true, progress: 100 });
    vi.advanceTimersByTime(LOADING_BAR_HIDE_MS);
    expect(bar.getSnapshot()).toEqual({ visible: false, progress: 0 });
  });

  it('stays until the last of overlapping pieces of work ends; done() counts once', () => {
    const bar = controller();
    const first = bar.start();
    const second = bar.start();
    vi.advanceTimersByTime(LOADING_BAR_THROTTLE_MS);
    first();
    first();
    expect(bar.isLoading).toBe(true);
    expect(bar.getSnapshot().progress).toBeLessThan(100);
    second();
    expect(bar.isLoading).toBe(false);
    expect(bar.getSnapshot().progress).toBe(100);
  });

  it('tracks a promise', async () => {
    const bar = controller();
    let resolve!: (value: string) => void;
    const tracked = bar.track(new Promise<string>((r) => (resolve = r)));
    vi.advanceTimersByTime(LOADING_BAR_THROTTLE_MS + 100);
    expect(bar.getSnapshot().visible).toBe(true);
    resolve('ok');
    await expect(tracked).resolves.toBe('ok');
    expect(bar.getSnapshot().progress).toBe(100);
  });

  it('renders a progressbar only while visible', () => {
    const bar = controller();
    render(
      <WithIntl>
        <LoadingBar controller={bar} />
      </WithIntl>,
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    let done!: () => void;
    act(() => {
      done = bar.start();
    });
    act(() => void vi.advanceTimersByTime(LOADING_BAR_THROTTLE_MS - 1));
    expect(screen.queryByRole('progressbar')).toBeNull();
    act(() => void vi.advanceTimersByTime(1 + 2500));
    const progress = screen.getByRole('progressbar', { name: 'Loading…' });
    expect(Number(progress.getAttribute('aria-valuenow'))).toBeCloseTo(50, -1);
    act(() => done());
    act(() => void vi.advanceTimersByTime(LOADING_BAR_HIDE_MS));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
