import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { participantKinds, type Participant, type ParticipantKind } from '../../protocol/participants.ts';
import { toApiError } from '../api/errors.ts';
import { useCanAct } from '../auth/use-auth.ts';
import { CodeCell, DataTable, type DataTableColumn } from '../components/DataTable.tsx';
import { useDialogs } from '../components/dialogs/DialogProvider.tsx';
import { formatApiError } from '../i18n/format-error.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { ReasonDialog } from '../workflows/ReasonDialog.tsx';
import { useExchangeTime } from './format.ts';
import { reinstateParticipant, suspendParticipant } from './operator-api.ts';

export interface ParticipantFilters {
  kind: ParticipantKind | '';
  state: 'suspended' | 'active' | '';
  text: string;
}

/** The participants the filters keep: kind, state, and a text in the id or the name. */
export function filterParticipants(items: readonly Participant[], filters: ParticipantFilters): Participant[] {
  const text = filters.text.trim().toLocaleLowerCase();
  return items.filter(
    (item) =>
      (filters.kind === '' || item.kind === filters.kind) &&
      (filters.state === '' || item.suspended === (filters.state === 'suspended')) &&
      (text === '' || item.id.toLocaleLowerCase().includes(text) || item.name.toLocaleLowerCase().includes(text)),
  );
}

const kindLabels: Record<ParticipantKind, MessageKey> = { client: 'operator.participant.kind.client', broker: 'operator.participant.kind.broker' };

const keyOf = (participant: Pick<Participant, 'kind' | 'id'>) => `${participant.kind}:${participant.id}`;

/**
 * Clients and brokers (issue 16, kill switch): suspended or not, by whom and why. Suspend asks for the
 * reason (required) and then for confirmation; reinstate for confirmation. The table follows the
 * operator feed, which carries the new state once the engine has it; the answer's count of cancelled
 * orders is said at once.
 */
export function ParticipantsPanel({ participants }: { participants: readonly Participant[] }) {
  const intl = useIntl();
  const id = useId();
  const dialogs = useDialogs();
  const canAct = useCanAct();
  const time = useExchangeTime();
  const [filters, setFilters] = useState<ParticipantFilters>({ kind: '', state: '', text: '' });
  const [reasonFor, setReasonFor] = useState<Participant | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<{ key: string; message: string } | null>(null);
  const rows = filterParticipants(participants, filters);
  const kindName = (kind: ParticipantKind) => intl.formatMessage({ id: kindLabels[kind] });

  async function act(participant: Participant, reason: string | null) {
    const values = { kind: kindName(participant.kind), name: participant.name, id: participant.id, reason: reason ?? '' };
    const suspend = reason !== null;
    const confirmed = await dialogs.confirm({
      title: intl.formatMessage({ id: suspend ? 'operator.participant.suspend.title' : 'operator.participant.reinstate.title' }, values),
      description: intl.formatMessage({ id: suspend ? 'operator.participant.suspend.description' : 'operator.participant.reinstate.description' }, values),
      confirmLabel: intl.formatMessage({ id: suspend ? 'operator.participant.suspend' : 'operator.participant.reinstate' }),
      tone: suspend ? 'danger' : 'default',
    });
    if (!confirmed) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const change = suspend ? await suspendParticipant(participant.kind, participant.id, reason) : await reinstateParticipant(participant.kind, participant.id);
      setNotice(
        intl.formatMessage(
          { id: suspend ? 'operator.participant.suspended' : 'operator.participant.reinstated' },
          { ...values, cancelled: change.cancelledOrders },
        ),
      );
    } catch (cause) {
      setError({ key: keyOf(participant), message: formatApiError(intl, toApiError(cause)) });
    } finally {
      setBusy(false);
    }
  }

  const columns: DataTableColumn<Participant>[] = [
    { id: 'kind', header: intl.formatMessage({ id: 'operator.col.participantKind' }), sortValue: (row) => row.kind, cell: (row) => kindName(row.kind) },
    { id: 'id', header: intl.formatMessage({ id: 'operator.col.participantId' }), sortValue: (row) => row.id, cell: (row) => <CodeCell value={row.id} /> },
    { id: 'name', header: intl.formatMessage({ id: 'operator.col.name' }), sortValue: (row) => row.name, cell: (row) => row.name },
    {
      id: 'state',
      header: intl.formatMessage({ id: 'operator.col.state' }),
      sortValue: (row) => (row.suspended ? 0 : 1),
      cell: (row) => (
        <span className={row.suspended ? 'badge badge-phase-suspended' : 'badge badge-phase-trading'}>
          <FormattedMessage id={row.suspended ? 'operator.participant.state.suspended' : 'operator.participant.state.active'} />
        </span>
      ),
    },
    { id: 'since', header: intl.formatMessage({ id: 'operator.col.suspendedAt' }), priority: 2, sortValue: (row) => row.suspendedAt, cell: (row) => <span className="small">{time(row.suspendedAt)}</span> },
    { id: 'by', header: intl.formatMessage({ id: 'operator.col.suspendedBy' }), priority: 3, cell: (row) => row.suspendedBy ?? '—' },
    { id: 'reason', header: intl.formatMessage({ id: 'operator.col.reason' }), priority: 2, cell: (row) => <span className="operator-reason">{row.reason ?? '—'}</span> },
    {
      id: 'command',
      header: intl.formatMessage({ id: 'operator.col.commands' }),
      align: 'end',
      cell: (row) => (
        <span className="operator-commands">
          {row.suspended ? (
            <button type="button" className="button button-primary button-small" disabled={busy || !canAct} onClick={() => void act(row, null)} aria-label={intl.formatMessage({ id: 'operator.participant.reinstateOf' }, { name: row.name, id: row.id })}>
              <FormattedMessage id="operator.participant.reinstate" />
            </button>
          ) : (
            <button type="button" className="button button-secondary button-small" disabled={busy || !canAct} onClick={() => setReasonFor(row)} aria-label={intl.formatMessage({ id: 'operator.participant.suspendOf' }, { name: row.name, id: row.id })}>
              <FormattedMessage id="operator.participant.suspend" />
            </button>
          )}
          {error?.key === keyOf(row) && (
            <span className="field-error small" role="alert">
              {error.message}
            </span>
          )}
        </span>
      ),
    },
  ];

  return (
    <section className="card operator-section" aria-labelledby="operator-participants-title">
      <div className="card-header">
        <h2 id="operator-participants-title">
          <FormattedMessage id="operator.tab.participants" />
        </h2>
        <span className="muted small">
          <FormattedMessage id="operator.participants.note" />
        </span>
      </div>
      <div className="operator-filters" role="group" aria-label={intl.formatMessage({ id: 'operator.filters' })}>
        <span className="operator-filter">
          <label htmlFor={`${id}-kind`}>
            <FormattedMessage id="operator.filter.participantKind" />
          </label>
          <select id={`${id}-kind`} value={filters.kind} onChange={(event) => setFilters((current) => ({ ...current, kind: event.target.value as ParticipantFilters['kind'] }))}>
            <option value="">{intl.formatMessage({ id: 'operator.filter.all' })}</option>
            {participantKinds.map((kind) => (
              <option key={kind} value={kind}>
                {kindName(kind)}
              </option>
            ))}
          </select>
        </span>
        <span className="operator-filter">
          <label htmlFor={`${id}-state`}>
            <FormattedMessage id="operator.filter.state" />
          </label>
          <select id={`${id}-state`} value={filters.state} onChange={(event) => setFilters((current) => ({ ...current, state: event.target.value as ParticipantFilters['state'] }))}>
            <option value="">{intl.formatMessage({ id: 'operator.filter.all' })}</option>
            <option value="suspended">{intl.formatMessage({ id: 'operator.participant.state.suspended' })}</option>
            <option value="active">{intl.formatMessage({ id: 'operator.participant.state.active' })}</option>
          </select>
        </span>
        <span className="operator-filter">
          <label htmlFor={`${id}-text`}>
            <FormattedMessage id="operator.filter.text" />
          </label>
          <input id={`${id}-text`} type="search" value={filters.text} onChange={(event) => setFilters((current) => ({ ...current, text: event.target.value }))} />
        </span>
      </div>
      {notice && (
        <p className="alert alert-success" role="status">
          {notice}
        </p>
      )}
      <DataTable
        label={intl.formatMessage({ id: 'operator.tab.participants' })}
        columns={columns}
        rows={rows}
        rowKey={keyOf}
        initialSort={{ columnId: 'state', direction: 'asc' }}
        initialRowsPerPage={25}
        emptyMessage={<FormattedMessage id="operator.participants.empty" />}
      />
      {reasonFor && (
        <ReasonDialog
          open
          title={intl.formatMessage({ id: 'operator.participant.reasonTitle' }, { name: reasonFor.name, id: reasonFor.id })}
          description={<FormattedMessage id="operator.participant.reasonDescription" />}
          onCancel={() => setReasonFor(null)}
          onReason={(reason) => {
            const participant = reasonFor;
            setReasonFor(null);
            void act(participant, reason);
          }}
        />
      )}
    </section>
  );
}
