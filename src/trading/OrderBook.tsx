import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { BookLevel, Order } from '../../protocol/market-data.ts';
import type { Way } from '../../protocol/enums.ts';
import type { BookView } from '../../streams/book.ts';
import { formatMinor } from '../i18n/format.ts';
import { isLiveOrder, useNow } from './live.ts';

export interface BookAsset {
  priceDecimals: number;
  quantityDecimals: number;
  unit?: string;
}

export const BOOK_ROW_HEIGHT = 28;
/** How long a changed level stays highlighted. */
export const CHANGE_HIGHLIGHT_MS = 900;

/** Prices of a side that changed (new level or new quantity) since the previous levels, kept briefly. */
function useChangedPrices(levels: readonly BookLevel[]): ReadonlySet<number> {
  const previous = useRef<Map<number, number> | null>(null);
  const [changed, setChanged] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => {
    const now = new Map(levels.map((level) => [level.price, level.qty]));
    const before = previous.current;
    previous.current = now;
    if (!before) return undefined;
    const fresh = new Set<number>();
    for (const [price, qty] of now) if (before.get(price) !== qty) fresh.add(price);
    if (fresh.size === 0) return undefined;
    setChanged(fresh);
    const timer = setTimeout(() => setChanged(new Set()), CHANGE_HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [levels]);
  return changed;
}

interface SideProps {
  side: Way;
  levels: readonly BookLevel[];
  asset: BookAsset;
  ownPrices: ReadonlySet<number>;
  maxQty: number;
  maxHeight: number;
  stale: boolean;
  onLevel?: ((side: Way, level: BookLevel) => void) | undefined;
}

function BookSide({ side, levels, asset, ownPrices, maxQty, maxHeight, stale, onLevel }: SideProps) {
  const intl = useIntl();
  const scrollRef = useRef<HTMLDivElement>(null);
  const changed = useChangedPrices(levels);
  const virtualizer = useVirtualizer({
    count: levels.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => BOOK_ROW_HEIGHT,
    overscan: 6,
    initialRect: { width: 0, height: maxHeight },
  });
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  const title = intl.formatMessage({ id: side === 'bid' ? 'book.bids' : 'book.asks' });
  const ownLabel = intl.formatMessage({ id: 'book.own' });
  return (
    <div className={`book-side book-side-${side}`}>
      <h3 className="book-side-title">{title}</h3>
      <div ref={scrollRef} className="book-scroll" style={{ maxHeight }}>
        <table className="book-table" aria-label={title} aria-rowcount={levels.length}>
          <thead>
            <tr>
              <th scope="col" className="align-end">
                <FormattedMessage id="book.orders" />
              </th>
              <th scope="col" className="align-end">
                <FormattedMessage id="book.quantity" />
              </th>
              <th scope="col" className="align-end">
                <FormattedMessage id="book.price" />
              </th>
            </tr>
          </thead>
          <tbody>
            {levels.length === 0 && (
              <tr className="book-empty">
                <td colSpan={3}>
                  <FormattedMessage id="book.empty" />
                </td>
              </tr>
            )}
            {top > 0 && (
              <tr className="book-spacer" aria-hidden="true">
                <td colSpan={3} style={{ height: top }} />
              </tr>
            )}
            {items.map((item) => {
              const level = levels[item.index]!;
              const own = ownPrices.has(level.price);
              const price = formatMinor(intl, level.price, asset.priceDecimals);
              const qty = formatMinor(intl, level.qty, asset.quantityDecimals);
              const depth = maxQty > 0 ? Math.max(2, Math.round((level.qty / maxQty) * 100)) : 0;
              const classes = ['book-level', own ? 'book-level-own' : '', changed.has(level.price) ? 'book-level-changed' : ''].filter(Boolean).join(' ');
              const open = () => !stale && onLevel?.(side, level);
              return (
                <tr
                  key={level.price}
                  className={classes}
                  aria-rowindex={item.index + 1}
                  data-price={price}
                  tabIndex={onLevel ? 0 : undefined}
                  onClick={open}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' || event.key === ' ') {
                      event.preventDefault();
                      open();
                    }
                  }}
                  style={{ height: BOOK_ROW_HEIGHT, ['--depth' as string]: `${depth}%` }}
                  title={onLevel ? intl.formatMessage({ id: side === 'ask' ? 'book.hitAsk' : 'book.hitBid' }, { price }) : undefined}
                >
                  <td className="align-end">{level.orders}</td>
                  <td className="align-end mono">{qty}</td>
                  <td className="align-end mono book-price">
                    {own && (
                      <span className="book-own-mark" role="img" aria-label={ownLabel} title={ownLabel}>
                        ●
                      </span>
                    )}
                    {price}
                  </td>
                </tr>
              );
            })}
            {bottom > 0 && (
              <tr className="book-spacer" aria-hidden="true">
                <td colSpan={3} style={{ height: bottom }} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

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
}

/** Bid and ask tables of one book: virtualised, own levels marked, depth bars, changes highlighted. */
export function OrderBook({ book, asset, ownOrders, onLevel, now, maxHeight = 320 }: OrderBookProps) {
  const liveNow = useNow(book.stale && now === undefined);
  const clock = now ?? liveNow;
  const own = useMemo(() => {
    const bids = new Set<number>();
    const asks = new Set<number>();
    for (const order of ownOrders) {
      if (order.assetId !== book.assetId || !isLiveOrder(order) || order.suspended || order.price === null) continue;
      (order.way === 'bid' ? bids : asks).add(order.price);
    }
    return { bids, asks };
  }, [ownOrders, book.assetId]);
  const maxQty = useMemo(() => Math.max(0, ...book.bids.map((l) => l.qty), ...book.asks.map((l) => l.qty)), [book.bids, book.asks]);
  return (
    <div className={book.stale ? 'order-book order-book-stale' : 'order-book'} data-asset={book.assetId}>
      <div className="order-book-status">
        <StaleBadge book={book} now={clock} />
      </div>
      <div className="order-book-sides">
        <BookSide side="bid" levels={book.bids} asset={asset} ownPrices={own.bids} maxQty={maxQty} maxHeight={maxHeight} stale={book.stale} onLevel={onLevel} />
        <BookSide side="ask" levels={book.asks} asset={asset} ownPrices={own.asks} maxQty={maxQty} maxHeight={maxHeight} stale={book.stale} onLevel={onLevel} />
      </div>
    </div>
  );
}
