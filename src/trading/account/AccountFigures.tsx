import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import { toApiError } from '../../api/errors.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import { formatExchangeDateTime } from '../../i18n/format.ts';
import type { AccountFigures, FiguresState } from './account-figures.ts';
import { ClientAccountsTable } from './ClientAccountsTable.tsx';
import { LimitsTable } from './LimitsTable.tsx';
import { PositionsTable, type PositionAssetLink } from './PositionsTable.tsx';
import './Account.css';

type Figures = FiguresState<AccountFigures> & { reload: () => void };

/** The load error with a retry; the last figures stay below it. */
export function FiguresError({ figures }: { figures: Figures }) {
  const intl = useIntl();
  if (figures.status !== 'error') return null;
  return (
    <div className="alert alert-error" role="alert">
      {formatApiError(intl, toApiError(figures.error))}{' '}
      <button type="button" className="button-link" onClick={figures.reload}>
        <FormattedMessage id="page.error.retry" />
      </button>
    </div>
  );
}

/** When the figures were taken and the currency of their amounts. */
function FiguresMeta({ at, currency }: { at: string | undefined; currency: string | undefined }) {
  const intl = useIntl();
  if (!at) return null;
  return (
    <span className="account-figures-meta">
      {currency && (
        <>
          <FormattedMessage id="account.figures.amountsIn" values={{ currency }} />
          {' · '}
        </>
      )}
      <FormattedMessage id="account.figures.updatedAt" values={{ time: <time dateTime={at}>{formatExchangeDateTime(intl, at)}</time> }} />
    </span>
  );
}

/** Client general account (name, code, ACER code) of every client the user may see. */
export function ClientAccountsCard({ figures, children, wide = false }: { figures: Figures; children?: ReactNode; wide?: boolean }) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: 'tradingAccount.clients' });
  return (
    <section className={wide ? 'card grid-span-all' : 'card'} aria-labelledby="account-clients-title">
      <div className="card-header">
        <h2 id="account-clients-title">{label}</h2>
      </div>
      <ClientAccountsTable clients={figures.data?.limits.items.map((item) => item.client) ?? []} label={label} loading={figures.data === null && figures.status === 'loading'} />
      {children}
    </section>
  );
}

/** The financial limits table, as the engine's pre-trade clearing sees them now. */
export function LimitsCard({ figures }: { figures: Figures }) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: 'account.limits.title' });
  return (
    <section className="card grid-span-all account-table" aria-labelledby="account-limits-title">
      <div className="card-header">
        <h2 id="account-limits-title">{label}</h2>
        <FiguresMeta at={figures.data?.limits.at} currency={figures.data?.limits.items[0]?.currency} />
      </div>
      <FiguresError figures={figures} />
      <LimitsTable
        limits={figures.data?.limits.items ?? []}
        amountDecimals={figures.data?.limits.amountDecimals ?? 2}
        label={label}
        loading={figures.data === null && figures.status === 'loading'}
      />
    </section>
  );
}

/** This session's positions per client and asset. */
export function PositionsCard({ figures, assets, AssetLink }: { figures: Figures; assets: readonly AssetSpecification[]; AssetLink?: PositionAssetLink }) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: 'account.positions.title' });
  const positions = figures.data?.positions;
  return (
    <section className="card grid-span-all account-table" aria-labelledby="account-positions-title">
      <div className="card-header">
        <div>
          <h2 id="account-positions-title">{label}</h2>
          <p className="muted small">
            <FormattedMessage id="account.positions.scope" />
          </p>
        </div>
        <FiguresMeta at={positions?.at} currency={figures.data?.limits.items[0]?.currency} />
      </div>
      <PositionsTable
        positions={positions?.items ?? []}
        assets={assets}
        amountDecimals={positions?.amountDecimals ?? 2}
        label={label}
        loading={figures.data === null && figures.status === 'loading'}
        {...(AssetLink ? { AssetLink } : {})}
      />
    </section>
  );
}
