import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { sessionPhases, type SessionPhase } from '../../protocol/enums.ts';
import type { OperatorMarket } from '../../protocol/operator.ts';
import { toApiError } from '../api/errors.ts';
import { useCanAct } from '../auth/use-auth.ts';
import { DataTable, type DataTableColumn } from '../components/DataTable.tsx';
import { useDialogs } from '../components/dialogs/DialogProvider.tsx';
import { PhaseBadge } from '../components/PhaseBadge.tsx';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import { formatApiError } from '../i18n/format-error.ts';
import { useLocalName } from '../i18n/reference-names.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { useSessionReference } from '../trading/live.ts';
import { Countdown } from '../trading/session/Countdown.tsx';
import { changePhase, resumeMarket, suspendMarket } from './operator-api.ts';
import { useExchangeClock, useExchangeTime } from './format.ts';

type Command = { kind: 'suspend' } | { kind: 'resume' } | { kind: 'phase'; phase: SessionPhase };

const commandMessages: Record<Command['kind'], { title: MessageKey; description: MessageKey; label: MessageKey }> = {
  suspend: { title: 'operator.market.suspend.title', description: 'operator.market.suspend.description', label: 'operator.market.suspend' },
  resume: { title: 'operator.market.resume.title', description: 'operator.market.resume.description', label: 'operator.market.resume' },
  phase: { title: 'operator.market.phase.title', description: 'operator.market.phase.description', label: 'operator.market.phase' },
};

/**
 * Markets and their assets (issue 16): the phase, since when, the schedule's next phase with a live
 * countdown, and the operator's commands (suspend, resume, change the phase), each behind the
 * confirmation dialog. A refusal is shown on its market's row with its code's message.
 */
export function MarketsPanel({ markets: fed }: { markets: readonly OperatorMarket[] }) {
  const intl = useIntl();
  // The feed names a market once; the session's reference data has its Romanian and English names.
  const reference = useSessionReference().markets;
  const localName = useLocalName();
  const markets = useMemo(
    () =>
      fed.map((market) => {
        const known = reference.find((candidate) => candidate.id === market.marketId);
        return known ? { ...market, name: localName(known) } : market;
      }),
    [fed, reference, localName],
  );
  const dialogs = useDialogs();
  const canAct = useCanAct();
  const time = useExchangeTime();
  const clock = useExchangeClock();
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [chosen, setChosen] = useState<Record<string, SessionPhase>>({});
  const phaseName = (phase: SessionPhase) => intl.formatMessage({ id: enumLabelKey('sessionPhase', phase) });

  async function run(market: OperatorMarket, command: Command) {
    const values = { market: market.name, phase: phaseName(market.phase), next: command.kind === 'phase' ? phaseName(command.phase) : '' };
    const confirmed = await dialogs.confirm({
      title: intl.formatMessage({ id: commandMessages[command.kind].title }, values),
      description: intl.formatMessage({ id: commandMessages[command.kind].description }, values),
      confirmLabel: intl.formatMessage({ id: commandMessages[command.kind].label }),
      tone: command.kind === 'suspend' ? 'danger' : 'default',
    });
    if (!confirmed) return;
    setBusy(market.marketId);
    setErrors(({ [market.marketId]: _dropped, ...others }) => others);
    try {
      if (command.kind === 'suspend') await suspendMarket(market.marketId);
      else if (command.kind === 'resume') await resumeMarket(market.marketId);
      else await changePhase(market.marketId, command.phase);
    } catch (cause) {
      setErrors((current) => ({ ...current, [market.marketId]: formatApiError(intl, toApiError(cause)) }));
    } finally {
      setBusy(null);
    }
  }

  const columns: DataTableColumn<OperatorMarket>[] = [
    {
      id: 'market',
      header: intl.formatMessage({ id: 'operator.col.market' }),
      width: '15rem',
      sortValue: (row) => row.name,
      cell: (row) => (
        <span className="operator-market-name">
          <strong>{row.name}</strong>
          <span className="muted small mono">{row.marketId}</span>
        </span>
      ),
    },
    { id: 'phase', header: intl.formatMessage({ id: 'operator.col.phase' }), sortValue: (row) => row.phase, cell: (row) => <PhaseBadge phase={row.phase} /> },
    {
      id: 'since',
      header: intl.formatMessage({ id: 'operator.col.since' }),
      priority: 2,
      cell: (row) => (
        <time dateTime={row.since} className="mono" title={time(row.since)}>
          {clock(row.since)}
        </time>
      ),
    },
    { id: 'sessionDate', header: intl.formatMessage({ id: 'operator.col.sessionDate' }), priority: 3, cell: (row) => <span className="mono">{row.sessionDate}</span> },
    {
      id: 'next',
      header: intl.formatMessage({ id: 'operator.col.next' }),
      cell: (row) =>
        row.nextPhase && row.nextPhaseAt ? (
          <span className="operator-next" title={time(row.nextPhaseAt)}>
            <FormattedMessage id="operator.market.nextAt" values={{ phase: phaseName(row.nextPhase), at: clock(row.nextPhaseAt) }} />
            <Countdown until={row.nextPhaseAt} />
          </span>
        ) : (
          <span className="muted">
            <FormattedMessage id="operator.market.noNext" />
          </span>
        ),
    },
    {
      id: 'assets',
      header: intl.formatMessage({ id: 'operator.col.assets' }),
      priority: 2,
      cell: (row) => {
        const apart = row.assets.filter((asset) => asset.phase !== row.phase);
        return (
          <span className="operator-assets">
            <FormattedMessage id="operator.market.assetCount" values={{ count: row.assets.length }} />
            {apart.map((asset) => (
              <span key={asset.assetId} className="operator-asset-apart" title={asset.name}>
                <span className="mono small">{asset.assetId}</span> <PhaseBadge phase={asset.phase} />
              </span>
            ))}
          </span>
        );
      },
    },
    {
      id: 'commands',
      header: intl.formatMessage({ id: 'operator.col.commands' }),
      cell: (row) => {
        const selected = chosen[row.marketId] ?? (sessionPhases.find((phase) => phase !== row.phase && phase !== 'suspended') as SessionPhase);
        const disabled = busy !== null || !canAct;
        const selectId = `operator-phase-${row.marketId}`;
        return (
          <div className="operator-commands operator-market-commands">
            {row.phase === 'suspended' ? (
              <button type="button" className="button button-primary button-small" disabled={disabled} onClick={() => void run(row, { kind: 'resume' })} aria-label={intl.formatMessage({ id: 'operator.market.resumeOf' }, { market: row.name })}>
                <FormattedMessage id="operator.market.resume" />
              </button>
            ) : (
              <button type="button" className="button button-danger button-small" disabled={disabled || row.phase === 'closed'} onClick={() => void run(row, { kind: 'suspend' })} aria-label={intl.formatMessage({ id: 'operator.market.suspendOf' }, { market: row.name })}>
                <FormattedMessage id="operator.market.suspend" />
              </button>
            )}
            <span className="operator-phase-change">
              <label className="visually-hidden" htmlFor={selectId}>
                <FormattedMessage id="operator.market.phaseSelect" values={{ market: row.name }} />
              </label>
              <select id={selectId} value={selected} disabled={disabled} onChange={(event) => setChosen((current) => ({ ...current, [row.marketId]: event.target.value as SessionPhase }))}>
                {sessionPhases
                  .filter((phase) => phase !== row.phase)
                  .map((phase) => (
                    <option key={phase} value={phase}>
                      {phaseName(phase)}
                    </option>
                  ))}
              </select>
              <button type="button" className="button button-secondary button-small" disabled={disabled} onClick={() => void run(row, { kind: 'phase', phase: selected })} aria-label={intl.formatMessage({ id: 'operator.market.phaseOf' }, { market: row.name })}>
                <FormattedMessage id="operator.market.phase" />
              </button>
            </span>
            {errors[row.marketId] && (
              <span className="field-error small" role="alert">
                {errors[row.marketId]}
              </span>
            )}
          </div>
        );
      },
    },
  ];
  return (
    <section className="card operator-section" aria-labelledby="operator-markets-title">
      <div className="card-header">
        <h2 id="operator-markets-title">
          <FormattedMessage id="operator.tab.markets" />
        </h2>
        <span className="muted small">
          <FormattedMessage id="operator.markets.note" />
        </span>
      </div>
      <div className="operator-markets">
        <DataTable label={intl.formatMessage({ id: 'operator.tab.markets' })} columns={columns} rows={markets} rowKey={(row) => row.marketId} hideFooter emptyMessage={<FormattedMessage id="operator.markets.empty" />} />
      </div>
    </section>
  );
}
