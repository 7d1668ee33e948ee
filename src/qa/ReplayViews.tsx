import { useEffect, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { BehaviorSubject } from 'rxjs';
import { joinOwnBest, MarketWatch } from '../trading/MarketWatch.tsx';
import { OrderBook, type BookAsset } from '../trading/OrderBook.tsx';
import { OrdersTable } from '../trading/OrdersTable.tsx';
import { useBook, useMarketWatch, useMyOpenOrders, useMyOrders, useOwnBest, useSessionReference } from '../trading/live.ts';
import { PhaseWidget } from '../trading/session/PhaseWidget.tsx';

/** Decimals of a book whose asset the reference data does not know (an asset of another exchange's data). */
const fallbackAsset: BookAsset = { priceDecimals: 2, quantityDecimals: 1 };

const noAction = () => {};

/** The market watch's asset cell without a link: the replay has no live asset page to go to. */
function PlainAssetLink({ children }: { children: ReactNode }) {
  return <span className="mw-asset">{children}</span>;
}

/**
 * The real views the recording's destinations drive, reading the replayed session as they read a live
 * one (RealtimeScope): the order book, the user's orders, the market watch and the session phase.
 * Their clock is the recording's (`serverTime`): a stale book's age and the next phase's countdown
 * read the same at the same frame whenever the file is replayed.
 */
export function ReplayViews({ assetId, marketId, serverTime }: { assetId: string; marketId: string; serverTime: number | null }) {
  const intl = useIntl();
  // Made with the first time (the countdown's first text), then moved with each frame.
  const [clock] = useState(() => new BehaviorSubject(serverTime ?? 0));
  useEffect(() => {
    if (serverTime !== null) clock.next(serverTime);
  }, [clock, serverTime]);
  const book = useBook(assetId);
  const ownOrders = useMyOrders();
  const open = useMyOpenOrders();
  const rows = useMarketWatch(marketId);
  const ownBest = useOwnBest();
  const { assets } = useSessionReference();
  const asset = assets.find((candidate) => candidate.id === assetId);
  return (
    <>
      <section className="card qa-book" aria-label={intl.formatMessage({ id: 'qa.views.book' }, { assetId })} data-testid="qa-book">
        <h2>{intl.formatMessage({ id: 'qa.views.book' }, { assetId })}</h2>
        {asset && <PhaseWidget asset={asset} clock={serverTime === null ? undefined : clock} />}
        <OrderBook book={book} asset={asset ?? fallbackAsset} ownOrders={ownOrders} maxHeight={320} {...(serverTime === null ? {} : { now: serverTime })} />
      </section>
      <section className="card qa-orders">
        <h2>{intl.formatMessage({ id: 'qa.views.orders' })}</h2>
        <OrdersTable orders={open} assets={assets} onAction={noAction} label={intl.formatMessage({ id: 'qa.views.orders' })} />
      </section>
      <section className="card qa-watch card-span-2">
        <h2>{intl.formatMessage({ id: 'qa.views.marketWatch' }, { marketId })}</h2>
        <MarketWatch AssetLink={PlainAssetLink} rows={joinOwnBest(rows, ownBest)} assets={assets} label={intl.formatMessage({ id: 'qa.views.marketWatch' }, { marketId })} />
      </section>
    </>
  );
}
