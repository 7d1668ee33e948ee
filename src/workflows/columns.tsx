/** Columns every workflow table shares: status (translated), whom it waits on, the last reason. */
import type { IntlShape } from 'react-intl';
import type { WorkflowInstance } from '../../protocol/workflows.ts';
import type { DataTableColumn } from '../components/DataTable.tsx';
import { formatApiError } from '../i18n/format-error.ts';
import { statusLabelKey, waitingOnLabels } from './labels.ts';

function statusText(intl: IntlShape, row: Pick<WorkflowInstance, 'kind' | 'status'>): string {
  const key = statusLabelKey(row.kind, row.status, intl.messages);
  return key ? intl.formatMessage({ id: key }) : row.status;
}

export function statusColumn<T extends WorkflowInstance>(intl: IntlShape): DataTableColumn<T> {
  return {
    id: 'status',
    header: intl.formatMessage({ id: 'clearing.col.status' }),
    sortValue: (row) => statusText(intl, row),
    cell: (row) => <span className={`chip workflow-chip workflow-chip-${row.waitingOn === 'none' ? 'done' : 'open'}`}>{statusText(intl, row)}</span>,
    csv: (row) => row.status,
  };
}

export function waitingOnColumn<T extends WorkflowInstance>(intl: IntlShape, priority: 1 | 2 | 3 = 2): DataTableColumn<T> {
  const text = (row: T) => (row.waitingOn === 'none' ? '' : intl.formatMessage({ id: waitingOnLabels[row.waitingOn] }));
  return { id: 'waitingOn', header: intl.formatMessage({ id: 'workflow.col.waitingOn' }), priority, sortValue: text, cell: (row) => text(row) || '—', csv: (row) => row.waitingOn };
}

/** SPEC's rejectionMessage: the user's words, or the check's code in the reader's language. */
export function reasonColumn<T extends WorkflowInstance>(intl: IntlShape, priority: 1 | 2 | 3 = 3): DataTableColumn<T> {
  const text = (row: T) => {
    const reason = row.reason;
    if (!reason) return '';
    if (reason.text) return reason.text;
    return reason.code ? formatApiError(intl, { code: reason.code, params: reason.params }) : '';
  };
  return { id: 'reason', header: intl.formatMessage({ id: 'workflow.col.rejectionMessage' }), priority, sortValue: text, cell: (row) => text(row) || '—', csv: text };
}
