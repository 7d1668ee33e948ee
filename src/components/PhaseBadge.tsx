import { FormattedMessage, useIntl } from 'react-intl';
import type { SessionPhase } from '../../protocol/enums.ts';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import { MarketPhase } from '../realtime/RealtimeProvider.tsx';

/** A session phase as a badge; '…' while it is not known yet. */
export function PhaseBadge({ phase }: { phase: SessionPhase | null }) {
  const intl = useIntl();
  if (!phase) {
    return (
      <span
        className="badge badge-neutral"
        title={intl.formatMessage({ id: 'home.phaseWaiting' })}
        aria-label={intl.formatMessage({ id: 'home.phaseWaiting' })}
        data-phase-waiting=""
      >
        …
      </span>
    );
  }
  return (
    <span className={`badge badge-phase-${phase}`}>
      <FormattedMessage id={enumLabelKey('sessionPhase', phase)} />
    </span>
  );
}

/** The live phase of a market. */
export function MarketPhaseBadge({ marketId }: { marketId: string }) {
  return <MarketPhase marketId={marketId}>{(phase) => <PhaseBadge phase={phase} />}</MarketPhase>;
}
