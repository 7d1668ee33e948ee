/**
 * Order book of one asset: the snapshot sent on subscribe, then deltas with a contiguous `seq`.
 *
 * Staleness rules (docs/client-core.md):
 * - before the first snapshot the book is stale ('loading');
 * - a delta whose seq is not last + 1 is a gap: the book turns stale at once (an emission), the
 *   subscription is dropped and made again, and the fresh snapshot clears it; no delta is ever
 *   applied across a gap, and every delta that arrives while waiting for a snapshot is dropped;
 * - the connection leaving `connected` turns the book stale at once ('reconnect'); the connection
 *   restores the subscription after the reconnect and the new snapshot clears it;
 * - inbound silence longer than the heart-beat turns the book stale at once ('silence') and
 *   resubscribes.
 */
import { Observable, type Subscription } from 'rxjs';
import { bookMessageSchema, type BookDelta, type BookLevel, type BookSnapshot } from '../protocol/market-data.ts';
import { destinations } from '../protocol/destinations.ts';
import type { Connection } from './connection.ts';
import { coalesceToFrame, type FrameScheduler } from './frame.ts';

export type StaleReason = 'loading' | 'gap' | 'reconnect' | 'silence';

export interface BookView {
  assetId: string;
  /** Sequence of the last change applied; null before the first snapshot. */
  seq: number | null;
  /** Best first: bids by price descending. */
  bids: readonly BookLevel[];
  /** Best first: asks by price ascending. */
  asks: readonly BookLevel[];
  /** True while the book is known to be behind the server: do not trade on it. */
  stale: boolean;
  staleReason: StaleReason | null;
  /** Server time of the last change applied. */
  at: string | null;
  /** Snapshots taken so far (the first one included). */
  snapshots: number;
  /** Gaps detected so far. */
  gaps: number;
  /** Deltas dropped because they arrived while waiting for a snapshot. */
  droppedDeltas: number;
}

export function emptyBook(assetId: string): BookView {
  return { assetId, seq: null, bids: [], asks: [], stale: true, staleReason: 'loading', at: null, snapshots: 0, gaps: 0, droppedDeltas: 0 };
}

const bidOrder = (a: BookLevel, b: BookLevel): number => b.price - a.price;
const askOrder = (a: BookLevel, b: BookLevel): number => a.price - b.price;

/** Replaces the levels with a snapshot's (sorted best first, empty levels dropped). */
export function applySnapshot(view: BookView, snapshot: BookSnapshot): BookView {
  return {
    ...view,
    seq: snapshot.seq,
    bids: snapshot.bids.filter((l) => l.qty > 0).sort(bidOrder),
    asks: snapshot.asks.filter((l) => l.qty > 0).sort(askOrder),
    stale: false,
    staleReason: null,
    at: snapshot.at,
    snapshots: view.snapshots + 1,
  };
}

/** Sets one level in a sorted side (qty 0 removes it); returns a new array. */
export function setLevel(levels: readonly BookLevel[], level: BookLevel, side: 'bid' | 'ask'): BookLevel[] {
  const before = side === 'bid' ? (p: number) => p > level.price : (p: number) => p < level.price;
  // Binary search for the first index whose price is not better than level.price.
  let lo = 0;
  let hi = levels.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(levels[mid]!.price)) lo = mid + 1;
    else hi = mid;
  }
  const next = levels.slice();
  const exists = lo < levels.length && levels[lo]!.price === level.price;
  if (level.qty === 0) {
    if (exists) next.splice(lo, 1);
    return next;
  }
  const copy = { price: level.price, qty: level.qty, orders: level.orders };
  if (exists) next[lo] = copy;
  else next.splice(lo, 0, copy);
  return next;
}

/** Applies a delta that follows the book's seq (the caller checks contiguity). */
export function applyDelta(view: BookView, delta: BookDelta): BookView {
  let { bids, asks } = view;
  for (const change of delta.changes) {
    const level = { price: change.price, qty: change.qty, orders: change.orders };
    if (change.side === 'bid') bids = setLevel(bids, level, 'bid');
    else asks = setLevel(asks, level, 'ask');
  }
  return { ...view, seq: delta.seq, bids, asks, at: delta.at };
}

export function markStale(view: BookView, reason: StaleReason): BookView {
  return { ...view, stale: true, staleReason: reason };
}

export interface BookStreamOptions {
  /** Called on each resubscription (gap or silence); diagnostics. */
  onResubscribe?: (reason: 'gap' | 'silence') => void;
}

/**
 * The live book of `assetId`. Emits an initial stale 'loading' book, then one book per snapshot,
 * applied delta and staleness change. One STOMP subscription per subscriber: share it with
 * `share()` when several views show the same book.
 */
export function book$(connection: Connection, assetId: string, options: BookStreamOptions = {}): Observable<BookView> {
  const destination = destinations.book(assetId);
  return new Observable<BookView>((subscriber) => {
    let view = emptyBook(assetId);
    /** 'live' applies contiguous deltas; 'awaitingSnapshot' drops every delta. */
    let mode: 'awaitingSnapshot' | 'live' = 'awaitingSnapshot';
    let inner: Subscription | undefined;

    const emit = (next: BookView): void => {
      view = next;
      subscriber.next(view);
    };
    const goStale = (reason: StaleReason): void => {
      mode = 'awaitingSnapshot';
      if (!view.stale) emit(markStale(view, reason));
    };
    const subscribe = (): void => {
      inner?.unsubscribe();
      inner = connection.watch$(destination, bookMessageSchema).subscribe((message) => {
        if (message.assetId !== assetId) return;
        if (message.type === 'snapshot') {
          mode = 'live';
          emit(applySnapshot(view, message));
          return;
        }
        if (mode !== 'live' || view.seq === null) {
          view = { ...view, droppedDeltas: view.droppedDeltas + 1 };
          return;
        }
        if (message.seq <= view.seq) return; // already in the book
        if (message.seq !== view.seq + 1) {
          view = { ...view, gaps: view.gaps + 1 };
          goStale('gap');
          options.onResubscribe?.('gap');
          subscribe();
          return;
        }
        emit(applyDelta(view, message));
      });
    };

    subscriber.next(view);
    const stateSubscription = connection.connectionState$.subscribe((state) => {
      if (state.status !== 'connected') goStale('reconnect');
    });
    const silenceSubscription = connection.silence$.subscribe(() => {
      goStale('silence');
      options.onResubscribe?.('silence');
      subscribe();
    });
    subscribe();
    return () => {
      stateSubscription.unsubscribe();
      silenceSubscription.unsubscribe();
      inner?.unsubscribe();
    };
  });
}

/** The book for views: one emission per animation frame, except that turning stale shows at once. */
export function coalesceBookToFrame(scheduler?: FrameScheduler) {
  return coalesceToFrame<BookView>({
    ...(scheduler ? { scheduler } : {}),
    immediate: (next, previous) => next.stale && !(previous?.stale ?? false),
  });
}

export { coalesceToFrame };
