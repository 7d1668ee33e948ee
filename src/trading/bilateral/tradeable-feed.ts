/**
 * When the book asks again what the clients may trade with: after the book (or the whitelist) changed,
 * debounced (DEBOUNCE_MS after the last change, but at most MAX_WAIT_MS after the first one, so a
 * book that moves all the time is still followed), with at most one request in flight: changes that
 * come while one is out make exactly one more request when it is back. One feed serves one asset and
 * client; a new one replaces it (dispose), and a late answer of a disposed feed is dropped, so the
 * latest request wins.
 */

/** Quiet time after the last change before asking. */
export const TRADEABLE_DEBOUNCE_MS = 250;
/** The longest a change waits for its request while the book keeps moving. */
export const TRADEABLE_MAX_WAIT_MS = 1_000;

export interface TradeableFeedOptions<T> {
  load: (signal: AbortSignal) => Promise<T>;
  onLoaded: (value: T) => void;
  onFailed: (error: unknown) => void;
  debounceMs?: number;
  maxWaitMs?: number;
}

export interface TradeableFeed {
  /** Something changed: ask again (debounced). */
  changed(): void;
  dispose(): void;
}

export function createTradeableFeed<T>({ load, onLoaded, onFailed, debounceMs = TRADEABLE_DEBOUNCE_MS, maxWaitMs = TRADEABLE_MAX_WAIT_MS }: TradeableFeedOptions<T>): TradeableFeed {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight: AbortController | null = null;
  /** When the oldest change not asked about yet came (null: none waits). */
  let pendingSince: number | null = null;
  let lastChange = 0;
  let disposed = false;

  const schedule = (): void => {
    if (timer !== null) clearTimeout(timer);
    const due = Math.min(lastChange + debounceMs, (pendingSince ?? lastChange) + maxWaitMs);
    timer = setTimeout(fire, Math.max(0, due - Date.now()));
  };

  function fire(): void {
    timer = null;
    pendingSince = null;
    const controller = new AbortController();
    inFlight = controller;
    load(controller.signal).then(
      (value) => {
        if (!disposed) onLoaded(value);
      },
      (error: unknown) => {
        if (!disposed) onFailed(error);
      },
    ).finally(() => {
      inFlight = null;
      if (!disposed && pendingSince !== null) schedule();
    });
  }

  return {
    changed() {
      if (disposed) return;
      lastChange = Date.now();
      pendingSince ??= lastChange;
      if (inFlight === null) schedule();
    },
    dispose() {
      disposed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      inFlight?.abort();
    },
  };
}
