import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { SessionStats } from '../../../protocol/market-data.ts';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import { PhaseBadge } from '../../components/PhaseBadge.tsx';
import { formatMinor } from '../../i18n/format.ts';
import { localePath } from '../../i18n/locale.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import { useStats } from '../live.ts';
import { assetPhase, useMarketSession, type MarketSession } from './session-live.ts';
import { assetTypeLabel, useLocalName } from '../../i18n/reference-names.ts';

export type SideAssetLink = (props: { asset: AssetSpecification; current: boolean; children: ReactNode }) => ReactNode;

export function RouterSideAssetLink({ asset, current, children }: { asset: AssetSpecification; current: boolean; children: ReactNode }) {
  const locale = useLocale();
  return (
    <Link className="side-asset-link" data-asset-id={asset.id} aria-current={current ? 'page' : undefined} to={localePath(locale, `/trading/market/${asset.marketId}/assets/${asset.id}`)}>
      {children}
    </Link>
  );
}

/** Last price against the reference (settlement) price, in basis points; null when either is missing. */
export function changeBps(last: number | null | undefined, reference: number | null | undefined): number | null {
  if (last === null || last === undefined || reference === null || reference === undefined || reference === 0) return null;
  return Math.round(((last - reference) * 10_000) / reference);
}

export function formatChange(intl: IntlShape, bps: number): string {
  return intl.formatNumber(bps / 10_000, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
}

export function SideAssetRow({ asset, current, session, stats, AssetLink }: { asset: AssetSpecification; current: boolean; session: MarketSession | null; stats: SessionStats | null; AssetLink: SideAssetLink }) {
  const intl = useIntl();
  const name = useLocalName();
  const bps = changeBps(stats?.lastPrice, stats?.settlementPrice);
  const direction = bps === null || bps === 0 ? 'flat' : bps > 0 ? 'up' : 'down';
  return (
    <li className={current ? 'side-asset side-asset-current' : 'side-asset'}>
      <AssetLink asset={asset} current={current}>
        <span className="side-asset-code" title={name(asset)}>
          {asset.code}
        </span>
        <PhaseBadge phase={assetPhase(session, asset.id)} />
        <span className="side-asset-type muted small">{assetTypeLabel(intl, asset.type)}</span>
        <span className="side-asset-figures mono">
          <span className="side-asset-price">{stats?.lastPrice === null || stats?.lastPrice === undefined ? '—' : formatMinor(intl, stats.lastPrice, asset.priceDecimals)}</span>
          <span className={`side-asset-change change-${direction}`} title={intl.formatMessage({ id: 'sessionPanels.side.changeTitle' })}>
            {bps === null ? '—' : formatChange(intl, bps)}
          </span>
        </span>
      </AssetLink>
    </li>
  );
}

function LiveSideAssetRow(props: { asset: AssetSpecification; current: boolean; session: MarketSession | null; AssetLink: SideAssetLink }) {
  return <SideAssetRow {...props} stats={useStats(props.asset.id)} />;
}

/** The market's assets: phase, last price and its change; a click opens the asset. */
export function SideAssetsView({
  assets,
  currentAssetId,
  session,
  statsOf,
  AssetLink = RouterSideAssetLink,
}: {
  assets: readonly AssetSpecification[];
  currentAssetId: string;
  session: MarketSession | null;
  /** Stats per asset for tests; live rows subscribe to their own. */
  statsOf?: (assetId: string) => SessionStats | null;
  AssetLink?: SideAssetLink;
}) {
  const intl = useIntl();
  if (assets.length === 0) {
    return (
      <p className="muted small">
        <FormattedMessage id="sessionPanels.side.noAssets" />
      </p>
    );
  }
  return (
    <ul className="side-assets" aria-label={intl.formatMessage({ id: 'sessionPanels.side.assets' })}>
      {assets.map((asset) =>
        statsOf ? (
          <SideAssetRow key={asset.id} asset={asset} current={asset.id === currentAssetId} session={session} stats={statsOf(asset.id)} AssetLink={AssetLink} />
        ) : (
          <LiveSideAssetRow key={asset.id} asset={asset} current={asset.id === currentAssetId} session={session} AssetLink={AssetLink} />
        ),
      )}
    </ul>
  );
}

export function SideAssets({ asset, assets }: { asset: AssetSpecification; assets: readonly AssetSpecification[] }) {
  const session = useMarketSession(asset.marketId);
  return <SideAssetsView assets={assets.filter((candidate) => candidate.marketId === asset.marketId)} currentAssetId={asset.id} session={session} />;
}
