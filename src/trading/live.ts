/**
 * The trading screens' view of the STOMP channel: the streams of streams/ shared per connection (one
 * STOMP subscription per destination however many panels show it) and small hooks over them.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { map, of, scan, share, shareReplay, startWith, type Observable } from 'rxjs';
import type { MarketWatchRow, Order, OrderUpdate, OwnBest, SessionStats, Trade, Transaction } from '../../protocol/market-data.ts';
import { book$, coalesceBookToFrame, emptyBook, type BookView } from '../../streams/book.ts';
import { coalesceToFrame } from '../../streams/frame.ts';
import type { Connection } from '../../streams/connection.ts';
import { foldMarketWatch, marketWatch$, myTrades$, ownBest$, sessionStats$, trades$ } from '../../streams/market-data.ts';
import { foldOrders, myOrders$ } from '../../streams/orders.ts';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';

const cache = new WeakMap<Connection, Map<string, Observable<unknown>>>();

function shared<T>(connection: Connection, key: string, make: () => Observable<T>): Observable<T> {
  let streams = cache.get(connection);
  if (!streams) {
    streams = new Map();
    cache.set(connection, streams);
  }
  let stream = streams.get(key) as Observable<T> | undefined;
  if (!stream) {
    stream = make();
    streams.set(key, stream as Observable<unknown>);
  }
  return stream;
}

const replayLatest = <T>() => shareReplay<T>({ bufferSize: 1, refCount: true });

/** Raw own order updates (each subscriber of the shared stream sees the updates from then on). */
export function sharedOrderUpdates(connection: Connection): Observable<OrderUpdate> {
  return shared(connection, 'orders:raw', () => myOrders$(connection).pipe(share()));
}

/** Own orders by id, folded (the server sends the live ones on subscribe). */
export function sharedMyOrders(connection: Connection): Observable<readonly Order[]> {
  return shared(connection, 'orders', () =>
    foldOrders(myOrders$(connection)).pipe(
      map((orders) => [...orders.values()].map((entry) => entry.order)),
      startWith([] as readonly Order[]),
      replayLatest(),
    ),
  );
}

export function sharedMyTrades(connection: Connection): Observable<Transaction> {
  return shared(connection, 'trades:mine', () => myTrades$(connection).pipe(share()));
}

const noTrades: readonly Transaction[] = [];

/**
 * Every own trade received since the connection was made (kept for the whole session, so a panel
 * opened after a trade still shows it before the server's read model has it).
 */
export function sharedMyTradesList(connection: Connection): Observable<readonly Transaction[]> {
  return shared(connection, 'trades:mine:list', () =>
    sharedMyTrades(connection).pipe(
      scan((list, trade) => [...list, trade], noTrades),
      startWith(noTrades),
      shareReplay({ bufferSize: 1, refCount: false }),
    ),
  );
}

/** The public trades of an asset received while some panel shows them. */
export function sharedTradesList(connection: Connection, assetId: string): Observable<readonly Trade[]> {
  return shared(connection, `trades:${assetId}:list`, () =>
    sharedTrades(connection, assetId).pipe(
      scan((list, trade) => [...list, trade], [] as readonly Trade[]),
      startWith([] as readonly Trade[]),
      replayLatest(),
    ),
  );
}

export function useMyTradesList(): readonly Transaction[] {
  return useLive((connection) => sharedMyTradesList(connection), [], noTrades);
}

const noPublicTrades: readonly Trade[] = [];
export function useTradesList(assetId: string | undefined): readonly Trade[] {
  return useLive((connection) => (assetId ? sharedTradesList(connection, assetId) : of(noPublicTrades)), [assetId], noPublicTrades);
}

export function sharedOwnBest(connection: Connection): Observable<ReadonlyMap<string, OwnBest>> {
  return shared(connection, 'ownBest', () =>
    ownBest$(connection).pipe(
      scan((table, row) => new Map(table).set(row.assetId, row), new Map<string, OwnBest>() as ReadonlyMap<string, OwnBest>),
      startWith(new Map<string, OwnBest>() as ReadonlyMap<string, OwnBest>),
      replayLatest(),
    ),
  );
}

export function sharedMarketWatch(connection: Connection, marketId: string): Observable<readonly MarketWatchRow[]> {
  return shared(connection, `mw:${marketId}`, () =>
    // One row a message, a message per asset every conflation window: fold them, then show at most one table a frame.
    foldMarketWatch(marketWatch$(connection, marketId)).pipe(coalesceToFrame(), startWith([] as readonly MarketWatchRow[]), replayLatest()),
  );
}

export function sharedBook(connection: Connection, assetId: string): Observable<BookView> {
  return shared(connection, `book:${assetId}`, () => book$(connection, assetId).pipe(coalesceBookToFrame(), replayLatest()));
}

export function sharedStats(connection: Connection, assetId: string): Observable<SessionStats | null> {
  return shared(connection, `stats:${assetId}`, () => sessionStats$(connection, assetId).pipe(startWith(null), replayLatest()));
}

export function sharedTrades(connection: Connection, assetId: string): Observable<Trade> {
  return shared(connection, `trades:${assetId}`, () => trades$(connection, assetId).pipe(share()));
}

/** The latest value of a stream made from the current connection; `initial` without a connection. */
export function useLive<T>(make: (connection: Connection) => Observable<T>, deps: readonly unknown[], initial: T): T {
  const realtime = useRealtime();
  const connection = realtime?.connection ?? null;
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    if (!connection) return undefined;
    const subscription = make(connection).subscribe(setValue);
    return () => subscription.unsubscribe();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [connection, ...deps]);
  return value;
}

/** A stream's latest value as an external store (subscribed while some component reads it). */
function liveStore<T>(source: Observable<T> | null, initial: T): { subscribe(onChange: () => void): () => void; getSnapshot(): T } {
  let current = initial;
  return {
    subscribe(onChange) {
      if (!source) return () => {};
      const subscription = source.subscribe((value) => {
        current = value;
        onChange();
      });
      return () => subscription.unsubscribe();
    },
    getSnapshot: () => current,
  };
}

/**
 * Like useLive, through useSyncExternalStore: React renders such an update synchronously (in the
 * microtask after the emitting callback), so a book emitted in an animation frame is on screen in that
 * frame; a useState update would render in a task after the frame and wait for the next one.
 */
export function useLiveSync<T>(make: (connection: Connection) => Observable<T>, deps: readonly unknown[], initial: T): T {
  const realtime = useRealtime();
  const connection = realtime?.connection ?? null;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const store = useMemo(() => liveStore(connection ? make(connection) : null, initial), [connection, ...deps]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

export function useBook(assetId: string): BookView {
  return useLiveSync((connection) => sharedBook(connection, assetId), [assetId], emptyBook(assetId));
}

const noOrders: readonly Order[] = [];
export function useMyOrders(): readonly Order[] {
  return useLive((connection) => sharedMyOrders(connection), [], noOrders);
}

/**
 * Own best bid and ask per asset from the own orders (which the server sends on subscribe), so they
 * are there as soon as a page opens; ownBest$ (sent only when own orders change) fills in the assets
 * without an own order seen yet.
 */
export function ownBestFromOrders(orders: readonly Order[], pushed: ReadonlyMap<string, OwnBest> = new Map()): ReadonlyMap<string, OwnBest> {
  const table = new Map(pushed);
  const seen = new Set<string>();
  for (const order of orders) {
    const current = seen.has(order.assetId) ? table.get(order.assetId)! : { assetId: order.assetId, ownBestBid: null, ownBestAsk: null, lastUpdate: order.lastModifiedAt };
    seen.add(order.assetId);
    let { ownBestBid, ownBestAsk } = current;
    if (isLiveOrder(order) && !order.suspended && order.price !== null) {
      if (order.way === 'bid' && (ownBestBid === null || order.price > ownBestBid)) ownBestBid = order.price;
      if (order.way === 'ask' && (ownBestAsk === null || order.price < ownBestAsk)) ownBestAsk = order.price;
    }
    const lastUpdate = order.lastModifiedAt > current.lastUpdate ? order.lastModifiedAt : current.lastUpdate;
    table.set(order.assetId, { assetId: order.assetId, ownBestBid, ownBestAsk, lastUpdate });
  }
  return table;
}

const noOwnBest: ReadonlyMap<string, OwnBest> = new Map();
export function useOwnBest(): ReadonlyMap<string, OwnBest> {
  const pushed = useLive((connection) => sharedOwnBest(connection), [], noOwnBest);
  const orders = useMyOrders();
  return useMemo(() => ownBestFromOrders(orders, pushed), [orders, pushed]);
}

const noRows: readonly MarketWatchRow[] = [];
export function useMarketWatch(marketId: string): readonly MarketWatchRow[] {
  return useLive((connection) => sharedMarketWatch(connection, marketId), [marketId], noRows);
}

export function useStats(assetId: string): SessionStats | null {
  return useLive((connection) => sharedStats(connection, assetId), [assetId], null);
}

/** Orders still working: on the book or suspended. */
export function isLiveOrder(order: Order): boolean {
  return order.status === 'created' || order.status === 'modified' || order.status === 'tradedPartially';
}

/** A clock for ages and countdowns, ticking every `ms` while `active`. */
export function useNow(active: boolean, ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
  return now;
}
