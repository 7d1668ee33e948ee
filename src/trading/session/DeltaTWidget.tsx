import { FormattedMessage, useIntl } from 'react-intl';
import type { Observable } from 'rxjs';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import { formatMinor } from '../../i18n/format.ts';
import { Countdown } from './Countdown.tsx';
import { formatExchangeTime } from './PhaseWidget.tsx';
import { useDeltaT, useIsPast, type DeltaTPeriod } from './session-live.ts';

/**
 * Delta T of the asset: while a period runs (from its deltaTStart activity until `endsAt`), the
 * countdown to the match and the match price; a competing order restarts it with a new activity.
 */
export function DeltaTWidgetView({ asset, period, clock }: { asset: AssetSpecification; period: DeltaTPeriod | null; clock?: Observable<number> }) {
  const intl = useIntl();
  const over = useIsPast(period?.endsAt ?? null, clock);
  const running = period !== null && period.endedAt === null && !over;
  return (
    <section className={running ? 'card session-widget delta-t-widget delta-t-running' : 'card session-widget delta-t-widget'} aria-labelledby="delta-t-title">
      <div className="card-header">
        <h2 id="delta-t-title">
          <FormattedMessage id="sessionPanels.deltaT.title" />
        </h2>
        {running && (
          <span className="badge badge-delta-t">
            <FormattedMessage id="sessionPanels.deltaT.running" />
          </span>
        )}
      </div>
      {running ? (
        <div className="delta-t-body" aria-live="polite">
          <p className="delta-t-countdown">
            <FormattedMessage
              id="sessionPanels.deltaT.matchIn"
              values={{ countdown: <Countdown key="countdown" until={period.endsAt} {...(clock ? { clock } : {})} /> }}
            />
          </p>
          <dl className="description-list">
            <div>
              <dt>
                <FormattedMessage id="sessionPanels.deltaT.matchPrice" />
              </dt>
              <dd className="mono">{period.price === null ? '—' : `${formatMinor(intl, period.price, asset.priceDecimals)} ${asset.currency}`}</dd>
            </div>
            <div>
              <dt>
                <FormattedMessage id="sessionPanels.deltaT.endsAt" />
              </dt>
              <dd className="mono">{formatExchangeTime(intl, period.endsAt, true)}</dd>
            </div>
          </dl>
        </div>
      ) : (
        <p className="muted">
          <FormattedMessage id="sessionPanels.deltaT.idle" />{' '}
          {period && <FormattedMessage id="sessionPanels.deltaT.last" values={{ time: formatExchangeTime(intl, period.endedAt ?? period.endsAt, true) }} />}
        </p>
      )}
    </section>
  );
}

export function DeltaTWidget({ asset }: { asset: AssetSpecification }) {
  return <DeltaTWidgetView asset={asset} period={useDeltaT(asset.id)} />;
}

/**
 * On a market watch row: while the asset's delta-T period runs, a badge with the countdown to the
 * match, saying why the row's best bid and ask may cross.
 */
export function DeltaTRowBadgeView({ period, clock }: { period: DeltaTPeriod | null; clock?: Observable<number> }) {
  const intl = useIntl();
  const over = useIsPast(period?.endsAt ?? null, clock);
  if (period === null || period.endedAt !== null || over) return null;
  const hint = intl.formatMessage({ id: 'sessionPanels.deltaT.rowHint' }, { time: formatExchangeTime(intl, period.endsAt, true) });
  return (
    <span className="badge badge-delta-t delta-t-row-badge" title={hint} aria-label={hint}>
      <FormattedMessage id="sessionPanels.deltaT.rowBadge" values={{ countdown: <Countdown key="countdown" until={period.endsAt} {...(clock ? { clock } : {})} /> }} />
    </span>
  );
}

export function DeltaTRowBadge({ assetId }: { assetId: string }) {
  return <DeltaTRowBadgeView period={useDeltaT(assetId)} />;
}
