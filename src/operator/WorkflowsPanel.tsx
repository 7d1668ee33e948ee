import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { workflowKinds, type WorkflowInstance, type WorkflowKind } from '../../protocol/workflows.ts';
import { exchangeDate } from '../components/csv.ts';
import type { DataTableColumn } from '../components/DataTable.tsx';
import { CodeCell } from '../components/DataTable.tsx';
import { formatExchangeDateTime } from '../i18n/format.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { kindLabels, transactionOf, waitingOnLabels } from '../workflows/labels.ts';
import { fetchWorkflows } from '../workflows/workflow-api.ts';
import { useWorkflowList } from '../workflows/workflow-live.ts';
import { WorkflowListCard } from '../workflows/WorkflowListCard.tsx';
import { useStatusLabel, WorkflowStatusChip } from '../workflows/WorkflowStatusChip.tsx';
import { formatAge } from './format.ts';

type WaitingOn = WorkflowInstance['waitingOn'];
const waitingOnValues: readonly WaitingOn[] = ['administrator', 'initiator', 'partner', 'none'];

export interface WorkflowFilters {
  kind: WorkflowKind | '';
  status: string;
  waitingOn: WaitingOn | '';
}

/** The instances the filters keep (each filter left empty keeps all). */
export function filterWorkflows(items: readonly WorkflowInstance[], filters: WorkflowFilters): WorkflowInstance[] {
  return items.filter(
    (item) =>
      (filters.kind === '' || item.kind === filters.kind) &&
      (filters.status === '' || item.status === filters.status) &&
      (filters.waitingOn === '' || item.waitingOn === filters.waitingOn),
  );
}

const loadAll = (signal: AbortSignal) => fetchWorkflows({}, signal);
const everyInstance = () => true;

/**
 * Every workflow instance (OTC, transfer, contract, margin activation, whitelist) with its state, age
 * and whom it waits on, filterable; live from the administrator's approvals queue (every change of
 * every instance). Each row opens to the app's workflow details: history and the machine's actions.
 */
export function WorkflowsPanel() {
  const intl = useIntl();
  const id = useId();
  const state = useWorkflowList(loadAll, everyInstance, 'approvals');
  const statusLabel = useStatusLabel();
  const [filters, setFilters] = useState<WorkflowFilters>({ kind: '', status: '', waitingOn: 'administrator' });
  const [now] = useState(() => Date.now());
  const rows = filterWorkflows(state.items, filters);
  const statuses = [...new Set(state.items.filter((item) => filters.kind === '' || item.kind === filters.kind).map((item) => `${item.kind}:${item.status}`))]
    .map((pair) => {
      const [kind, status] = pair.split(':') as [WorkflowKind, string];
      return { status, label: statusLabel({ kind, status } as Pick<WorkflowInstance, 'kind' | 'status'>) };
    })
    .filter((entry, index, all) => all.findIndex((other) => other.status === entry.status) === index)
    .sort((a, b) => a.label.localeCompare(b.label, intl.locale));

  const columns: DataTableColumn<WorkflowInstance>[] = [
    { id: 'instance', header: intl.formatMessage({ id: 'operator.col.instance' }), sortValue: (row) => row.instanceId, cell: (row) => <CodeCell value={row.instanceId} />, csv: (row) => row.instanceId },
    // The number brokers quote (a transfer's, a margin activation's, a contract's transaction; an approved OTC deal's): the instance id is for support only.
    {
      id: 'transaction',
      header: intl.formatMessage({ id: 'operator.col.transaction' }),
      sortValue: (row) => (transactionOf(row) === null ? null : Number(transactionOf(row))),
      cell: (row) => {
        const transactionId = transactionOf(row);
        return transactionId === null ? <span className="muted">—</span> : <CodeCell value={transactionId} />;
      },
      csv: (row) => transactionOf(row) ?? '',
    },
    { id: 'kind', header: intl.formatMessage({ id: 'operator.col.kind' }), sortValue: (row) => row.kind, cell: (row) => intl.formatMessage({ id: kindLabels[row.kind] }), csv: (row) => row.kind },
    { id: 'status', header: intl.formatMessage({ id: 'operator.col.state' }), sortValue: (row) => row.status, cell: (row) => <WorkflowStatusChip instance={row} />, csv: (row) => row.status },
    { id: 'initiator', header: intl.formatMessage({ id: 'workflow.col.initiator' }), sortValue: (row) => row.initiatorClient, cell: (row) => <CodeCell value={row.initiatorClient} />, csv: (row) => row.initiatorClient },
    { id: 'partner', header: intl.formatMessage({ id: 'workflow.col.partner' }), sortValue: (row) => row.partnerClient, cell: (row) => <CodeCell value={row.partnerClient} />, csv: (row) => row.partnerClient, priority: 2 },
    { id: 'age', header: intl.formatMessage({ id: 'operator.col.age' }), sortValue: (row) => row.createdAt, cell: (row) => <span title={formatExchangeDateTime(intl, row.createdAt)}>{formatAge(intl, row.createdAt, now)}</span>, csv: (row) => row.createdAt },
    {
      id: 'updated',
      header: intl.formatMessage({ id: 'operator.col.updated' }),
      priority: 3,
      sortValue: (row) => row.updatedAt,
      cell: (row) => <time dateTime={row.updatedAt} className="small">{formatExchangeDateTime(intl, row.updatedAt)}</time>,
      csv: (row) => row.updatedAt,
    },
  ];

  const select = <K extends keyof WorkflowFilters>(name: K, label: MessageKey, options: ReadonlyArray<{ value: string; label: string }>) => (
    <span className="operator-filter">
      <label htmlFor={`${id}-${name}`}>
        <FormattedMessage id={label} />
      </label>
      <select id={`${id}-${name}`} value={filters[name]} onChange={(event) => setFilters((current) => ({ ...current, [name]: event.target.value, ...(name === 'kind' ? { status: '' } : {}) }))}>
        <option value="">{intl.formatMessage({ id: 'operator.filter.all' })}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </span>
  );

  const filterBar = (
    <div className="operator-filters" role="group" aria-label={intl.formatMessage({ id: 'operator.filters' })}>
      {select('kind', 'operator.filter.kind', workflowKinds.map((kind) => ({ value: kind, label: intl.formatMessage({ id: kindLabels[kind] }) })))}
      {select('status', 'operator.filter.state', statuses.map((entry) => ({ value: entry.status, label: entry.label })))}
      {select(
        'waitingOn',
        'operator.filter.waitingOn',
        waitingOnValues.map((value) => ({ value, label: intl.formatMessage({ id: value === 'none' ? 'operator.waitingOn.none' : waitingOnLabels[value] }) })),
      )}
      <span className="muted small" aria-live="polite">
        <FormattedMessage id="operator.workflows.count" values={{ shown: rows.length, total: state.items.length }} />
      </span>
    </div>
  );
  return (
    <div className="operator-workflows">
      <WorkflowListCard<WorkflowInstance>
        id="operator-workflows"
        title={intl.formatMessage({ id: 'operator.tab.workflows' })}
        state={state}
        rows={rows}
        columns={columns}
        dateOf={(row) => exchangeDate(row.createdAt)}
        initialSort={{ columnId: 'age', direction: 'asc' }}
        empty="operator.workflows.empty"
        command={filterBar}
      />
    </div>
  );
}
