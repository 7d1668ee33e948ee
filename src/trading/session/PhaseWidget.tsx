import { useSelector } from '@xstate/react';
import { useMemo, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { Observable } from 'rxjs';
import type { SessionPhaseSnapshot } from '../../../machines/session-phase.machine.ts';
import { watchPhase, type SessionActorRef } from '../../../machines/session.machine.ts';
import type { SessionPhase } from '../../../protocol/enums.ts';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import { PhaseBadge } from '../../components/PhaseBadge.tsx';
import { DescriptionList } from '../../components/DescriptionList.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { EXCHANGE_TIME_ZONE, formatCalendarDate } from '../../i18n/format.ts';
import { useRealtime } from '../../realtime/RealtimeProvider.tsx';
import { Countdown } from './Countdown.tsx';

export interface PhaseInfo {
  phase: SessionPhase | null;
  sessionDate: string | null;
  since: string | null;
  nextPhase: SessionPhase | null;
  nextPhaseAt: string | null;
}

export const noPhaseInfo: PhaseInfo = { phase: null, sessionDate: null, since: null, nextPhase: null, nextPhaseAt: null };

/** An exchange (Bucharest) time: 'HH:mm' (or 'HH:mm:ss') on the same Bucharest day as `now`, else with the date. */
export function formatExchangeTime(intl: IntlShape, iso: string, seconds = false, now = Date.now()): string {
  const date = new Date(iso);
  const day = (value: Date | number) => intl.formatDate(value, { timeZone: EXCHANGE_TIME_ZONE, dateStyle: 'short' });
  const time = intl.formatTime(date, { timeZone: EXCHANGE_TIME_ZONE, hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}), hourCycle: 'h23' });
  return day(date) === day(now) ? time : `${day(date)} ${time}`;
}

/** "Closing in 01:23:45 at 23:40", or that nothing is scheduled. */
export function NextPhase({ nextPhase, nextPhaseAt, clock }: { nextPhase: SessionPhase | null; nextPhaseAt: string | null; clock?: Observable<number> }) {
  const intl = useIntl();
  if (!nextPhase || !nextPhaseAt) {
    return (
      <span className="muted">
        <FormattedMessage id="sessionPanels.phase.noNext" />
      </span>
    );
  }
  return (
    <span className="next-phase">
      <FormattedMessage
        id="sessionPanels.phase.nextIn"
        values={{
          phase: (
            <strong key="phase">
              <FormattedMessage id={enumLabelKey('sessionPhase', nextPhase)} />
            </strong>
          ),
          countdown: <Countdown key="countdown" until={nextPhaseAt} {...(clock ? { clock } : {})} />,
        }}
      />{' '}
      <span className="muted small">
        <FormattedMessage id="sessionPanels.phase.nextAt" values={{ time: formatExchangeTime(intl, nextPhaseAt) }} />
      </span>
    </span>
  );
}

/** The asset's session: phase, session date, since when, and the countdown to the next phase. */
export function PhaseWidgetView({ info, clock }: { info: PhaseInfo; clock?: Observable<number> }) {
  const intl = useIntl();
  const rows: Array<[string, ReactNode]> = [
    [intl.formatMessage({ id: 'sessionPanels.phase.sessionDate' }), info.sessionDate ? formatCalendarDate(intl, info.sessionDate) : '—'],
    [
      intl.formatMessage({ id: 'sessionPanels.phase.next' }),
      info.phase ? <NextPhase nextPhase={info.nextPhase} nextPhaseAt={info.nextPhaseAt} {...(clock ? { clock } : {})} /> : '—',
    ],
  ];
  return (
    <section className="card session-widget phase-widget" aria-labelledby="phase-widget-title" data-phase={info.phase ?? undefined}>
      <div className="card-header">
        <h2 id="phase-widget-title">
          <FormattedMessage id="sessionPanels.phase.title" />
        </h2>
        <PhaseBadge phase={info.phase} />
      </div>
      <DescriptionList rows={rows} wide={false} />
    </section>
  );
}

const selectInfo = (snapshot: SessionPhaseSnapshot): PhaseInfo => {
  const { phase, sessionDate, since, nextPhase, nextPhaseAt } = snapshot.context;
  return { phase, sessionDate, since, nextPhase, nextPhaseAt };
};
const sameInfo = (a: PhaseInfo, b: PhaseInfo) =>
  a.phase === b.phase && a.sessionDate === b.sessionDate && a.since === b.since && a.nextPhase === b.nextPhase && a.nextPhaseAt === b.nextPhaseAt;

/** The session-phase machine of a market (assetId null) or of one asset, as PhaseInfo. */
export function usePhaseInfo(session: SessionActorRef, marketId: string, assetId: string | null): PhaseInfo {
  const actor = useMemo(() => watchPhase(session, marketId, assetId), [session, marketId, assetId]);
  return useSelector(actor, selectInfo, sameInfo);
}

function LivePhaseWidget({ session, asset, clock }: { session: SessionActorRef; asset: AssetSpecification; clock?: Observable<number> | undefined }) {
  return <PhaseWidgetView info={usePhaseInfo(session, asset.marketId, asset.id)} {...(clock ? { clock } : {})} />;
}

/** `clock`: the countdown's time (the QA player's recording clock); the wall clock otherwise. */
export function PhaseWidget({ asset, clock }: { asset: AssetSpecification; clock?: Observable<number> | undefined }) {
  const realtime = useRealtime();
  if (!realtime) return <PhaseWidgetView info={noPhaseInfo} />;
  return <LivePhaseWidget key={asset.id} session={realtime.session} asset={asset} clock={clock} />;
}
