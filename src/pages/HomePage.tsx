import { Link } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import type { UserInfo } from '../../protocol/auth.ts';
import { commodities, marketKinds } from '../../protocol/enums.ts';
import type { Order } from '../../protocol/market-data.ts';
import type { AssetSpecification, Market } from '../../protocol/reference.ts';
import { toApiError } from '../api/errors.ts';
import { fetchMyActiveOrders } from '../api/orders.ts';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';
import { useMyOrders } from '../trading/live.ts';
import { fetchAssets, fetchMarkets } from '../api/reference.ts';
import { authRedirects } from '../app/middleware.ts';
import { useAsync } from '../app/use-async.ts';
import { usePageTitle } from '../app/use-page-title.ts';
import { useAuth } from '../auth/use-auth.ts';
import { DataTable, type DataTableColumn } from '../components/DataTable.tsx';
import { MarketPhaseBadge } from '../components/PhaseBadge.tsx';
import { enumLabelKey, orderStatusLabelKey } from '../i18n/enum-labels.ts';
import { formatApiError } from '../i18n/format-error.ts';
import { formatExchangeDateTime, formatMinor } from '../i18n/format.ts';
import { localePath } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { useAccountFigures } from '../trading/account/account-figures.ts';
import { FiguresError } from '../trading/account/AccountFigures.tsx';
import { LimitsAtAGlance } from '../trading/account/LimitsAtAGlance.tsx';
import { localName } from '../i18n/reference-names.ts';

/** Home (SPEC §2): what a signed-in user needs first; the public face for a guest. */
export function HomePage() {
  const { user } = useAuth();
  return user ? <Dashboard user={user} /> : <GuestHome />;
}

interface MarketRow {
  market: Market;
  assets: number;
}

function Dashboard({ user }: { user: UserInfo }) {
  const intl = useIntl();
  const locale = useLocale();
  usePageTitle(intl.formatMessage({ id: 'nav.home' }));
  const reference = useAsync(async () => {
    const [{ markets }, assets] = await Promise.all([fetchMarkets(), fetchAssets()]);
    const rows = markets.map<MarketRow>((market) => ({
      market,
      assets: assets.filter((asset) => asset.marketId === market.id).length,
    }));
    return { rows, assets: new Map(assets.map((asset) => [asset.id, asset])) };
  }, [user.userId]);
  // The list comes from the user's orders (live); the call seeds them and says when the first list is in.
  const ordersLoad = useAsync((signal) => fetchMyActiveOrders(signal), [user.userId]);
  const liveOrders = useMyOrders();
  const live = useRealtime() !== null;

  const marketColumns: DataTableColumn<MarketRow>[] = [
    {
      id: 'name',
      header: intl.formatMessage({ id: 'home.markets.market' }),
      sortValue: (row) => localName(row.market, locale),
      cell: (row) => (
        <Link to={localePath(locale, `/trading/market/${row.market.id}/account`)} className="strong-link">
          {localName(row.market, locale)}
        </Link>
      ),
    },
    {
      id: 'commodity',
      header: intl.formatMessage({ id: 'home.markets.commodity' }),
      sortValue: (row) => row.market.commodity,
      cell: (row) => <FormattedMessage id={enumLabelKey('commodity', row.market.commodity)} />,
    },
    {
      id: 'kind',
      header: intl.formatMessage({ id: 'home.markets.kind' }),
      sortValue: (row) => row.market.kind,
      cell: (row) => <FormattedMessage id={enumLabelKey('marketKind', row.market.kind)} />,
    },
    {
      id: 'assets',
      header: intl.formatMessage({ id: 'home.markets.assets' }),
      align: 'end',
      sortValue: (row) => row.assets,
      cell: (row) => intl.formatNumber(row.assets),
    },
    {
      id: 'phase',
      header: intl.formatMessage({ id: 'home.markets.phase' }),
      cell: (row) => <MarketPhaseBadge marketId={row.market.id} />,
    },
  ];

  const assetOf = (order: Order): AssetSpecification | undefined => reference.data?.assets.get(order.assetId);
  const orderColumns: DataTableColumn<Order>[] = [
    {
      id: 'asset',
      header: intl.formatMessage({ id: 'home.orders.asset' }),
      sortValue: (order) => order.assetId,
      cell: (order) => {
        const asset = assetOf(order);
        return asset ? (
          <Link to={localePath(locale, `/trading/market/${asset.marketId}/assets/${asset.id}`)} className="strong-link mono">
            {asset.code}
          </Link>
        ) : (
          <span className="mono">{order.assetId}</span>
        );
      },
    },
    {
      id: 'way',
      header: intl.formatMessage({ id: 'home.orders.way' }),
      sortValue: (order) => order.way,
      cell: (order) => (
        <span className={`way way-${order.way}`}>
          <FormattedMessage id={enumLabelKey('way', order.way)} />
        </span>
      ),
    },
    {
      id: 'client',
      header: intl.formatMessage({ id: 'home.orders.client' }),
      sortValue: (order) => order.clientCode,
      cell: (order) => order.clientCode,
    },
    {
      id: 'qty',
      header: intl.formatMessage({ id: 'home.orders.quantity' }),
      align: 'end',
      sortValue: (order) => order.qty,
      cell: (order) => {
        const asset = assetOf(order);
        return asset ? formatMinor(intl, order.qty, asset.quantityDecimals) : order.qty;
      },
    },
    {
      id: 'price',
      header: intl.formatMessage({ id: 'home.orders.price' }),
      align: 'end',
      sortValue: (order) => order.price,
      cell: (order) => {
        const asset = assetOf(order);
        if (order.price === null) return '—';
        return asset ? formatMinor(intl, order.price, asset.priceDecimals) : order.price;
      },
    },
    {
      id: 'status',
      header: intl.formatMessage({ id: 'home.orders.status' }),
      sortValue: (order) => order.status,
      cell: (order) => (
        <span className="status-cell">
          <FormattedMessage id={orderStatusLabelKey(order.status)} />
          {order.suspended && (
            <span className="badge badge-neutral">
              <FormattedMessage id="home.orders.suspended" />
            </span>
          )}
        </span>
      ),
    },
    {
      id: 'createdAt',
      header: intl.formatMessage({ id: 'home.orders.createdAt' }),
      sortValue: (order) => order.createdAt,
      cell: (order) => <time dateTime={order.createdAt}>{formatExchangeDateTime(intl, order.createdAt)}</time>,
    },
  ];

  const roles = intl.formatList(user.roles.map((role) => intl.formatMessage({ id: enumLabelKey('role', role) })));
  const notAssigned = intl.formatMessage({ id: 'home.notAssigned' });

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>
            <FormattedMessage id="home.welcome" values={{ name: user.name }} />
          </h1>
          <p className="muted">
            <FormattedMessage id="home.subtitle" values={{ roles }} />
          </p>
        </div>
        <Link to={localePath(locale, '/trading/workspace')} className="button button-primary">
          <FormattedMessage id="home.openWorkspace" />
        </Link>
      </div>

      <div className="dashboard-grid">
        <section className="card card-span-2" aria-labelledby="markets-title">
          <div className="card-header">
            <h2 id="markets-title">
              <FormattedMessage id="home.markets.title" />
            </h2>
          </div>
          {reference.status === 'error' ? (
            <div className="alert alert-error" role="alert">
              {formatApiError(intl, toApiError(reference.error))}{' '}
              <button type="button" className="button-link" onClick={reference.reload}>
                <FormattedMessage id="page.error.retry" />
              </button>
            </div>
          ) : (
            <DataTable
              label={intl.formatMessage({ id: 'home.markets.title' })}
              columns={marketColumns}
              rows={reference.data?.rows ?? []}
              rowKey={(row) => row.market.id}
              loading={reference.status === 'loading'}
              hideFooter
            />
          )}
        </section>

        <section className="card" aria-labelledby="account-title">
          <div className="card-header">
            <h2 id="account-title">
              <FormattedMessage id="home.account.title" />
            </h2>
            <Link to={localePath(locale, '/my-account')} className="small">
              <FormattedMessage id="home.account.manage" />
            </Link>
          </div>
          <dl className="description-list">
            <div>
              <dt>
                <FormattedMessage id="profile.user" />
              </dt>
              <dd>{user.username}</dd>
            </div>
            <div>
              <dt>
                <FormattedMessage id="profile.broker" />
              </dt>
              <dd>{user.broker?.name ?? notAssigned}</dd>
            </div>
            <div>
              <dt>
                <FormattedMessage id="profile.agency" />
              </dt>
              <dd>{user.agency?.name ?? notAssigned}</dd>
            </div>
            <div>
              <dt>
                <FormattedMessage id="profile.terminal" />
              </dt>
              <dd>{user.terminal?.name ?? notAssigned}</dd>
            </div>
          </dl>
        </section>

        <section className="card card-span-2" aria-labelledby="orders-title">
          <div className="card-header">
            <h2 id="orders-title">
              <FormattedMessage id="home.orders.title" />
            </h2>
          </div>
          {ordersLoad.status === 'error' ? (
            <div className="alert alert-error" role="alert">
              {formatApiError(intl, toApiError(ordersLoad.error))}{' '}
              <button type="button" className="button-link" onClick={ordersLoad.reload}>
                <FormattedMessage id="page.error.retry" />
              </button>
            </div>
          ) : (
            <DataTable
              label={intl.formatMessage({ id: 'home.orders.title' })}
              columns={orderColumns}
              rows={ordersLoad.status === 'loading' ? [] : live ? liveOrders : (ordersLoad.data ?? [])}
              rowKey={(order) => order.orderId}
              loading={ordersLoad.status === 'loading'}
              initialSort={{ columnId: 'createdAt', direction: 'desc' }}
              initialRowsPerPage={10}
              rowsPerPageOptions={[10, 25, 50, 'all']}
              emptyMessage={
                <span className="empty-state">
                  <strong>
                    <FormattedMessage id="home.orders.empty" />
                  </strong>
                  <span className="muted">
                    <FormattedMessage id="home.orders.emptyHint" />
                  </span>
                </span>
              }
            />
          )}
        </section>

        <LimitsCard />
      </div>
    </div>
  );
}

/** Limits at a glance: the engine's figures for each client the user may see, live. */
function LimitsCard() {
  const locale = useLocale();
  const figures = useAccountFigures({ positions: false });
  const limits = figures.data?.limits;
  return (
    <section className="card" aria-labelledby="limits-title">
      <div className="card-header">
        <h2 id="limits-title">
          <FormattedMessage id="home.limits.title" />
        </h2>
        <Link to={localePath(locale, '/trading/account')} className="small">
          <FormattedMessage id="nav.tradingAccount" />
        </Link>
      </div>
      <FiguresError figures={figures} />
      {limits ? <LimitsAtAGlance limits={limits.items} amountDecimals={limits.amountDecimals} /> : figures.status === 'loading' && (
        <p className="muted" aria-busy="true">
          <FormattedMessage id="table.loading" />
        </p>
      )}
    </section>
  );
}

function GuestHome() {
  const intl = useIntl();
  const locale = useLocale();
  usePageTitle();
  const gasKinds = marketKinds.filter((kind) => kind !== 'pmc');
  const electricityKinds = marketKinds.filter((kind) => kind !== 'balancingGroup');
  const kindsOf = (kinds: readonly (typeof marketKinds)[number][]) =>
    intl.formatList(kinds.map((kind) => intl.formatMessage({ id: enumLabelKey('marketKind', kind) })));
  return (
    <div className="page">
      <section className="hero">
        <p className="hero-eyebrow">
          <FormattedMessage id="home.guest.eyebrow" />
        </p>
        <h1>
          <FormattedMessage id="home.guest.title" />
        </h1>
        <p className="hero-lead">
          <FormattedMessage id="home.guest.lead" />
        </p>
        <div className="hero-actions">
          <Link to={localePath(locale, authRedirects.login)} className="button button-primary button-large">
            <FormattedMessage id="home.guest.signIn" />
          </Link>
          <Link to={localePath(locale, '/api-docs')} className="button button-secondary button-large">
            <FormattedMessage id="nav.apiDocs" />
          </Link>
        </div>
      </section>
      <div className="feature-grid">
        {commodities.map((commodity) => (
          <section key={commodity} className="card feature">
            <span className={`feature-icon feature-${commodity}`} aria-hidden="true">
              {commodity === 'gas' ? '◆' : 'ϟ'}
            </span>
            <h2>
              <FormattedMessage id={commodity === 'gas' ? 'home.guest.gasTitle' : 'home.guest.electricityTitle'} />
            </h2>
            <p className="muted">{kindsOf(commodity === 'gas' ? gasKinds : electricityKinds)}</p>
          </section>
        ))}
        <section className="card feature">
          <span className="feature-icon feature-live" aria-hidden="true">
            ●
          </span>
          <h2>
            <FormattedMessage id="home.guest.liveTitle" />
          </h2>
          <p className="muted">
            <FormattedMessage id="home.guest.liveText" />
          </p>
        </section>
      </div>
    </div>
  );
}
