import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Way } from '../../protocol/enums.ts';
import type { BookLevel } from '../../protocol/market-data.ts';
import type { AssetSpecification } from '../../protocol/reference.ts';
import { formatDecimal } from '../../protocol/decimal.ts';
import { formatCalendarDate, formatExchangeDateTime, formatMinor } from '../i18n/format.ts';
import { useBook, useMyOpenOrders, useMyOrders, useStats } from './live.ts';
import { AssetOrderBook } from './bilateral/AssetOrderBook.tsx';
import { OrdersTable } from './OrdersTable.tsx';
import { useTradingDesk } from './TradingDesk.tsx';
import { TransactionsPanel } from './TransactionsPanel.tsx';
import type { OrderTicketRequest } from './OrderDialog.tsx';
import { DescriptionList } from '../components/DescriptionList.tsx';
import { useCanAct } from '../auth/use-auth.ts';
import { PopOutButton } from './PopOutButton.tsx';

/** A ticket for the opposite side of a clicked level, at its price and quantity (hitting it). */
export function ticketFromLevel(asset: AssetSpecification, side: Way, level: BookLevel): OrderTicketRequest {
  return {
    mode: 'add',
    asset,
    defaults: {
      way: side === 'ask' ? 'bid' : 'ask',
      price: formatDecimal(level.price, asset.priceDecimals),
      qty: formatDecimal(level.qty, asset.quantityDecimals),
    },
  };
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName);
}

/** B opens a buy ticket and S a sell ticket for the asset shown (not while typing or in a dialog; only for a user who may trade). */
export function AssetShortcuts({ asset }: { asset: AssetSpecification }) {
  const desk = useTradingDesk();
  const canAct = useCanAct();
  useEffect(() => {
    if (!canAct || !desk.canTrade) return; // an expired session offers no actions; a user who may not trade, no tickets
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      const key = event.key.toLowerCase();
      if (key !== 'b' && key !== 's') return;
      event.preventDefault();
      desk.openTicket({ mode: 'add', asset, defaults: { way: key === 'b' ? 'bid' : 'ask' } });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [asset, desk, canAct]);
  return null;
}

export function BuySellButtons({ asset }: { asset: AssetSpecification }) {
  const desk = useTradingDesk();
  const canAct = useCanAct();
  if (!desk.canTrade) return null;
  return (
    <span className="buy-sell">
      <button type="button" className="button button-bid" aria-keyshortcuts="B" disabled={!canAct} onClick={() => desk.openTicket({ mode: 'add', asset, defaults: { way: 'bid' } })}>
        <FormattedMessage id="trading.buy" />
      </button>
      <button type="button" className="button button-ask" aria-keyshortcuts="S" disabled={!canAct} onClick={() => desk.openTicket({ mode: 'add', asset, defaults: { way: 'ask' } })}>
        <FormattedMessage id="trading.sell" />
      </button>
    </span>
  );
}

export function StatsCard({ asset }: { asset: AssetSpecification }) {
  const intl = useIntl();
  const stats = useStats(asset.id);
  const price = (value: number | null | undefined) => (value === null || value === undefined ? '—' : formatMinor(intl, value, asset.priceDecimals));
  const quantity = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${formatMinor(intl, value, asset.quantityDecimals)} ${asset.unit}`);
  const rows: Array<[string, string]> = [
    [intl.formatMessage({ id: 'stats.sessionDate' }), stats ? formatCalendarDate(intl, stats.sessionDate) : '—'],
    [intl.formatMessage({ id: 'stats.lastPrice' }), price(stats?.lastPrice)],
    [intl.formatMessage({ id: 'stats.minPrice' }), price(stats?.minPrice)],
    [intl.formatMessage({ id: 'stats.maxPrice' }), price(stats?.maxPrice)],
    [intl.formatMessage({ id: 'stats.volume' }), quantity(stats?.volume)],
    [intl.formatMessage({ id: 'stats.transactions' }), stats ? String(stats.transactions) : '—'],
    [intl.formatMessage({ id: 'stats.closingPrice' }), price(stats?.closingPrice)],
    [intl.formatMessage({ id: 'stats.settlementPrice' }), price(stats?.settlementPrice)],
    [intl.formatMessage({ id: 'stats.tradeableQty' }), quantity(stats?.tradeableQty)],
    [intl.formatMessage({ id: 'stats.updated' }), stats ? formatExchangeDateTime(intl, stats.at) : '—'],
  ];
  return (
    <section className="card" aria-labelledby="stats-title">
      <div className="card-header">
        <h2 id="stats-title">
          <FormattedMessage id="stats.title" />
        </h2>
      </div>
      <DescriptionList rows={rows} valueClassName="mono" />
    </section>
  );
}

/** The live book of the asset, own orders on it, and its transactions. */
export function AssetTrading({ asset }: { asset: AssetSpecification }) {
  const intl = useIntl();
  const desk = useTradingDesk();
  const canAct = useCanAct();
  const book = useBook(asset.id);
  const orders = useMyOrders();
  const openOrders = useMyOpenOrders();
  return (
    <div className="asset-trading">
      <section className="card" aria-labelledby="book-title">
        <div className="card-header">
          <h2 id="book-title">
            <FormattedMessage id="asset.book" />
          </h2>
          {desk.canTrade && (
            <span className="muted small">
              <FormattedMessage id="book.hint" />
            </span>
          )}
          <PopOutButton asset={asset} />
        </div>
        <AssetOrderBook book={book} asset={asset} ownOrders={orders} onLevel={canAct && desk.canTrade ? (side, level) => desk.openTicket(ticketFromLevel(asset, side, level)) : undefined} />
      </section>
      <section className="card" aria-labelledby="my-orders-title">
        <div className="card-header">
          <h2 id="my-orders-title">
            <FormattedMessage id="orders.title" />
          </h2>
        </div>
        <OrdersTable orders={openOrders} assets={[asset]} assetId={asset.id} onAction={desk.openTicket} label={intl.formatMessage({ id: 'orders.title' })} />
      </section>
      <TransactionsPanel assets={[asset]} assetId={asset.id} initialScope="all" />
    </div>
  );
}
