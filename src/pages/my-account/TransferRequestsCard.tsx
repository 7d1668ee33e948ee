import { useIntl } from 'react-intl';
import type { WorkflowInstance, WorkflowInstanceOf } from '../../../protocol/workflows.ts';
import { useUser } from '../../auth/use-auth.ts';
import { instantColumn, minorColumn, textColumn } from '../../clearing/columns.tsx';
import { exchangeDate } from '../../components/csv.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { reasonColumn, statusColumn, waitingOnColumn } from '../../workflows/columns.tsx';
import { sidesOf } from '../../workflows/sides.ts';
import { useAssets } from '../../workflows/use-assets.ts';
import { fetchWorkflows } from '../../workflows/workflow-api.ts';
import { useWorkflowList } from '../../workflows/workflow-live.ts';
import { WorkflowListCard } from '../../workflows/WorkflowListCard.tsx';

type Transfer = WorkflowInstanceOf<'transfer'>;

const loadTransfers = (signal: AbortSignal) => fetchWorkflows({ kind: 'transfer' }, signal);
const isTransfer = (instance: WorkflowInstance) => instance.kind === 'transfer';

/**
 * The transfers to CCP of the user's transactions, under the transactions table: the partner accepts
 * (or rejects) here and the initiator may cancel, as the machine offers; without it a transfer
 * requested from a row had no screen where the other side could answer it.
 */
export function TransferRequestsCard() {
  const intl = useIntl();
  const clientCodes = useUser()?.clientCodes ?? [];
  const assets = useAssets();
  const state = useWorkflowList(loadTransfers, isTransfer);
  const rows = state.items.filter((row): row is Transfer => row.kind === 'transfer');
  const columns: DataTableColumn<Transfer>[] = [
    instantColumn({ id: 'updated', intl, label: 'clearing.col.updatedAt' }, (row) => row.updatedAt),
    textColumn({ id: 'transaction', intl, label: 'clearing.col.transactionId' }, (row) => row.data.transactionId, { code: true }),
    textColumn({ id: 'asset', intl, label: 'clearing.col.asset' }, (row) => assets.get(row.data.assetId)?.code ?? row.data.assetId, { code: true }),
    textColumn({ id: 'partner', intl, label: 'workflow.col.partner' }, (row) => sidesOf(row, clientCodes).other, { code: true }),
    minorColumn({ id: 'qty', intl, label: 'clearing.col.quantity', priority: 2 }, (row) => row.data.qty, (row) => assets.get(row.data.assetId)?.quantityDecimals ?? 0),
    statusColumn(intl),
    waitingOnColumn(intl, 3),
    reasonColumn(intl),
  ];
  return (
    <WorkflowListCard
      id="transfer-requests"
      title={intl.formatMessage({ id: 'workflow.approvals.transfer' })}
      state={state}
      rows={rows}
      columns={columns}
      dateOf={(row) => exchangeDate(row.updatedAt)}
      initialSort={{ columnId: 'updated', direction: 'desc' }}
      empty="workflow.empty.transfers"
    />
  );
}
