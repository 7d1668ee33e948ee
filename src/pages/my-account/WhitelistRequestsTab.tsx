import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { canTrade } from '../../../machines/permissions.ts';
import type { WorkflowInstance, WorkflowInstanceOf } from '../../../protocol/workflows.ts';
import { useUser } from '../../auth/use-auth.ts';
import { enumColumn, instantColumn, textColumn } from '../../clearing/columns.tsx';
import { exchangeDate } from '../../components/csv.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { reasonColumn, statusColumn, waitingOnColumn } from '../../workflows/columns.tsx';
import { fetchWorkflows } from '../../workflows/workflow-api.ts';
import { useWorkflowList } from '../../workflows/workflow-live.ts';
import { WhitelistRequestDialog } from '../../workflows/WhitelistRequestDialog.tsx';
import { WorkflowListCard } from '../../workflows/WorkflowListCard.tsx';
import { accountTabs } from './tabs.ts';

type WhitelistRequest = WorkflowInstanceOf<'whitelist'>;

const loadRequests = (signal: AbortSignal) => fetchWorkflows({ kind: 'whitelist' }, signal);
const isWhitelist = (instance: WorkflowInstance) => instance.kind === 'whitelist';

/** Whitelist requests (SPEC §3): initiator, partner, type, created at, status; sent from here, answered from the row. */
export function WhitelistRequestsTab() {
  const intl = useIntl();
  const user = useUser();
  const state = useWorkflowList(loadRequests, isWhitelist);
  const [requesting, setRequesting] = useState(0);
  const rows = state.items.filter((row): row is WhitelistRequest => row.kind === 'whitelist');
  const columns: DataTableColumn<WhitelistRequest>[] = [
    textColumn({ id: 'initiator', intl, label: 'workflow.col.initiator' }, (row) => row.initiatorClient, { code: true }),
    textColumn({ id: 'partner', intl, label: 'workflow.col.partner' }, (row) => row.partnerClient, { code: true }),
    enumColumn({ id: 'type', intl, label: 'workflow.col.type' }, (row) => row.data.type, (type) => enumLabelKey('whitelistRequestType', type as WhitelistRequest['data']['type'])),
    instantColumn({ id: 'created', intl, label: 'clearing.col.createdAt' }, (row) => row.createdAt),
    statusColumn(intl),
    waitingOnColumn(intl),
    reasonColumn(intl),
  ];
  const tab = accountTabs.find((candidate) => candidate.slug === 'whitelist-requests')!;
  return (
    <>
      <WorkflowListCard
        id="whitelist-requests"
        title={intl.formatMessage({ id: tab.label })}
        state={state}
        rows={rows}
        columns={columns}
        dateOf={(row) => exchangeDate(row.createdAt)}
        initialSort={{ columnId: 'created', direction: 'desc' }}
        empty="workflow.empty.whitelist"
        command={
          canTrade(user) && (
            <button type="button" className="button button-primary button-small" onClick={() => setRequesting((count) => count + 1)}>
              <FormattedMessage id="workflow.whitelist.new" />
            </button>
          )
        }
      />
      {requesting > 0 && <WhitelistRequestDialog key={requesting} open onClose={() => setRequesting(0)} clientCodes={user?.clientCodes ?? []} onSent={state.apply} />}
    </>
  );
}
