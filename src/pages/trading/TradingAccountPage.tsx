import { Link, useLoaderData } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/use-page-title.ts';
import { useUser } from '../../auth/use-auth.ts';
import { PlaceholderPanel } from '../../components/PlaceholderPanel.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { localePath } from '../../i18n/locale.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import type { MarketAccountData } from './loaders.ts';
import { LiveMarketWatch } from '../../trading/MarketWatch.tsx';
import { useMyOrders } from '../../trading/live.ts';
import { OrdersTable } from '../../trading/OrdersTable.tsx';
import { useTradingDesk } from '../../trading/TradingDesk.tsx';
import { TransactionsPanel } from '../../trading/TransactionsPanel.tsx';

function MyOrdersCard({ data }: { data: MarketAccountData }) {
  const intl = useIntl();
  const desk = useTradingDesk();
  const orders = useMyOrders();
  const assetIds = new Set(data.assets.map((asset) => asset.id));
  return (
    <section className="card grid-span-all" aria-labelledby="account-orders">
      <div className="card-header">
        <h2 id="account-orders">
          <FormattedMessage id="orders.title" />
        </h2>
      </div>
      <OrdersTable
        orders={data.market ? orders.filter((order) => assetIds.has(order.assetId)) : orders}
        assets={data.assets}
        onAction={desk.openTicket}
        label={intl.formatMessage({ id: 'orders.title' })}
      />
    </section>
  );
}

/** The client accounts the user trades for, with the markets; the account figures come with clearing. */
function AccountSummary({ data }: { data: MarketAccountData | null }) {
  const intl = useIntl();
  const locale = useLocale();
  const user = useUser();
  const notAssigned = intl.formatMessage({ id: 'home.notAssigned' });
  return (
    <section className="card" aria-labelledby="trading-account-summary">
      <div className="card-header">
        <h2 id="trading-account-summary">
          <FormattedMessage id="tradingAccount.clients" />
        </h2>
      </div>
      <div className="chip-list">
        {user && user.clientCodes.length > 0 ? (
          user.clientCodes.map((code) => (
            <span key={code} className="chip">
              {code}
            </span>
          ))
        ) : (
          <span className="muted">{notAssigned}</span>
        )}
      </div>
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
                {market.name}
              </Link>
            ))}
          </div>
        </>
      )}
    </section>
  );
}

/** /trading/account */
export function TradingAccountPage() {
  const intl = useIntl();
  const data = useLoaderData({ strict: false }) as MarketAccountData;
  usePageTitle(intl.formatMessage({ id: 'nav.tradingAccount' }));
  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <FormattedMessage id="nav.tradingAccount" />
        </h1>
      </div>
      <div className="two-col-grid">
        <AccountSummary data={data} />
        <PlaceholderPanel title={<FormattedMessage id="tradingAccount.figures" />} />
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
  const title = data.market?.name ?? intl.formatMessage({ id: 'tradingAccount.allMarkets' });
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
        <AccountSummary data={data} />
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
                  <span className="muted small">{asset.name}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
        {data.market && (
          <section className="card grid-span-all" aria-labelledby="market-watch-title">
            <div className="card-header">
              <h2 id="market-watch-title">
                <FormattedMessage id="marketWatch.heading" />
              </h2>
            </div>
            <LiveMarketWatch marketId={data.market.id} assets={data.assets} label={intl.formatMessage({ id: 'marketWatch.title' }, { market: data.market.name })} />
          </section>
        )}
        <MyOrdersCard data={data} />
        <div className="grid-span-all">
          <TransactionsPanel assets={data.assets} />
        </div>
        <div className="grid-span-all">
          <PlaceholderPanel title={<FormattedMessage id="tradingAccount.figures" />} />
        </div>
      </div>
    </div>
  );
}
