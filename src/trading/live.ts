/**
 * The trading screens' hooks over the session: the shared streams of streams/session.ts (one STOMP
 * subscription per destination however many panels show it) and the user's orders from the
 * my-orders machine the realtime provider runs per connection. Views select; they do not fold.
 */
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { of, type Observable } from 'rxjs';
import { createActor } from 'xstate';
import { myOrdersMachine, selectOpenOrders, type MyOrdersSnapshot, type OpenOrder } from '../../machines/my-orders.machine.ts';
import { referenceMachine, selectAssets, selectMarkets } from '../../machines/reference.machine.ts';
import type { AssetSpecification, Market } from '../../protocol/reference.ts';
import type { ClientError } from '../../streams/api.ts';
import type { MarketWatchRow, Order, OwnBest, SessionStats, Trade, Transaction } from '../../protocol/market-data.ts';
import { emptyBook, type BookView } from '../../streams/book.ts';
import type { Connection } from '../../streams/connection.ts';
import { sessionStreams, type SessionStreams } from '../../streams/session.ts';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';

/** The session streams of the connection (made by the realtime provider, with the order replies). */
function streamsOf(connection: Connection): SessionStreams {
  return sessionStreams(connection);
}

const noTrades: readonly Transaction[] = [];

export function useMyTradesList(): readonly Transaction[] {
  return useLive((connection) => streamsOf(connection).myTradesList$, [], noTrades);
}

const noPublicTrades: readonly Trade[] = [];
export function useTradesList(assetId: string | undefined): readonly Trade[] {
  return useLive((connection) => (assetId ? streamsOf(connection).tradesList$(assetId) : of(noPublicTrades)), [assetId], noPublicTrades);
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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `deps` is the caller's dependency list for `make`, passed on like useEffect's own
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
  // eslint-disable-next-line react-hooks/exhaustive-deps, react-hooks/use-memo -- `deps` is the caller's list for `make` (as in useLive); `initial` only counts before the first value
  const store = useMemo(() => liveStore(connection ? make(connection) : null, initial), [connection, ...deps]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

export function useBook(assetId: string): BookView {
  return useLiveSync((connection) => streamsOf(connection).book$(assetId), [assetId], emptyBook(assetId));
}

const noOpenOrders: readonly OpenOrder[] = [];
const openOrdersOf = memoizeByOrders(selectOpenOrders);
const noMyOrders = createActor(myOrdersMachine).start();

/**
 * The user's open orders (on the book or suspended) with the actions each one's lifecycle allows,
 * from the my-orders machine: never an order the server has reported traded or cancelled.
 */
export function useMyOpenOrders(): readonly OpenOrder[] {
  const realtime = useRealtime();
  const open = useSelector(realtime?.myOrders ?? noMyOrders, openOrdersOf);
  return realtime ? open : noOpenOrders;
}

const ordersOf = memoizeByOrders((snapshot: MyOrdersSnapshot) => openOrdersOf(snapshot).map((entry) => entry.order));
const noOrders: readonly Order[] = [];
/** The user's open orders (see useMyOpenOrders). */
export function useMyOrders(): readonly Order[] {
  const realtime = useRealtime();
  const orders = useSelector(realtime?.myOrders ?? noMyOrders, ordersOf);
  return realtime ? orders : noOrders;
}

const idleReference = createActor(referenceMachine).start();

export interface SessionReference {
  markets: readonly Market[];
  assets: readonly AssetSpecification[];
  status: 'loading' | 'ready' | 'failed';
  error: ClientError | null;
  retry: () => void;
}

/** The session's reference data (markets, assets) from the session machine, with its load state. */
export function useSessionReference(): SessionReference {
  const realtime = useRealtime();
  const actor = realtime?.session.getSnapshot().context.reference ?? idleReference;
  const markets = useSelector(actor, selectMarkets);
  const assets = useSelector(actor, selectAssets);
  const status = useSelector(actor, (snapshot) => snapshot.value as SessionReference['status']);
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  return useMemo(
    () => ({ markets, assets, status: realtime ? status : 'loading', error, retry: () => actor.send({ type: 'RETRY' }) }),
    [markets, assets, status, error, actor, realtime],
  );
}

/** A selector that computes again only when the machine's order map changes. */
function memoizeByOrders<T>(select: (snapshot: MyOrdersSnapshot) => T): (snapshot: MyOrdersSnapshot) => T {
  let lastOrders: MyOrdersSnapshot['context']['orders'] | null = null;
  let last: T;
  return (snapshot) => {
    if (snapshot.context.orders !== lastOrders) {
      lastOrders = snapshot.context.orders;
      last = select(snapshot);
    }
    return last;
  };
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
  const pushed = useLive((connection) => streamsOf(connection).ownBest$, [], noOwnBest);
  const orders = useMyOrders();
  return useMemo(() => ownBestFromOrders(orders, pushed), [orders, pushed]);
}

const noRows: readonly MarketWatchRow[] = [];
export function useMarketWatch(marketId: string): readonly MarketWatchRow[] {
  return useLive((connection) => streamsOf(connection).marketWatch$(marketId), [marketId], noRows);
}

export function useStats(assetId: string): SessionStats | null {
  return useLive((connection) => streamsOf(connection).stats$(assetId), [assetId], null);
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
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a clock that starts again reads the time at once, not `ms` later
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
  return now;
}
