import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { canTrade } from '../../../machines/permissions.ts';
import type { WorkflowInstance, WorkflowInstanceOf } from '../../../protocol/workflows.ts';
import { useUser } from '../../auth/use-auth.ts';
import { dateColumn, instantColumn, textColumn } from '../../clearing/columns.tsx';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { reasonColumn, statusColumn, waitingOnColumn } from '../../workflows/columns.tsx';
import { ContractUploadDialog } from '../../workflows/ContractUploadDialog.tsx';
import { sidesOf } from '../../workflows/sides.ts';
import { useAssets } from '../../workflows/use-assets.ts';
import { fetchWorkflows } from '../../workflows/workflow-api.ts';
import { useWorkflowList } from '../../workflows/workflow-live.ts';
import { WorkflowListCard } from '../../workflows/WorkflowListCard.tsx';
import { accountTabs } from './tabs.ts';

type Contract = WorkflowInstanceOf<'contract'>;

const loadContracts = (signal: AbortSignal) => fetchWorkflows({ kind: 'contract' }, signal);
const isContract = (instance: WorkflowInstance) => instance.kind === 'contract';

/**
 * Transaction contracts (SPEC §3): date, status, asset and partner, filtered by a start and an end
 * date (the table's From/To over the transaction's date); each opens to its history, the actions the
 * machine offers and the PDF for the participants and the administrator.
 */
export function TransactionContractsTab() {
  const intl = useIntl();
  const user = useUser();
  const clientCodes = user?.clientCodes ?? [];
  const assets = useAssets();
  const state = useWorkflowList(loadContracts, isContract);
  const [uploading, setUploading] = useState(0);
  const rows = state.items.filter((row): row is Contract => row.kind === 'contract');
  const columns: DataTableColumn<Contract>[] = [
    dateColumn({ id: 'date', intl, label: 'clearing.col.date' }, (row) => row.data.date),
    statusColumn(intl),
    textColumn({ id: 'asset', intl, label: 'clearing.col.asset' }, (row) => assets.get(row.data.assetId)?.code ?? row.data.assetId, { code: true }),
    textColumn({ id: 'partner', intl, label: 'workflow.col.partner' }, (row) => sidesOf(row, clientCodes).other, { code: true }),
    textColumn({ id: 'transaction', intl, label: 'clearing.col.transactionId', priority: 2 }, (row) => row.data.transactionId, { code: true }),
    textColumn({ id: 'file', intl, label: 'workflow.col.file', priority: 3 }, (row) => row.data.fileName),
    instantColumn({ id: 'uploaded', intl, label: 'workflow.col.uploadedAt', priority: 3 }, (row) => row.data.uploadedAt),
    waitingOnColumn(intl, 3),
    reasonColumn(intl),
  ];
  const tab = accountTabs.find((candidate) => candidate.slug === 'transaction-contracts')!;
  return (
    <>
      <WorkflowListCard
        id="transaction-contracts"
        title={intl.formatMessage({ id: tab.label })}
        state={state}
        rows={rows}
        columns={columns}
        dateOf={(row) => row.data.date}
        initialSort={{ columnId: 'date', direction: 'desc' }}
        empty="workflow.empty.contracts"
        note={<FormattedMessage id="workflow.note.contracts" />}
        command={
          canTrade(user) && (
            <button type="button" className="button button-primary button-small" onClick={() => setUploading((count) => count + 1)}>
              <FormattedMessage id="workflow.contract.upload" />
            </button>
          )
        }
      />
      {uploading > 0 && <ContractUploadDialog key={uploading} open onClose={() => setUploading(0)} onUploaded={state.apply} />}
    </>
  );
}
