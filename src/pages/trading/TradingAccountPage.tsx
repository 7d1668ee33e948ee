import { Link, useLoaderData } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Position } from '../../../protocol/account.ts';
import { usePageTitle } from '../../app/use-page-title.ts';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { localePath } from '../../i18n/locale.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import type { MarketAccountData } from './loaders.ts';
import { LiveMarketWatch } from '../../trading/MarketWatch.tsx';
import { useMyOpenOrders } from '../../trading/live.ts';
import { OrdersTable } from '../../trading/OrdersTable.tsx';
import { useTradingDesk } from '../../trading/TradingDesk.tsx';
import { TransactionsPanel } from '../../trading/TransactionsPanel.tsx';
import { useAccountFigures } from '../../trading/account/account-figures.ts';
import { ClientAccountsCard, LimitsCard, PositionsCard } from '../../trading/account/AccountFigures.tsx';
import { FinancialReportCard } from '../../trading/account/FinancialReportCard.tsx';
import { localName } from '../../i18n/reference-names.ts';

type Figures = ReturnType<typeof useAccountFigures>;

/** The asset cell of a position links to the asset's trading view. */
function PositionAssetRouterLink({ position, children }: { position: Position; children: ReactNode }) {
  const locale = useLocale();
  return (
    <Link to={localePath(locale, `/trading/market/${position.marketId}/assets/${position.assetId}`)} className="strong-link">
      {children}
    </Link>
  );
}

function MyOrdersCard({ data }: { data: MarketAccountData }) {
  const intl = useIntl();
  const desk = useTradingDesk();
  const orders = useMyOpenOrders();
  const assetIds = new Set(data.assets.map((asset) => asset.id));
  return (
    <section className="card grid-span-all" aria-labelledby="account-orders">
      <div className="card-header">
        <h2 id="account-orders">
          <FormattedMessage id="orders.title" />
        </h2>
      </div>
      <OrdersTable
        orders={data.market ? orders.filter((entry) => assetIds.has(entry.order.assetId)) : orders}
        assets={data.assets}
        onAction={desk.openTicket}
        label={intl.formatMessage({ id: 'orders.title' })}
      />
    </section>
  );
}

/** The client general accounts the user may see, with the markets to narrow the view to. */
function AccountSummary({ data, figures, wide = false }: { data: MarketAccountData | null; figures: Figures; wide?: boolean }) {
  const locale = useLocale();
  return (
    <ClientAccountsCard figures={figures} wide={wide}>
      {data && data.markets.length > 0 && (
        <>
          <h3 className="subheading">
            <FormattedMessage id="tradingAccount.markets" />
          </h3>
          <div className="chip-list">
            {data.markets.map((market) => (
              <Link
                key={market.id}
                to={localePath(locale, `/trading/market/${market.id}/account`)}
                className={data.market?.id === market.id ? 'chip chip-link active' : 'chip chip-link'}
                aria-current={data.market?.id === market.id ? 'page' : undefined}
                activeOptions={{ exact: true }}
                activeProps={{}}
              >
                {localName(market, locale)}
              </Link>
            ))}
          </div>
        </>
      )}
    </ClientAccountsCard>
  );
}

/** Limits and positions, refreshed when the user's orders or trades change. */
function AccountFiguresCards({ figures, data }: { figures: Figures; data: MarketAccountData }) {
  const intl = useIntl();
  return (
    <div className="grid-span-all two-col-grid" role="region" aria-label={intl.formatMessage({ id: 'tradingAccount.figures' })}>
      <LimitsCard figures={figures} />
      <FinancialReportCard />
      <PositionsCard figures={figures} assets={data.assets} AssetLink={PositionAssetRouterLink} />
    </div>
  );
}

/** /trading/account */
export function TradingAccountPage() {
  const intl = useIntl();
  const data = useLoaderData({ strict: false }) as MarketAccountData;
  const figures = useAccountFigures();
  usePageTitle(intl.formatMessage({ id: 'nav.tradingAccount' }));
  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <FormattedMessage id="nav.tradingAccount" />
        </h1>
      </div>
      <div className="two-col-grid">
        <AccountSummary data={data} figures={figures} wide />
        <AccountFiguresCards figures={figures} data={data} />
        <MyOrdersCard data={data} />
        <div className="grid-span-all">
          <TransactionsPanel assets={data.assets} />
        </div>
      </div>
    </div>
  );
}

/** /trading/market/{marketId?}/account: the account within one market (or all of them). */
export function MarketAccountPage() {
  const intl = useIntl();
  const locale = useLocale();
  const data = useLoaderData({ strict: false }) as MarketAccountData;
  const figures = useAccountFigures({ marketId: data.market?.id });
  const title = data.market ? localName(data.market, locale) : intl.formatMessage({ id: 'tradingAccount.allMarkets' });
  usePageTitle(title);
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <p className="eyebrow">
            <FormattedMessage id="nav.tradingAccount" />
          </p>
          <h1>{title}</h1>
          {data.market && (
            <p className="muted">
              <FormattedMessage id={enumLabelKey('commodity', data.market.commodity)} /> ·{' '}
              <FormattedMessage id={enumLabelKey('marketKind', data.market.kind)} /> · {data.market.currency}
            </p>
          )}
        </div>
      </div>
      <div className="two-col-grid">
        <AccountSummary data={data} figures={figures} />
        <section className="card" aria-labelledby="market-assets">
          <div className="card-header">
            <h2 id="market-assets">
              <FormattedMessage id="tradingAccount.assets" />
            </h2>
          </div>
          <ul className="asset-list">
            {data.assets.map((asset) => (
              <li key={asset.id}>
                <Link to={localePath(locale, `/trading/market/${asset.marketId}/assets/${asset.id}`)}>
                  <span className="mono">{asset.code}</span>
                  <span className="muted small">{localName(asset, locale)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <AccountFiguresCards figures={figures} data={data} />
        {data.market && (
          <section className="card grid-span-all" aria-labelledby="market-watch-title">
            <div className="card-header">
              <h2 id="market-watch-title">
                <FormattedMessage id="marketWatch.heading" />
              </h2>
            </div>
            <LiveMarketWatch marketId={data.market.id} assets={data.assets} label={intl.formatMessage({ id: 'marketWatch.title' }, { market: localName(data.market, locale) })} />
          </section>
        )}
        <MyOrdersCard data={data} />
        <div className="grid-span-all">
          <TransactionsPanel assets={data.assets} />
        </div>
      </div>
    </div>
  );
}
