/**
 * The account figures as a stream: loaded once, then again (debounced) whenever the user's own
 * orders or trades change, since those are what move positions, exposure and margins.
 */
import { useEffect, useState } from 'react';
import { debounceTime, EMPTY, merge, Observable, scan, startWith, switchMap } from 'rxjs';
import type { LimitsResponse, PositionsResponse } from '../../../protocol/account.ts';
import type { Connection } from '../../../streams/connection.ts';
import { useRealtime } from '../../realtime/RealtimeProvider.tsx';
import { sessionStreams } from '../../../streams/session.ts';
import { fetchLimits, fetchPositions } from './account-api.ts';

/** Quiet time after the last order or trade update before the figures are fetched again. */
export const ACCOUNT_REFRESH_DEBOUNCE_MS = 300;

export interface AccountFigures {
  positions: PositionsResponse | null;
  limits: LimitsResponse;
}

/** Data stays on screen while a refresh runs; an error keeps the last data it had. */
export interface FiguresState<T> {
  status: 'loading' | 'ready' | 'error';
  data: T | null;
  error: unknown;
}

type Outcome<T> = { ok: true; data: T } | { ok: false; error: unknown } | { ok: null };

/** One load as an observable: aborted when a newer refresh supersedes it or nobody listens. */
function load$<T>(load: (signal: AbortSignal) => Promise<T>): Observable<Outcome<T>> {
  return new Observable<Outcome<T>>((subscriber) => {
    const controller = new AbortController();
    subscriber.next({ ok: null });
    load(controller.signal).then(
      (data) => {
        subscriber.next({ ok: true, data });
        subscriber.complete();
      },
      (error: unknown) => {
        if (!controller.signal.aborted) subscriber.next({ ok: false, error });
        subscriber.complete();
      },
    );
    return () => controller.abort();
  });
}

/** Loads at once and on every `refresh$` value; the latest refresh wins (switchMap). */
export function figures$<T>(load: (signal: AbortSignal) => Promise<T>, refresh$: Observable<unknown>): Observable<FiguresState<T>> {
  const initial: FiguresState<T> = { status: 'loading', data: null, error: undefined };
  return refresh$.pipe(
    startWith(null),
    switchMap(() => load$(load)),
    scan<Outcome<T>, FiguresState<T>>((state, outcome) => {
      if (outcome.ok === null) return state.data === null ? { ...state, status: 'loading' } : state;
      return outcome.ok ? { status: 'ready', data: outcome.data, error: undefined } : { status: 'error', data: state.data, error: outcome.error };
    }, initial),
    startWith(initial),
  );
}

/** One refresh after a burst of updates has gone quiet (a replay of orders on subscribe is one burst). */
export function debouncedRefresh$(sources: readonly Observable<unknown>[], debounceMs = ACCOUNT_REFRESH_DEBOUNCE_MS): Observable<unknown> {
  return merge(...sources).pipe(debounceTime(debounceMs));
}

/** Own order updates and own trades: the moments the figures may have changed. */
export function accountRefresh$(connection: Connection | null, debounceMs = ACCOUNT_REFRESH_DEBOUNCE_MS): Observable<unknown> {
  if (!connection) return EMPTY;
  return debouncedRefresh$([sessionStreams(connection).orderQueue$, sessionStreams(connection).myTrades$], debounceMs);
}

export function loadAccountFigures(marketId: string | undefined, withPositions: boolean, signal: AbortSignal): Promise<AccountFigures> {
  return Promise.all([withPositions ? fetchPositions(marketId, signal) : Promise.resolve(null), fetchLimits(signal)]).then(([positions, limits]) => ({ positions, limits }));
}

/**
 * The figures of the account views, live. `reload` fetches again at once (after an error).
 * Without a STOMP connection they load once and stay as loaded.
 */
export function useAccountFigures(options: { marketId?: string | undefined; positions?: boolean } = {}): FiguresState<AccountFigures> & { reload: () => void } {
  const realtime = useRealtime();
  const connection = realtime?.connection ?? null;
  const { marketId, positions = true } = options;
  const [state, setState] = useState<FiguresState<AccountFigures>>({ status: 'loading', data: null, error: undefined });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const subscription = figures$((signal) => loadAccountFigures(marketId, positions, signal), accountRefresh$(connection)).subscribe(setState);
    return () => subscription.unsubscribe();
  }, [connection, marketId, positions, attempt]);
  return { ...state, reload: () => setAttempt((value) => value + 1) };
}
