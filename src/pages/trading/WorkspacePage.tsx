import { Link, useLoaderData } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/use-page-title.ts';
import { MarketPhaseBadge } from '../../components/PhaseBadge.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { localePath } from '../../i18n/locale.ts';
import type { MessageKey } from '../../i18n/messages/index.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import type { WorkspaceData } from './loaders.ts';
import { LiveMarketWatch } from '../../trading/MarketWatch.tsx';
import { Workspaces } from '../../trading/Workspaces.tsx';
import { localName } from '../../i18n/reference-names.ts';

type Variant = 'default' | 'better' | 'horizontal' | 'vertical';

const variants: ReadonlyArray<{ variant: Variant; path: string; label: MessageKey }> = [
  { variant: 'default', path: '/trading/workspace', label: 'workspace.variant.default' },
  { variant: 'better', path: '/trading/workspaces_better', label: 'workspace.variant.better' },
  { variant: 'horizontal', path: '/trading/workspaces_horizontal', label: 'workspace.variant.horizontal' },
  { variant: 'vertical', path: '/trading/workspaces_vertical', label: 'workspace.variant.vertical' },
];

/**
 * The personal workspace and its three variants (SPEC §2): the live market watch of every market the
 * user sees, in the variant's arrangement; a row opens the asset's trading view, B/S a ticket.
 */
function Workspace({ variant }: { variant: Variant }) {
  const intl = useIntl();
  const locale = useLocale();
  const { markets, rings, assets } = useLoaderData({ strict: false }) as WorkspaceData;
  const current = variants.find((candidate) => candidate.variant === variant)!;
  usePageTitle(intl.formatMessage({ id: current.label }));
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <p className="eyebrow">
            <FormattedMessage id="nav.workspace" />
          </p>
          <h1>
            <FormattedMessage id={current.label} />
          </h1>
          <p className="muted">
            <FormattedMessage id="workspace.hint" />
          </p>
        </div>
      </div>
      <nav className="tabs" aria-label={intl.formatMessage({ id: 'workspace.variants' })}>
        {variants.map((item) => (
          <Link
            key={item.variant}
            to={localePath(locale, item.path)}
            className={item.variant === variant ? 'tab active' : 'tab'}
            aria-current={item.variant === variant ? 'page' : undefined}
            activeOptions={{ exact: true }}
            activeProps={{}}
          >
            <FormattedMessage id={item.label} />
          </Link>
        ))}
      </nav>
      <Workspaces
        reference={{ markets, rings, assets }}
        variant={variant}
        fallback={
          <div className={`workspace workspace-${variant}`}>
            {markets.map((market) => {
              const marketAssets = assets.filter((asset) => asset.marketId === market.id);
              return (
                <section key={market.id} className="card workspace-panel" aria-labelledby={`ws-${market.id}`}>
                  <div className="workspace-panel-header">
                    <h2 id={`ws-${market.id}`}>{localName(market, locale)}</h2>
                    <MarketPhaseBadge marketId={market.id} />
                  </div>
                  <p className="muted small">
                    <FormattedMessage id={enumLabelKey('commodity', market.commodity)} /> ·{' '}
                    <FormattedMessage id={enumLabelKey('marketKind', market.kind)} />
                  </p>
                  <LiveMarketWatch marketId={market.id} assets={marketAssets} label={intl.formatMessage({ id: 'marketWatch.title' }, { market: localName(market, locale) })} />
                </section>
              );
            })}
          </div>
        }
      />
    </div>
  );
}

export function WorkspacePage() {
  return <Workspace variant="default" />;
}
export function WorkspacesBetterPage() {
  return <Workspace variant="better" />;
}
export function WorkspacesHorizontalPage() {
  return <Workspace variant="horizontal" />;
}
export function WorkspacesVerticalPage() {
  return <Workspace variant="vertical" />;
}
