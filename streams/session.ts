/**
 * The shared typed streams of one connection (ReactiveTraderCloud's shape): each destination is
 * subscribed once however many panels show it, and every consumer (the app's views and machines,
 * the recorded-session replays) takes its streams from here.
 *
 * `orderUpdates$` is the private order queue merged with the replies to the user's own order calls
 * (both carry the journal seq their state stands at), so the order that trades on entry reaches the
 * user's orders by whichever comes first.
 */
import { distinctUntilChanged, EMPTY, filter, map, merge, scan, share, shareReplay, startWith, type Observable } from 'rxjs';
import { clearingChangeSchema, type ClearingChange } from '../protocol/clearing.ts';
import { destinations } from '../protocol/destinations.ts';
import type { SessionPhase } from '../protocol/enums.ts';
import type { MarketWatchRow, Notification, OrderUpdate, OwnBest, SessionStats, Trade, Transaction } from '../protocol/market-data.ts';
import type { PhaseUpdate } from '../protocol/reference.ts';
import { book$, coalesceBookToFrame, type BookView } from './book.ts';
import type { Connection } from './connection.ts';
import { coalesceToFrame, type FrameScheduler } from './frame.ts';
import { foldMarketWatch, marketWatch$, myTrades$, notifications$, ownBest$, sessionPhase$, sessionStats$, trades$ } from './market-data.ts';
import { myOrders$ } from './orders.ts';

export interface SessionStreamsOptions {
  /** The replies to the user's own order calls (the app's orders API hands them over). */
  orderReplies$?: Observable<OrderUpdate>;
  /** When books and market watch tables are shown: once an animation frame by default. */
  frames?: FrameScheduler;
}

/** A market's session as its phase topic tells it: the market's phase, and the assets apart from it. */
export interface MarketSession {
  marketId: string;
  phase: SessionPhase;
  sessionDate: string;
  since: string;
  nextPhase: SessionPhase | null;
  nextPhaseAt: string | null;
  /** Assets whose phase is not the market's (an operator suspended or moved one alone). */
  assets: ReadonlyMap<string, SessionPhase>;
}

/**
 * Folds a market's phase updates. A market-level update sets every asset to the market's phase (the
 * engine applies it to all of them), so it clears the exceptions; an asset-level one sets its asset's.
 */
export function foldMarketSession(marketId: string) {
  return (session: MarketSession | null, update: PhaseUpdate): MarketSession | null => {
    if (update.marketId !== marketId) return session;
    const next = { nextPhase: update.nextPhase ?? null, nextPhaseAt: update.nextPhaseAt ?? null };
    if (update.assetId === null) {
      return { marketId, phase: update.phase, sessionDate: update.sessionDate, since: update.at, ...next, assets: new Map() };
    }
    if (!session) return null; // the market's own update always comes first
    const assets = new Map(session.assets);
    if (update.phase === session.phase) assets.delete(update.assetId);
    else assets.set(update.assetId, update.phase);
    return { ...session, ...next, assets };
  };
}

export function marketSessionFrom(updates: Observable<PhaseUpdate>, marketId: string): Observable<MarketSession | null> {
  return updates.pipe(scan<PhaseUpdate, MarketSession | null>(foldMarketSession(marketId), null), startWith<MarketSession | null>(null));
}

/** An asset's phase in its market's session; null until the market's phase is known. */
export function assetPhase(session: MarketSession | null, assetId: string): SessionPhase | null {
  if (!session) return null;
  return session.assets.get(assetId) ?? session.phase;
}

const replayLatest = <T>() => shareReplay<T>({ bufferSize: 1, refCount: true });
const noTrades: readonly Transaction[] = [];

export class SessionStreams {
  private readonly cache = new Map<string, Observable<unknown>>();

  constructor(
    readonly connection: Connection,
    private readonly options: SessionStreamsOptions = {},
  ) {}

  private get frameOptions() {
    return this.options.frames ? { scheduler: this.options.frames } : {};
  }

  private shared<T>(key: string, make: () => Observable<T>): Observable<T> {
    let stream = this.cache.get(key) as Observable<T> | undefined;
    if (!stream) {
      stream = make();
      this.cache.set(key, stream as Observable<unknown>);
    }
    return stream;
  }

  /** The private order queue alone (each subscriber sees the updates from then on). */
  get orderQueue$(): Observable<OrderUpdate> {
    return this.shared('orders:queue', () => myOrders$(this.connection).pipe(share()));
  }

  /** The order queue and the replies to the user's order calls. */
  get orderUpdates$(): Observable<OrderUpdate> {
    return this.shared('orders:updates', () => merge(this.orderQueue$, this.options.orderReplies$ ?? EMPTY).pipe(share()));
  }

  get myTrades$(): Observable<Transaction> {
    return this.shared('trades:mine', () => myTrades$(this.connection).pipe(share()));
  }

  /**
   * Every own trade received since the connection was made (kept for the whole session, so a panel
   * opened after a trade still shows it before the server's read model has it).
   */
  get myTradesList$(): Observable<readonly Transaction[]> {
    return this.shared('trades:mine:list', () =>
      this.myTrades$.pipe(
        scan((list, trade) => [...list, trade], noTrades),
        startWith(noTrades),
        shareReplay({ bufferSize: 1, refCount: false }),
      ),
    );
  }

  get notifications$(): Observable<Notification> {
    return this.shared('notifications', () => notifications$(this.connection).pipe(share()));
  }

  /** The clearing changes of the user's clients (settlements, payments, margin calls...): the account tabs refetch on them. */
  get clearingChanges$(): Observable<ClearingChange> {
    return this.shared('clearing', () => this.connection.watch$(destinations.clearing, clearingChangeSchema).pipe(share()));
  }

  get ownBest$(): Observable<ReadonlyMap<string, OwnBest>> {
    return this.shared('ownBest', () =>
      ownBest$(this.connection).pipe(
        scan((table, row) => new Map(table).set(row.assetId, row), new Map<string, OwnBest>() as ReadonlyMap<string, OwnBest>),
        startWith(new Map<string, OwnBest>() as ReadonlyMap<string, OwnBest>),
        replayLatest(),
      ),
    );
  }

  marketWatch$(marketId: string): Observable<readonly MarketWatchRow[]> {
    return this.shared(`mw:${marketId}`, () =>
      // One row a message, a message per asset every conflation window: fold them, then show at most one table a frame.
      foldMarketWatch(marketWatch$(this.connection, marketId)).pipe(coalesceToFrame(this.frameOptions), startWith([] as readonly MarketWatchRow[]), replayLatest()),
    );
  }

  book$(assetId: string): Observable<BookView> {
    return this.shared(`book:${assetId}`, () => book$(this.connection, assetId).pipe(coalesceBookToFrame(this.options.frames), replayLatest()));
  }

  stats$(assetId: string): Observable<SessionStats | null> {
    return this.shared(`stats:${assetId}`, () => sessionStats$(this.connection, assetId).pipe(startWith(null), replayLatest()));
  }

  trades$(assetId: string): Observable<Trade> {
    return this.shared(`trades:${assetId}`, () => trades$(this.connection, assetId).pipe(share()));
  }

  /** A market's session folded from its phase topic (one subscription for every widget and machine). */
  marketSession$(marketId: string): Observable<MarketSession | null> {
    return this.shared(`session:${marketId}`, () => marketSessionFrom(sessionPhase$(this.connection, marketId), marketId).pipe(replayLatest()));
  }

  /** The phase updates of the market (assetId null) or of one asset, as a session-phase machine takes them. */
  phaseUpdates$(marketId: string, assetId: string | null): Observable<PhaseUpdate> {
    return this.marketSession$(marketId).pipe(
      filter((session): session is MarketSession => session !== null),
      map((session): PhaseUpdate => ({
        marketId,
        assetId,
        phase: assetId === null ? session.phase : (assetPhase(session, assetId) ?? session.phase),
        sessionDate: session.sessionDate,
        at: session.since,
        nextPhase: session.nextPhase,
        nextPhaseAt: session.nextPhaseAt,
      })),
      distinctUntilChanged((a, b) => a.phase === b.phase && a.sessionDate === b.sessionDate && a.nextPhase === b.nextPhase && a.nextPhaseAt === b.nextPhaseAt),
    );
  }

  /** The public trades of an asset received while some panel shows them. */
  tradesList$(assetId: string): Observable<readonly Trade[]> {
    return this.shared(`trades:${assetId}:list`, () =>
      this.trades$(assetId).pipe(
        scan((list, trade) => [...list, trade], [] as readonly Trade[]),
        startWith([] as readonly Trade[]),
        replayLatest(),
      ),
    );
  }
}

const sessions = new WeakMap<Connection, SessionStreams>();

/** The session streams of a connection, made on first use. */
export function sessionStreams(connection: Connection, options?: SessionStreamsOptions): SessionStreams {
  let session = sessions.get(connection);
  if (!session) {
    session = new SessionStreams(connection, options);
    sessions.set(connection, session);
  }
  return session;
}
