import { Link, useLoaderData } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/use-page-title.ts';
import { PhaseBadge } from '../../components/PhaseBadge.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { formatCalendarDate, formatMinor } from '../../i18n/format.ts';
import { localePath } from '../../i18n/locale.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import type { AssetData } from './loaders.ts';
import { AssetTrading, AssetShortcuts, BuySellButtons, StatsCard } from '../../trading/AssetTrading.tsx';
import { Permissions } from '../../trading/TradingDesk.tsx';
import { DescriptionList } from '../../components/DescriptionList.tsx';

/** Trading view of one asset: live book, order entry, own orders, transactions, statistics and specification. */
export function AssetPage() {
  const intl = useIntl();
  const locale = useLocale();
  const { asset, market } = useLoaderData({ strict: false }) as AssetData;
  usePageTitle(asset.name);
  const price = (minor: number) => formatMinor(intl, minor, asset.priceDecimals);
  const quantity = (minor: number) => formatMinor(intl, minor, asset.quantityDecimals);
  const rows: Array<[string, string]> = [
    [intl.formatMessage({ id: 'asset.code' }), asset.code],
    [intl.formatMessage({ id: 'asset.type' }), asset.type],
    [intl.formatMessage({ id: 'asset.unit' }), `${asset.unit} · ${asset.currency}`],
    [intl.formatMessage({ id: 'asset.minQuantity' }), `${quantity(asset.minQuantity)} ${asset.unit}`],
    [intl.formatMessage({ id: 'asset.maxQuantity' }), `${quantity(asset.maxQuantity)} ${asset.unit}`],
    [intl.formatMessage({ id: 'asset.quantityStep' }), quantity(asset.quantityStep)],
    [intl.formatMessage({ id: 'asset.priceStep' }), price(asset.priceStep)],
    [intl.formatMessage({ id: 'asset.priceLimits' }), `${price(asset.minPrice)} – ${price(asset.maxPrice)} ${asset.currency}`],
    [
      intl.formatMessage({ id: 'asset.deliveryPeriod' }),
      `${formatCalendarDate(intl, asset.deliveryStart)} – ${formatCalendarDate(intl, asset.deliveryEnd)}`,
    ],
    [
      intl.formatMessage({ id: 'asset.tradingPeriod' }),
      `${formatCalendarDate(intl, asset.tradingStart)} – ${formatCalendarDate(intl, asset.tradingEnd)}`,
    ],
  ];
  return (
    <div className="page">
      <nav className="breadcrumbs" aria-label={intl.formatMessage({ id: 'nav.breadcrumbs' })}>
        <Link to={localePath(locale, '/trading/workspace')}>
          <FormattedMessage id="nav.workspace" />
        </Link>
        <span aria-hidden="true">/</span>
        {market ? (
          <Link to={localePath(locale, `/trading/market/${market.id}/account`)}>{market.name}</Link>
        ) : (
          <span>{asset.marketId}</span>
        )}
        <span aria-hidden="true">/</span>
        <span aria-current="page">{asset.code}</span>
      </nav>
      <div className="page-header">
        <div>
          <p className="eyebrow">
            <FormattedMessage id="asset.eyebrow" />
          </p>
          <h1>{asset.name}</h1>
          {market && (
            <p className="muted">
              {market.name} · <FormattedMessage id={enumLabelKey('commodity', market.commodity)} /> ·{' '}
              <FormattedMessage id={enumLabelKey('marketKind', market.kind)} />
            </p>
          )}
        </div>
        <div className="page-header-actions">
          <Permissions asset={asset}>{(permissions) => <PhaseBadge phase={permissions?.phase ?? null} />}</Permissions>
          <BuySellButtons asset={asset} />
        </div>
      </div>
      <AssetShortcuts asset={asset} />
      <AssetTrading asset={asset} />
      <div className="two-col-grid">
        <StatsCard asset={asset} />
        <section className="card" aria-labelledby="spec-title">
          <div className="card-header">
            <h2 id="spec-title">
              <FormattedMessage id="asset.specification" />
            </h2>
          </div>
          <DescriptionList rows={rows} />
          <h3 className="subheading">
            <FormattedMessage id="asset.documents" />
          </h3>
          {asset.documents.length === 0 ? (
            <p className="muted">
              <FormattedMessage id="asset.noDocuments" />
            </p>
          ) : (
            <ul className="document-list">
              {asset.documents.map((document) => (
                <li key={document.fileName}>
                  <span className="file-badge" aria-hidden="true">
                    PDF
                  </span>
                  <a href={document.url} download={document.fileName}>
                    {document.title}
                  </a>{' '}
                  <span className="muted small">{document.fileName}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
