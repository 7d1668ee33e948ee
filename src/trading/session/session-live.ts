/**
 * The session widgets' streams, shared per connection like live.ts's (one STOMP subscription per
 * destination however many widgets show it): each market's phases folded, each asset's delta-T period
 * from its activity, and the user's trades on an asset (REST list plus live ones).
 */
import { useEffect, useMemo, useState } from 'react';
import { distinctUntilChanged, map, scan, shareReplay, startWith, type Observable } from 'rxjs';
import { transactionListSchema, type AssetActivity, type Transaction } from '../../../protocol/market-data.ts';
import type { PhaseUpdate } from '../../../protocol/reference.ts';
import type { Connection } from '../../../streams/connection.ts';
import { assetActivity$ } from '../../../streams/market-data.ts';
import { sessionStreams, type MarketSession } from '../../../streams/session.ts';
import { authedRequest } from '../../api/http.ts';
import { useLive, useMyTradesList } from '../live.ts';
import { mergeTransactions } from '../TransactionsPanel.tsx';
import { clock$ } from './clock.ts';

const cache = new WeakMap<Connection, Map<string, Observable<unknown>>>();

function shared<T>(connection: Connection, key: string, make: () => Observable<T>): Observable<T> {
  let streams = cache.get(connection);
  if (!streams) cache.set(connection, (streams = new Map()));
  let stream = streams.get(key) as Observable<T> | undefined;
  if (!stream) streams.set(key, (stream = make()) as Observable<unknown>);
  return stream;
}

const replayLatest = <T>() => shareReplay<T>({ bufferSize: 1, refCount: true });

// --- Phases ------------------------------------------------------------------------------------

// The fold of a market's phases lives with the session streams; these names stay for the widgets.
export { assetPhase, foldMarketSession, type MarketSession } from '../../../streams/session.ts';

export function sharedMarketSession(connection: Connection, marketId: string): Observable<MarketSession | null> {
  return sessionStreams(connection).marketSession$(marketId);
}

/**
 * The phase updates a session-phase machine of the market (assetId null) or of one asset needs, from
 * the shared fold: every widget of a market shares one subscription of its phase topic.
 */
export function sessionPhaseUpdates(connection: Connection, marketId: string, assetId: string | null): Observable<PhaseUpdate> {
  return sessionStreams(connection).phaseUpdates$(marketId, assetId);
}

export function useMarketSession(marketId: string): MarketSession | null {
  return useLive((connection) => sharedMarketSession(connection, marketId), [marketId], null);
}

// --- Delta T -----------------------------------------------------------------------------------

/** The latest delta-T period of an asset: running until `endsAt`, when the match executes. */
export interface DeltaTPeriod {
  assetId: string;
  /** ISO instant the match executes. */
  endsAt: string;
  /** The crossing price the period started (or was restarted) with; null when not sent. */
  price: number | null;
  startedAt: string;
  /** When the match was seen executing (its first trade), null before. */
  endedAt: string | null;
}

/**
 * Each deltaTStart (a competing order restarts the period with a new one) replaces the period. Nothing
 * of the asset trades while a period runs, so its first trade is the match: the period is over, whatever
 * this machine's clock says about `endsAt`.
 */
export function foldDeltaT(period: DeltaTPeriod | null, activity: AssetActivity): DeltaTPeriod | null {
  if (activity.type === 'deltaTStart' && activity.endsAt !== null) {
    return { assetId: activity.assetId, endsAt: activity.endsAt, price: activity.price, startedAt: activity.at, endedAt: null };
  }
  const traded = activity.type === 'orderTraded' || activity.type === 'orderTradedPartially';
  if (traded && period !== null && period.endedAt === null && activity.at >= period.startedAt) return { ...period, endedAt: activity.at };
  return period;
}

export function deltaTFrom(activities: Observable<AssetActivity>): Observable<DeltaTPeriod | null> {
  return activities.pipe(scan<AssetActivity, DeltaTPeriod | null>(foldDeltaT, null), startWith<DeltaTPeriod | null>(null));
}

export function sharedDeltaT(connection: Connection, assetId: string): Observable<DeltaTPeriod | null> {
  return shared(connection, `deltaT:${assetId}`, () => deltaTFrom(assetActivity$(connection, assetId)).pipe(replayLatest()));
}

export function useDeltaT(assetId: string): DeltaTPeriod | null {
  return useLive((connection) => sharedDeltaT(connection, assetId), [assetId], null);
}

/** True once `until` has passed, by the shared clock: re-renders its component once, not every second. */
export function useIsPast(until: string | null, clock: Observable<number> = clock$): boolean {
  const end = until === null ? NaN : Date.parse(until);
  const [past, setPast] = useState(() => Number.isFinite(end) && Date.now() >= end);
  useEffect(() => {
    if (!Number.isFinite(end)) return undefined;
    const subscription = clock.pipe(map((now) => now >= end), distinctUntilChanged()).subscribe(setPast);
    return () => subscription.unsubscribe();
  }, [end, clock]);
  return Number.isFinite(end) && past;
}

// --- Own trades ----------------------------------------------------------------------------------


/** The server's most: a session's own trades on one asset fit (GET /transactions caps `limit` at 1000). */
export const SESSION_TRADES_LIMIT = 1000;

export function fetchOwnAssetTrades(assetId: string, signal?: AbortSignal): Promise<Transaction[]> {
  const query = new URLSearchParams({ scope: 'mine', assetId, limit: String(SESSION_TRADES_LIMIT) });
  return authedRequest(`/transactions?${query.toString()}`, (body) => transactionListSchema.safeParse(body).data?.items ?? null, signal ? { signal } : {});
}

/** The user's trades on an asset: the server's list, then the live ones (null while loading). */
export function useOwnAssetTrades(assetId: string): Transaction[] | null {
  const live = useMyTradesList();
  const [fetched, setFetched] = useState<{ assetId: string; items: Transaction[] } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchOwnAssetTrades(assetId, controller.signal)
      .then((items) => setFetched({ assetId, items }))
      .catch(() => !controller.signal.aborted && setFetched({ assetId, items: [] }));
    return () => controller.abort();
  }, [assetId]);
  return useMemo(() => {
    if (fetched?.assetId !== assetId) return null;
    return mergeTransactions(fetched.items, live.filter((trade) => trade.assetId === assetId)) as Transaction[];
  }, [fetched, live, assetId]);
}
