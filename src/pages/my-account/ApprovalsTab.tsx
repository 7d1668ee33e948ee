import { useIntl } from 'react-intl';
import { FormattedMessage } from 'react-intl';
import { isAdministrator } from '../../../machines/workflows/workflow-actor.ts';
import type { WorkflowInstance, WorkflowInstanceOf } from '../../../protocol/workflows.ts';
import { useUser } from '../../auth/use-auth.ts';
import { dateColumn, enumColumn, instantColumn, minorColumn, textColumn } from '../../clearing/columns.tsx';
import { exchangeDate } from '../../components/csv.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import type { MessageKey } from '../../i18n/messages/index.ts';
import { useAssets } from '../../workflows/use-assets.ts';
import { workflowActorOf } from '../../workflows/workflow-actions.ts';
import { fetchWorkflows } from '../../workflows/workflow-api.ts';
import { useWorkflowList } from '../../workflows/workflow-live.ts';
import { WorkflowListCard } from '../../workflows/WorkflowListCard.tsx';
import { accountTabs } from './tabs.ts';

/** The kinds the administrator approves (a whitelist request is the partner's to answer). */
export const approvalKinds = ['otc', 'transfer', 'marginActivation', 'contract'] as const;
type ApprovalKind = (typeof approvalKinds)[number];

const loadQueue = (signal: AbortSignal) => fetchWorkflows({ awaiting: 'administrator' }, signal);
const inQueue = (instance: WorkflowInstance) => instance.waitingOn === 'administrator' && (approvalKinds as readonly string[]).includes(instance.kind);

const queueTitles: Record<ApprovalKind, MessageKey> = {
  otc: 'workflow.approvals.otc',
  transfer: 'workflow.approvals.transfer',
  marginActivation: 'workflow.approvals.marginActivation',
  contract: 'workflow.approvals.contract',
};

/** Whether the user sees the approval queues: the machines' own administrator rule (role and approval scope). */
export function mayApprove(user: Parameters<typeof workflowActorOf>[0]): boolean {
  const actor = workflowActorOf(user);
  return actor !== null && isAdministrator(actor);
}

/**
 * The administrator's approval queues (issue 15): OTC deals, transfers, margin activations and
 * contracts waiting on the administrator, live from the approvals queue (no status column: every row
 * in a queue awaits the administrator's approval, the queue's title says so); each row opens to its
 * history and the actions the machine offers the administrator (approve, approve without checks for
 * a transfer, reject with a reason), each behind the confirmation dialog.
 */
export function ApprovalsTab() {
  const user = useUser();
  const intl = useIntl();
  const tab = accountTabs.find((candidate) => candidate.slug === 'approvals')!;
  if (!mayApprove(user)) {
    return (
      <section className="card" aria-labelledby="approvals-title">
        <div className="card-header">
          <h2 id="approvals-title">{intl.formatMessage({ id: tab.label })}</h2>
        </div>
        <div className="alert alert-warning" role="alert">
          <FormattedMessage id="workflow.approvals.notAllowed" />
        </div>
      </section>
    );
  }
  return <ApprovalQueues />;
}

function ApprovalQueues() {
  const intl = useIntl();
  const assets = useAssets();
  const state = useWorkflowList(loadQueue, inQueue, 'approvals');
  const assetCode = (assetId: string) => assets.get(assetId)?.code ?? assetId;
  const priceDecimals = (assetId: string) => assets.get(assetId)?.priceDecimals ?? 2;
  const qtyDecimals = (assetId: string) => assets.get(assetId)?.quantityDecimals ?? 0;

  function common<T extends WorkflowInstance>(): DataTableColumn<T>[] {
    return [
      instantColumn({ id: 'updated', intl, label: 'clearing.col.updatedAt' }, (row) => row.updatedAt),
      textColumn({ id: 'initiator', intl, label: 'workflow.col.initiator' }, (row) => row.initiatorClient, { code: true }),
      textColumn({ id: 'partner', intl, label: 'workflow.col.partner' }, (row) => row.partnerClient, { code: true }),
    ];
  }
  const otc: DataTableColumn<WorkflowInstanceOf<'otc'>>[] = [
    ...common<WorkflowInstanceOf<'otc'>>(),
    textColumn({ id: 'asset', intl, label: 'clearing.col.asset' }, (row) => assetCode(row.data.assetId), { code: true }),
    enumColumn({ id: 'way', intl, label: 'clearing.col.way', priority: 2 }, (row) => row.data.way, (way) => enumLabelKey('way', way as 'bid' | 'ask')),
    minorColumn({ id: 'qty', intl, label: 'clearing.col.quantity' }, (row) => row.data.qty, (row) => qtyDecimals(row.data.assetId)),
    minorColumn({ id: 'price', intl, label: 'clearing.col.price' }, (row) => row.data.price, (row) => priceDecimals(row.data.assetId)),
    dateColumn({ id: 'firstDelivery', intl, label: 'workflow.col.firstDeliveryDate', priority: 3 }, (row) => row.data.firstDeliveryDate),
    dateColumn({ id: 'lastDelivery', intl, label: 'workflow.col.lastDeliveryDate', priority: 3 }, (row) => row.data.lastDeliveryDate),
  ];
  const transfer: DataTableColumn<WorkflowInstanceOf<'transfer'>>[] = [
    ...common<WorkflowInstanceOf<'transfer'>>(),
    textColumn({ id: 'transaction', intl, label: 'clearing.col.transactionId' }, (row) => row.data.transactionId, { code: true }),
    textColumn({ id: 'asset', intl, label: 'clearing.col.asset' }, (row) => assetCode(row.data.assetId), { code: true }),
    minorColumn({ id: 'qty', intl, label: 'clearing.col.quantity' }, (row) => row.data.qty, (row) => qtyDecimals(row.data.assetId)),
    minorColumn({ id: 'transactionQty', intl, label: 'workflow.col.transactionQty', priority: 3 }, (row) => row.data.transactionQty, (row) => qtyDecimals(row.data.assetId)),
    minorColumn({ id: 'price', intl, label: 'clearing.col.price', priority: 2 }, (row) => row.data.price, (row) => priceDecimals(row.data.assetId)),
  ];
  const margin: DataTableColumn<WorkflowInstanceOf<'marginActivation'>>[] = [
    ...common<WorkflowInstanceOf<'marginActivation'>>(),
    textColumn({ id: 'transaction', intl, label: 'clearing.col.transactionId' }, (row) => row.data.transactionId, { code: true }),
    textColumn({ id: 'asset', intl, label: 'clearing.col.asset' }, (row) => assetCode(row.data.assetId), { code: true }),
  ];
  const contract: DataTableColumn<WorkflowInstanceOf<'contract'>>[] = [
    ...common<WorkflowInstanceOf<'contract'>>(),
    dateColumn({ id: 'date', intl, label: 'clearing.col.date' }, (row) => row.data.date),
    textColumn({ id: 'transaction', intl, label: 'clearing.col.transactionId' }, (row) => row.data.transactionId, { code: true }),
    textColumn({ id: 'asset', intl, label: 'clearing.col.asset' }, (row) => assetCode(row.data.assetId), { code: true }),
    textColumn({ id: 'file', intl, label: 'workflow.col.file', priority: 3 }, (row) => row.data.fileName),
  ];
  const card = <T extends WorkflowInstance>(kind: ApprovalKind, columns: DataTableColumn<T>[]) => (
    <WorkflowListCard<T>
      key={kind}
      id={`approvals-${kind}`}
      level={3}
      title={intl.formatMessage({ id: queueTitles[kind] })}
      state={state}
      rows={state.items.filter((row): row is T => row.kind === kind)}
      columns={columns}
      dateOf={(row) => exchangeDate(row.updatedAt)}
      initialSort={{ columnId: 'updated', direction: 'asc' }}
      empty="workflow.approvals.empty"
    />
  );
  const tab = accountTabs.find((candidate) => candidate.slug === 'approvals')!;
  return (
    <div className="workflow-approvals">
      <div className="workflow-approvals-head">
        <h2>{intl.formatMessage({ id: tab.label })}</h2>
        <span className="muted small">
          <FormattedMessage id="workflow.approvals.note" />
        </span>
      </div>
      {card('otc', otc)}
      {card('transfer', transfer)}
      {card('marginActivation', margin)}
      {card('contract', contract)}
    </div>
  );
}
