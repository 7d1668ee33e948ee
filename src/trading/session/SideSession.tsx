import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Observable } from 'rxjs';
import type { Market } from '../../../protocol/reference.ts';
import type { SessionActorRef } from '../../../machines/session.machine.ts';
import { PhaseBadge } from '../../components/PhaseBadge.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { formatCalendarDate } from '../../i18n/format.ts';
import { useRealtime } from '../../realtime/RealtimeProvider.tsx';
import { NextPhase, noPhaseInfo, usePhaseInfo, type PhaseInfo } from './PhaseWidget.tsx';
import { useLocalName } from '../../i18n/reference-names.ts';

export function SideSessionRow({ market, info, current, clock }: { market: Market; info: PhaseInfo; current: boolean; clock?: Observable<number> }) {
  const intl = useIntl();
  const name = useLocalName();
  return (
    <li className={current ? 'side-session side-session-current' : 'side-session'} data-market-id={market.id} aria-current={current ? 'true' : undefined}>
      <div className="side-session-head">
        <span className="side-session-name">{name(market)}</span>
        <PhaseBadge phase={info.phase} />
      </div>
      <div className="muted small">
        <FormattedMessage id={enumLabelKey('commodity', market.commodity)} /> · <FormattedMessage id={enumLabelKey('marketKind', market.kind)} />
        {info.sessionDate && (
          <>
            {' · '}
            <FormattedMessage id="sessionPanels.side.sessionOf" values={{ date: formatCalendarDate(intl, info.sessionDate) }} />
          </>
        )}
      </div>
      {info.phase && (
        <div className="small">
          <NextPhase nextPhase={info.nextPhase} nextPhaseAt={info.nextPhaseAt} {...(clock ? { clock } : {})} />
        </div>
      )}
    </li>
  );
}

function LiveSideSessionRow({ session, market, current }: { session: SessionActorRef; market: Market; current: boolean }) {
  return <SideSessionRow market={market} info={usePhaseInfo(session, market.id, null)} current={current} />;
}

/** Every market the user sees: its phase, session date and the countdown to its next phase. */
export function SideSessionView({ markets, currentMarketId, row }: { markets: readonly Market[]; currentMarketId: string; row: (market: Market, current: boolean) => ReactNode }) {
  const intl = useIntl();
  if (markets.length === 0) {
    return (
      <p className="muted small">
        <FormattedMessage id="sessionPanels.side.noMarkets" />
      </p>
    );
  }
  return (
    <ul className="side-sessions" aria-label={intl.formatMessage({ id: 'sessionPanels.side.session' })}>
      {markets.map((market) => row(market, market.id === currentMarketId))}
    </ul>
  );
}

export function SideSession({ markets, currentMarketId }: { markets: readonly Market[]; currentMarketId: string }) {
  const realtime = useRealtime();
  return (
    <SideSessionView
      markets={markets}
      currentMarketId={currentMarketId}
      row={(market, current) =>
        realtime ? (
          <LiveSideSessionRow key={market.id} session={realtime.session} market={market} current={current} />
        ) : (
          <SideSessionRow key={market.id} market={market} info={noPhaseInfo} current={current} />
        )
      }
    />
  );
}
