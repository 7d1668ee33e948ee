import { Link, useLoaderData } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/use-page-title.ts';
import { PhaseBadge } from '../../components/PhaseBadge.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { localePath } from '../../i18n/locale.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import type { AssetData } from './loaders.ts';
import { AssetTrading, AssetShortcuts, BuySellButtons, StatsCard } from '../../trading/AssetTrading.tsx';
import { Permissions } from '../../trading/TradingDesk.tsx';
import { AssetInfoView } from '../../trading/session/AssetInfo.tsx';
import { DeltaTWidget } from '../../trading/session/DeltaTWidget.tsx';
import { PhaseWidget } from '../../trading/session/PhaseWidget.tsx';
import { useReferenceData } from '../../trading/session/reference.ts';
import { SideAssets } from '../../trading/session/SideAssets.tsx';
import { SidePanel } from '../../trading/session/SidePanel.tsx';
import { SideSession } from '../../trading/session/SideSession.tsx';
import { TradesSummaryCard } from '../../trading/session/TradesSummary.tsx';
import '../../trading/session/session.css';
import { localName } from '../../i18n/reference-names.ts';

/**
 * Trading view of one asset: the market's assets on the left, every market's session on the right
 * (both collapsible); in the middle the session and delta-T widgets, the live book, own orders,
 * transactions, the client trades summary, statistics and the asset's specification.
 */
export function AssetPage() {
  const intl = useIntl();
  const locale = useLocale();
  const { asset, market } = useLoaderData({ strict: false }) as AssetData;
  const reference = useReferenceData();
  usePageTitle(localName(asset, locale));
  const ring = reference?.rings.find((candidate) => candidate.id === asset.ringId) ?? null;
  return (
    <div className="page asset-page">
      <nav className="breadcrumbs" aria-label={intl.formatMessage({ id: 'nav.breadcrumbs' })}>
        <Link to={localePath(locale, '/trading/workspace')}>
          <FormattedMessage id="nav.workspace" />
        </Link>
        <span aria-hidden="true">/</span>
        {market ? (
          <Link to={localePath(locale, `/trading/market/${market.id}/account`)}>{localName(market, locale)}</Link>
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
          <h1>{localName(asset, locale)}</h1>
          {market && (
            <p className="muted">
              {localName(market, locale)} · <FormattedMessage id={enumLabelKey('commodity', market.commodity)} /> ·{' '}
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
      <div className="asset-layout">
        <SidePanel id="side-assets" side="left" title={intl.formatMessage({ id: 'sessionPanels.side.assets' })}>
          <SideAssets asset={asset} assets={reference?.assets ?? []} />
        </SidePanel>
        <div className="asset-main">
          <div className="session-strip">
            <PhaseWidget asset={asset} />
            <DeltaTWidget asset={asset} />
          </div>
          <AssetTrading asset={asset} />
          <TradesSummaryCard asset={asset} />
          <div className="two-col-grid">
            <StatsCard asset={asset} />
            <AssetInfoView asset={asset} market={market} ring={ring} />
          </div>
        </div>
        <SidePanel id="side-session" side="right" title={intl.formatMessage({ id: 'sessionPanels.side.session' })}>
          <SideSession markets={reference?.markets ?? (market ? [market] : [])} currentMarketId={asset.marketId} />
        </SidePanel>
      </div>
    </div>
  );
}
