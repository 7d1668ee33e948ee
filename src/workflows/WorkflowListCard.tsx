import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { WorkflowAction, WorkflowInstance } from '../../protocol/workflows.ts';
import { toApiError } from '../api/errors.ts';
import { DataTable, type DataTableColumn, type DataTableSort, type RowDate } from '../components/DataTable.tsx';
import { formatApiError } from '../i18n/format-error.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { historyActionLabel, kindLabels, transactionOf } from './labels.ts';
import type { WorkflowListState } from './workflow-live.ts';
import { WorkflowDetails } from './WorkflowDetails.tsx';
import { namingOf, workflowName } from './naming.ts';
import '../pages/my-account/clearing-tabs.css';
import './workflows.css';

export interface WorkflowListCardProps<T extends WorkflowInstance> {
  id: string;
  title: string;
  state: WorkflowListState & { reload: () => void; apply: (instance: WorkflowInstance) => void };
  rows: readonly T[];
  columns: ReadonlyArray<DataTableColumn<T>>;
  dateOf: (row: T) => RowDate;
  initialSort: DataTableSort;
  empty: MessageKey;
  note?: ReactNode;
  /** Right of the title: the tab's own command (register a deal, a new request, an upload). */
  command?: ReactNode;
  /** A heading level below the tab's (the approval queues are several tables in one tab). */
  level?: 2 | 3;
}

/**
 * A tab's list of workflow instances: the table (sort, date filter, paging, CSV), a Details button per
 * row, and the opened row's panel under the table with its status, actions and history. The panel
 * shows the list's own copy of the instance, so it follows the live changes too.
 */
export function WorkflowListCard<T extends WorkflowInstance>({ id, title, state, rows, columns, dateOf, initialSort, empty, note, command, level = 2 }: WorkflowListCardProps<T>) {
  const intl = useIntl();
  const [openId, setOpenId] = useState<string | null>(null);
  const [done, setDone] = useState<{ instanceId: string; message: string } | null>(null);
  const opened = rows.find((row) => row.instanceId === openId) ?? null;
  // What the user just did, named: said here once its panel is gone (an approved item leaves the
  // administrator's queue, and its panel with it); while the panel shows it, the panel says it.
  const onDone = (action: WorkflowAction, after: WorkflowInstance) => {
    const doneKey = historyActionLabel(action, after.kind);
    const doneLabel = doneKey ? intl.formatMessage({ id: doneKey }) : action;
    // Named by its transaction's number, as its row shows it, else as its panel was (kind, clients, registration time); never by the internal instance id.
    const transactionId = transactionOf(after);
    setDone({
      instanceId: after.instanceId,
      message:
        transactionId === null
          ? intl.formatMessage({ id: 'workflow.done' }, { done: doneLabel, name: workflowName(intl, namingOf(after)) })
          : intl.formatMessage(
              { id: 'workflow.done.transaction' },
              { done: doneLabel, kind: intl.formatMessage({ id: kindLabels[after.kind] }), transactionId, initiator: after.initiatorClient, partner: after.partnerClient },
            ),
    });
  };
  const doneShown = done !== null && opened?.instanceId !== done.instanceId;
  const Heading = level === 2 ? 'h2' : 'h3';
  const detailsColumn: DataTableColumn<T> = {
    id: 'details',
    header: intl.formatMessage({ id: 'workflow.details' }),
    align: 'end',
    cell: (row) => (
      <button
        type="button"
        className="button button-secondary button-small"
        aria-expanded={row.instanceId === openId}
        aria-controls={`${id}-details`}
        aria-label={intl.formatMessage({ id: 'workflow.details.of' }, { name: workflowName(intl, namingOf(row)) })}
        onClick={() => setOpenId((current) => (current === row.instanceId ? null : row.instanceId))}
      >
        <FormattedMessage id="workflow.details" />
      </button>
    ),
  };
  return (
    <section className="card workflow-card" aria-labelledby={`${id}-title`}>
      <div className="card-header">
        <Heading id={`${id}-title`}>{title}</Heading>
        {note && <span className="muted small">{note}</span>}
        {command && <span className="workflow-command">{command}</span>}
      </div>
      {doneShown && (
        <div className="alert alert-success workflow-done" role="status">
          <span>{done.message}</span>
          <button type="button" className="button button-ghost button-small" onClick={() => setDone(null)}>
            <FormattedMessage id="workflow.done.dismiss" />
          </button>
        </div>
      )}
      {state.status === 'error' && (
        <div className="alert alert-error" role="alert">
          {formatApiError(intl, toApiError(state.error))}{' '}
          <button type="button" className="button button-secondary button-small" onClick={state.reload}>
            <FormattedMessage id="clearing.retry" />
          </button>
        </div>
      )}
      <DataTable
        label={title}
        columns={[...columns, detailsColumn]}
        rows={rows}
        rowKey={(row) => row.instanceId}
        loading={state.status === 'loading'}
        initialSort={initialSort}
        emptyMessage={<FormattedMessage id={empty} />}
        dateOf={dateOf}
        exportName={id}
      />
      <div id={`${id}-details`}>{opened && <WorkflowDetails instance={opened} onChanged={state.apply} onDone={onDone} onClose={() => setOpenId(null)} />}</div>
    </section>
  );
}
