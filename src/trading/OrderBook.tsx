import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { BookLevel, Order } from '../../protocol/market-data.ts';
import type { Way } from '../../protocol/enums.ts';
import type { BookView } from '../../streams/book.ts';
import { toDisplayNumber } from '../../protocol/decimal.ts';
import { isLiveOrder, useNow } from './live.ts';
import { partnersOnlyLevels, tradeableQty, type TradeableBook } from './bilateral/tradeable-levels.ts';
import './OrderBook.css';

export interface BookAsset {
  priceDecimals: number;
  quantityDecimals: number;
  unit?: string;
}

/** Every row has this height (OrderBook.css says the same): the virtualiser never measures. */
export const BOOK_ROW_HEIGHT = 28;
/** How long a changed level stays highlighted. */
export const CHANGE_HIGHLIGHT_MS = 900;
/** A book out of view (and not near it) redraws its levels at least this often. */
export const OFFSCREEN_REFRESH_MS = 2_000;

/**
 * Each book's own refresh period, between half and all of OFFSCREEN_REFRESH_MS, fixed per asset: the
 * books off screen then redraw at different moments instead of together in one task, which held up
 * the frames of the books in view (bench:ui p99 70 -> about 50 ms).
 */
export function offscreenRefreshMs(assetId: string): number {
  let hash = 0;
  for (let i = 0; i < assetId.length; i++) hash = (hash * 31 + assetId.charCodeAt(i)) >>> 0;
  const half = OFFSCREEN_REFRESH_MS / 2;
  return half + (hash % half);
}

interface ChangeTracking {
  levels: readonly BookLevel[];
  qty: Map<number, number>;
  /** When each recently changed price last changed (Date.now()). */
  at: Map<number, number>;
}

const quantities = (levels: readonly BookLevel[]): Map<number, number> => new Map(levels.map((level) => [level.price, level.qty]));

/**
 * When each level of a side last changed (new level or new quantity), for CHANGE_HIGHLIGHT_MS. Worked
 * out in the render that brings new levels (React's "state from the previous render"), so a change is
 * highlighted in the same paint as the new quantity, without a second render; one timer per side
 * clears highlights as they expire.
 */
function useChangeTimes(levels: readonly BookLevel[]): ReadonlyMap<number, number> {
  const [tracked, setTracked] = useState<ChangeTracking>(() => ({ levels, qty: quantities(levels), at: new Map() }));
  const [expiries, setExpired] = useState(0);
  let current = tracked;
  if (tracked.levels !== levels) {
    // eslint-disable-next-line react-hooks/purity -- the time of the render that brings new levels is the time they changed (see above)
    const now = Date.now();
    const at = new Map<number, number>();
    for (const [price, time] of tracked.at) if (now - time < CHANGE_HIGHLIGHT_MS) at.set(price, time);
    const qty = quantities(levels);
    for (const [price, value] of qty) if (tracked.qty.get(price) !== value) at.set(price, now);
    current = { levels, qty, at };
    setTracked(current);
  }
  const timer = useRef<{ handle: ReturnType<typeof setTimeout>; due: number } | null>(null);
  const at = current.at;
  useEffect(() => {
    const now = Date.now();
    let earliest = Number.POSITIVE_INFINITY;
    for (const time of at.values()) if (now - time < CHANGE_HIGHLIGHT_MS && time < earliest) earliest = time;
    if (earliest === Number.POSITIVE_INFINITY) return;
    const due = earliest + CHANGE_HIGHLIGHT_MS;
    // Keep a timer that fires in time; a book changing every frame must not re-arm one every frame.
    if (timer.current && timer.current.due <= due) return;
    if (timer.current) clearTimeout(timer.current.handle);
    const handle = setTimeout(() => {
      timer.current = null;
      setExpired((n) => n + 1);
    }, Math.max(0, due - now));
    timer.current = { handle, due };
  }, [at, expiries]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current.handle);
      timer.current = null;
    },
    [],
  );
  return at;
}

type MinorFormat = (minor: number) => string;

/**
 * formatMinor (src/i18n/format.ts) with the formatter looked up once per locale and decimals, not per
 * cell: react-intl's lookup serialises the options on every call, a sizeable part of a busy frame.
 */
function useMinorFormat(intl: IntlShape, decimals: number): MinorFormat {
  return useMemo(() => {
    const format = intl.formatters.getNumberFormat(intl.locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    return (minor: number) => format.format(toDisplayNumber(minor, decimals));
  }, [intl.formatters, intl.locale, decimals]);
}

/** The column headings: the same every render, so rendered once. */
const BookHead = memo(function BookHead() {
  return (
    <thead role="rowgroup">
      <tr role="row" className="book-head">
        <th role="columnheader" scope="col">
          <FormattedMessage id="book.orders" />
        </th>
        <th role="columnheader" scope="col">
          <FormattedMessage id="book.quantity" />
        </th>
        <th role="columnheader" scope="col">
          <FormattedMessage id="book.price" />
        </th>
      </tr>
    </thead>
  );
});

interface RowProps {
  side: Way;
  level: BookLevel;
  index: number;
  own: boolean;
  changed: boolean;
  /** Share of the largest level, in whole percent. */
  depth: number;
  /** Bilateral assets: the quantity the user's clients may trade with; null when not marked (not bilateral, or not known yet). */
  tradeable: number | null;
  formatPrice: MinorFormat;
  formatQty: MinorFormat;
  /** Null when levels cannot be clicked (no handler, or a stale book). */
  onActivate: ((level: BookLevel) => void) | null;
}

/**
 * One level. Memoised: a delta re-renders only the rows whose level, mark, highlight or depth changed.
 * The depth bar is the row's background, sized in percent (paint only). Nothing per row that makes a
 * paint layer (position, transform, clip, layout or paint containment): each would be one more paint
 * chunk for the compositor to sort through on every frame.
 */
const BookRow = memo(function BookRow({ side, level, index, own, changed, depth, tradeable, formatPrice, formatQty, onActivate }: RowProps) {
  const intl = useIntl();
  const price = formatPrice(level.price);
  // Bilateral: the partners' part first, the whole level after it, muted, when some of it is not theirs.
  const foreign = tradeable !== null && tradeable < level.qty;
  const qty = formatQty(foreign ? tradeable : level.qty);
  let classes = own ? (changed ? 'book-level book-level-own book-level-changed' : 'book-level book-level-own') : changed ? 'book-level book-level-changed' : 'book-level';
  if (foreign) classes += tradeable === 0 ? ' book-level-foreign' : ' book-level-partial';
  const ownLabel = own ? intl.formatMessage({ id: 'book.own' }) : '';
  const foreignLabel = foreign ? intl.formatMessage({ id: 'book.notTradeable' }) : '';
  const open = onActivate ? () => onActivate(level) : undefined;
  const onKeyDown = onActivate
    ? (event: KeyboardEvent) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onActivate(level);
        }
      }
    : undefined;
  return (
    <tr
      role="row"
      className={classes}
      aria-rowindex={index + 1}
      data-price={price}
      tabIndex={onActivate ? 0 : undefined}
      onClick={open}
      onKeyDown={onKeyDown}
      style={{ backgroundSize: `${depth}% 100%` }}
      title={onActivate ? intl.formatMessage({ id: side === 'ask' ? 'book.hitAsk' : 'book.hitBid' }, { price }) : undefined}
    >
      <td role="cell" className="book-cell">
        {level.orders}
      </td>
      <td role="cell" className="book-cell mono">
        {qty}
        {foreign && <span className="book-qty-total"> / {formatQty(level.qty)}</span>}
      </td>
      <td role="cell" className="book-cell mono book-price">
        {own && (
          <span className="book-own-mark" role="img" aria-label={ownLabel} title={ownLabel}>
            ●
          </span>
        )}
        {foreign && (
          <span className="book-foreign-mark" role="img" aria-label={foreignLabel} title={foreignLabel}>
            ⊘
          </span>
        )}
        {price}
      </td>
    </tr>
  );
});

interface SideProps {
  side: Way;
  levels: readonly BookLevel[];
  asset: BookAsset;
  ownPrices: ReadonlySet<number>;
  maxQty: number;
  maxHeight: number;
  stale: boolean;
  /** Bilateral assets: the partners' levels of this side by price, marking the rest; null: no marks. */
  tradeable: ReadonlyMap<number, BookLevel> | null;
  onLevel?: ((side: Way, level: BookLevel) => void) | undefined;
}

/** Memoised: a side whose levels did not change (or a book held off screen) is not rendered again. */
const BookSide = memo(function BookSide({ side, levels, asset, ownPrices, maxQty, maxHeight, stale, tradeable, onLevel }: SideProps) {
  const intl = useIntl();
  const scrollRef = useRef<HTMLDivElement>(null);
  const changedAt = useChangeTimes(levels);
  const virtualizer = useVirtualizer({
    count: levels.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => BOOK_ROW_HEIGHT,
    overscan: 3,
    initialRect: { width: 0, height: maxHeight },
  });
  const activate = useCallback((level: BookLevel) => onLevel?.(side, level), [onLevel, side]);
  const onActivate = onLevel !== undefined && !stale ? activate : null;
  const items = virtualizer.getVirtualItems();
  const now = Date.now();
  const title = intl.formatMessage({ id: side === 'bid' ? 'book.bids' : 'book.asks' });
  const formatPrice = useMinorFormat(intl, asset.priceDecimals);
  const formatQty = useMinorFormat(intl, asset.quantityDecimals);
  return (
    <div className={`book-side book-side-${side}`}>
      <h3 className="book-side-title">{title}</h3>
      <div ref={scrollRef} className="book-scroll" style={{ height: maxHeight }}>
        <table className="book-table" role="table" aria-label={title} aria-rowcount={levels.length}>
          <BookHead />
          <tbody role="rowgroup" className="book-body" style={{ height: Math.max(virtualizer.getTotalSize(), BOOK_ROW_HEIGHT), paddingTop: items[0]?.start ?? 0 }}>
            {levels.length === 0 && (
              <tr role="row" className="book-empty">
                <td role="cell">
                  <FormattedMessage id="book.empty" />
                </td>
              </tr>
            )}
            {items.map((item) => {
              const level = levels[item.index]!;
              const at = changedAt.get(level.price);
              return (
                <BookRow
                  key={level.price}
                  side={side}
                  level={level}
                  index={item.index}
                  own={ownPrices.has(level.price)}
                  changed={at !== undefined && now - at < CHANGE_HIGHLIGHT_MS}
                  depth={maxQty > 0 ? Math.max(2, Math.round((level.qty / maxQty) * 100)) : 0}
                  tradeable={tradeable ? tradeableQty(tradeable, level) : null}
                  formatPrice={formatPrice}
                  formatQty={formatQty}
                  onActivate={onActivate}
                />
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
});

/** Whether the element is in (or near) the viewport; true where there is no IntersectionObserver. */
function useInView(ref: RefObject<HTMLElement | null>): boolean {
  const [inView, setInView] = useState(true);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => setInView(entries[entries.length - 1]!.isIntersecting), { rootMargin: '50% 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return inView;
}

/**
 * The book the levels are drawn from: the live one while the book is in or near view, stale, or just
 * back from stale; off screen, the one last drawn, refreshed every offscreenRefreshMs(asset). Twenty books
 * moving every frame cost a React render each even where nobody can see them; a book scrolling into
 * view is drawn from the live book (the observer's margin lets that happen before it shows).
 */
/* eslint-disable react-hooks/refs -- the book last drawn is read in render on purpose: keeping it in state would cost the render this hook saves */
function useDrawnBook(book: BookView, inView: boolean): BookView {
  const drawn = useRef(book);
  const refreshDue = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [, refresh] = useReducer((n: number) => n + 1, 0);
  const previous = drawn.current;
  const live = inView || refreshDue.current || book.stale || previous.stale || book.assetId !== previous.assetId;
  const shown = live ? book : previous;
  useLayoutEffect(() => {
    drawn.current = shown;
    refreshDue.current = false;
  });
  useEffect(() => {
    if (shown === book || timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      refreshDue.current = true;
      refresh();
    }, offscreenRefreshMs(book.assetId));
  });
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  return shown;
}
/* eslint-enable react-hooks/refs */

/** Seconds since the book's last applied change, or null when it never had one. */
export function bookAgeSeconds(book: BookView, now: number): number | null {
  if (!book.at) return null;
  const at = Date.parse(book.at);
  return Number.isNaN(at) ? null : Math.max(0, Math.floor((now - at) / 1000));
}

export function StaleBadge({ book, now }: { book: BookView; now: number }) {
  if (!book.stale) return null;
  const age = bookAgeSeconds(book, now);
  return (
    <span className="badge badge-stale" role="status" data-stale-reason={book.staleReason ?? ''}>
      {age === null ? <FormattedMessage id="book.loading" /> : <FormattedMessage id="book.stale" values={{ seconds: age }} />}
    </span>
  );
}

export interface OrderBookProps {
  book: BookView;
  asset: BookAsset;
  /** The user's orders (any asset: those of the book's asset on the book are marked). */
  ownOrders: readonly Order[];
  onLevel?: (side: Way, level: BookLevel) => void;
  /** Clock for the stale age (tests); the live clock otherwise. */
  now?: number;
  maxHeight?: number;
  /** Bilateral assets (src/trading/bilateral/): what the user's clients may trade with, by price; the rest is marked. */
  tradeable?: TradeableBook | null;
  /** With `tradeable`: show only the partners' part of each level (levels without any go). */
  partnersOnly?: boolean;
  /** Beside the stale badge, above the sides (the bilateral badge and filter). */
  status?: ReactNode;
}

/** Bid and ask tables of one book: virtualised, own levels marked, depth bars, changes highlighted. */
export function OrderBook({ book: liveBook, asset, ownOrders, onLevel, now, maxHeight = 320, tradeable = null, partnersOnly = false, status }: OrderBookProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const book = useDrawnBook(liveBook, useInView(rootRef));
  const liveNow = useNow(book.stale && now === undefined);
  const clock = now ?? liveNow;
  // The caller's handler may be a new function every render; the sides get one that is not.
  const onLevelRef = useRef(onLevel);
  useEffect(() => {
    onLevelRef.current = onLevel;
  });
  const hasOnLevel = onLevel !== undefined;
  const handleLevel = useCallback((side: Way, level: BookLevel) => onLevelRef.current?.(side, level), []);
  const own = useMemo(() => {
    const bids = new Set<number>();
    const asks = new Set<number>();
    for (const order of ownOrders) {
      if (order.assetId !== book.assetId || !isLiveOrder(order) || order.suspended || order.price === null) continue;
      (order.way === 'bid' ? bids : asks).add(order.price);
    }
    return { bids, asks };
  }, [ownOrders, book.assetId]);
  // A map of another asset (the book just moved on) marks nothing.
  const partners = tradeable !== null && tradeable.assetId === book.assetId ? tradeable : null;
  const filter = partners !== null && partnersOnly;
  const bids = useMemo(() => (partners !== null && partnersOnly ? partnersOnlyLevels(book.bids, partners.bids) : book.bids), [partners, partnersOnly, book.bids]);
  const asks = useMemo(() => (partners !== null && partnersOnly ? partnersOnlyLevels(book.asks, partners.asks) : book.asks), [partners, partnersOnly, book.asks]);
  const maxQty = useMemo(() => {
    let max = 0;
    for (const level of bids) if (level.qty > max) max = level.qty;
    for (const level of asks) if (level.qty > max) max = level.qty;
    return max;
  }, [bids, asks]);
  return (
    <div ref={rootRef} className={book.stale ? 'order-book order-book-stale' : 'order-book'} data-asset={book.assetId} style={{ containIntrinsicHeight: `auto ${maxHeight + 60}px` }}>
      <div className="order-book-status">
        <StaleBadge book={book} now={clock} />
        {status}
      </div>
      <div className="order-book-sides">
        {/* Filtered levels are the partners' parts already: nothing left to mark. */}
        <BookSide side="bid" levels={bids} asset={asset} ownPrices={own.bids} maxQty={maxQty} maxHeight={maxHeight} stale={book.stale} tradeable={filter ? null : (partners?.bids ?? null)} onLevel={hasOnLevel ? handleLevel : undefined} />
        <BookSide side="ask" levels={asks} asset={asset} ownPrices={own.asks} maxQty={maxQty} maxHeight={maxHeight} stale={book.stale} tradeable={filter ? null : (partners?.asks ?? null)} onLevel={hasOnLevel ? handleLevel : undefined} />
      </div>
    </div>
  );
}
