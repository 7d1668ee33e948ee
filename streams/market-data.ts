/**
 * Thin typed streams over watch$: one function per destination of protocol/destinations.ts, each
 * parsing with its protocol schema. Cold: every subscriber has its own STOMP subscription; share
 * them (`share()`) where several views need the same one.
 */
import { map, scan, type Observable } from 'rxjs';
import { destinations } from '../protocol/destinations.ts';
import {
  assetActivitySchema,
  marketWatchRowSchema,
  notificationSchema,
  ownBestSchema,
  sessionStatsSchema,
  tradeSchema,
  transactionSchema,
  type AssetActivity,
  type MarketWatchRow,
  type Notification,
  type OwnBest,
  type SessionStats,
  type Trade,
  type Transaction,
} from '../protocol/market-data.ts';
import { phaseUpdateSchema, type PhaseUpdate } from '../protocol/reference.ts';
import type { Connection } from './connection.ts';

/** Market watch rows of a market, one per change. */
export function marketWatch$(connection: Connection, marketId: string): Observable<MarketWatchRow> {
  return connection.watch$(destinations.marketWatch(marketId), marketWatchRowSchema);
}

/** The user's own best bid and ask per asset. */
export function ownBest$(connection: Connection): Observable<OwnBest> {
  return connection.watch$(destinations.myMarketWatch, ownBestSchema);
}

/** Folds rows into a table keyed by asset, sorted by asset id; the latest row of an asset wins. */
export function foldMarketWatch(rows: Observable<MarketWatchRow>): Observable<readonly MarketWatchRow[]> {
  return rows.pipe(
    scan((table, row) => {
      const next = new Map(table);
      next.set(row.assetId, row);
      return next;
    }, new Map<string, MarketWatchRow>()),
    map((table) => [...table.values()].sort((a, b) => (a.assetId < b.assetId ? -1 : a.assetId > b.assetId ? 1 : 0))),
  );
}

/** Trades of an asset (public). */
export function trades$(connection: Connection, assetId: string): Observable<Trade> {
  return connection.watch$(destinations.trades(assetId), tradeSchema);
}

/** The user's own transactions, with both parties. */
export function myTrades$(connection: Connection): Observable<Transaction> {
  return connection.watch$(destinations.myTrades, transactionSchema);
}

/** Phase changes of a market and of its assets (assetId null: the whole market). */
export function sessionPhase$(connection: Connection, marketId: string): Observable<PhaseUpdate> {
  return connection.watch$(destinations.phase(marketId), phaseUpdateSchema);
}

/** Session statistics of an asset. */
export function sessionStats$(connection: Connection, assetId: string): Observable<SessionStats> {
  return connection.watch$(destinations.stats(assetId), sessionStatsSchema);
}

/** Asset activity: orders created, modified, traded, cancelled, delta-T start. */
export function assetActivity$(connection: Connection, assetId: string): Observable<AssetActivity> {
  return connection.watch$(destinations.activity(assetId), assetActivitySchema);
}

export function notifications$(connection: Connection): Observable<Notification> {
  return connection.watch$(destinations.notifications, notificationSchema);
}
