/**
 * Clearing data that stays current: loaded once, then again whenever the private clearing queue
 * (/user/queue/clearing, one shared subscription of the app's one connection) says something of the
 * kinds a view shows has changed. No reload, no second socket.
 */
import { useEffect, useState } from 'react';
import { EMPTY, filter, merge, type Observable } from 'rxjs';
import type { ClearingChange } from '../../protocol/clearing.ts';
import type { Connection } from '../../streams/connection.ts';
import { sessionStreams } from '../../streams/session.ts';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';
import { accountRefresh$, debouncedRefresh$, figures$, type FiguresState } from '../trading/account/account-figures.ts';

export type ClearingChangeKind = ClearingChange['kind'];

/** A burst of changes (a settlement run touches many clients) refetches once. */
const CLEARING_REFRESH_DEBOUNCE_MS = 300;

/** The moments a view showing `kinds` may have changed; with `withTrading`, own orders and trades too (margins move with them). */
export function clearingRefresh$(connection: Connection | null, kinds: readonly ClearingChangeKind[], withTrading = false, debounceMs = CLEARING_REFRESH_DEBOUNCE_MS): Observable<unknown> {
  if (!connection) return EMPTY;
  const changes = sessionStreams(connection).clearingChanges$.pipe(filter((change) => kinds.includes(change.kind)));
  return merge(debouncedRefresh$([changes], debounceMs), withTrading ? accountRefresh$(connection) : EMPTY);
}

/** Loads with `load`, again on the clearing changes of `kinds`; `reload` retries at once (after an error). */
export function useClearingData<T>(
  load: (signal: AbortSignal) => Promise<T>,
  kinds: readonly ClearingChangeKind[],
  options: { withTrading?: boolean } = {},
): FiguresState<T> & { reload: () => void } {
  const realtime = useRealtime();
  const connection = realtime?.connection ?? null;
  const [state, setState] = useState<FiguresState<T>>({ status: 'loading', data: null, error: undefined });
  const [attempt, setAttempt] = useState(0);
  const kindsKey = kinds.join(',');
  const withTrading = options.withTrading ?? false;
  useEffect(() => {
    const subscription = figures$(load, clearingRefresh$(connection, kindsKey.split(',') as ClearingChangeKind[], withTrading)).subscribe(setState);
    return () => subscription.unsubscribe();
    // `load` is a module-level fetcher (or stable per view); the kinds are compared by value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [connection, kindsKey, withTrading, attempt]);
  return { ...state, reload: () => setAttempt((value) => value + 1) };
}
