import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { canTrade } from '../../../machines/permissions.ts';
import type { WorkflowInstance, WorkflowInstanceOf } from '../../../protocol/workflows.ts';
import { useUser } from '../../auth/use-auth.ts';
import { countColumn, dateColumn, enumColumn, instantColumn, minorColumn, textColumn } from '../../clearing/columns.tsx';
import { exchangeDate } from '../../components/csv.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { reasonColumn, statusColumn, waitingOnColumn } from '../../workflows/columns.tsx';
import { OtcDealDialog } from '../../workflows/OtcDealDialog.tsx';
import { useAssets } from '../../workflows/use-assets.ts';
import { fetchWorkflows } from '../../workflows/workflow-api.ts';
import { useWorkflowList } from '../../workflows/workflow-live.ts';
import { WorkflowListCard } from '../../workflows/WorkflowListCard.tsx';
import { accountTabs } from './tabs.ts';

type OtcDeal = WorkflowInstanceOf<'otc'>;

const loadOtc = (signal: AbortSignal) => fetchWorkflows({ kind: 'otc' }, signal);
const isOtc = (instance: WorkflowInstance) => instance.kind === 'otc';

/**
 * The side of a deal the reader stands on: their own client and the other one, and the way seen from
 * their side (the deal's way is the initiator's: the partner of a bid sells). The administrator, on
 * neither side, reads it as the initiator wrote it.
 */
export function ownSide(deal: OtcDeal, clientCodes: readonly string[]): { own: string; partner: string; way: 'bid' | 'ask' } {
  const isPartner = !clientCodes.includes(deal.initiatorClient) && clientCodes.includes(deal.partnerClient);
  if (!isPartner) return { own: deal.initiatorClient, partner: deal.partnerClient, way: deal.data.way };
  return { own: deal.partnerClient, partner: deal.initiatorClient, way: deal.data.way === 'bid' ? 'ask' : 'bid' };
}

/** OTC transactions (SPEC §3): the deals of the user's clients, registered here, with their history and the actions the machine offers. */
export function OtcTransactionsTab() {
  const intl = useIntl();
  const user = useUser();
  const clientCodes = user?.clientCodes ?? [];
  const assets = useAssets();
  const state = useWorkflowList(loadOtc, isOtc);
  const [registering, setRegistering] = useState(0);
  const rows = state.items.filter((row): row is OtcDeal => row.kind === 'otc');
  const side = (row: OtcDeal) => ownSide(row, clientCodes);
  const assetOf = (row: OtcDeal) => assets.get(row.data.assetId);
  const columns: DataTableColumn<OtcDeal>[] = [
    dateColumn({ id: 'txDate', intl, label: 'workflow.col.txDate', priority: 3 }, (row) => row.data.txDate),
    instantColumn({ id: 'txTime', intl, label: 'workflow.col.txTime', priority: 4 }, (row) => row.data.txTime),
    textColumn({ id: 'own', intl, label: 'workflow.col.ownClient' }, (row) => side(row).own, { code: true }),
    textColumn({ id: 'partner', intl, label: 'workflow.col.partner' }, (row) => side(row).partner, { code: true }),
    textColumn({ id: 'asset', intl, label: 'clearing.col.asset' }, (row) => assetOf(row)?.code ?? row.data.assetId, { code: true }),
    enumColumn({ id: 'way', intl, label: 'clearing.col.way' }, (row) => side(row).way, (way) => enumLabelKey('way', way as 'bid' | 'ask')),
    minorColumn({ id: 'qty', intl, label: 'clearing.col.quantity' }, (row) => row.data.qty, (row) => assetOf(row)?.quantityDecimals ?? 0),
    minorColumn({ id: 'price', intl, label: 'clearing.col.price' }, (row) => row.data.price, (row) => assetOf(row)?.priceDecimals ?? 2),
    dateColumn({ id: 'firstDelivery', intl, label: 'workflow.col.firstDeliveryDate', priority: 4 }, (row) => row.data.firstDeliveryDate),
    dateColumn({ id: 'lastDelivery', intl, label: 'workflow.col.lastDeliveryDate', priority: 4 }, (row) => row.data.lastDeliveryDate),
    countColumn({ id: 'deliveryDays', intl, label: 'workflow.col.noDeliveryDays', priority: 4 }, (row) => row.data.noDeliveryDays),
    textColumn({ id: 'transaction', intl, label: 'clearing.col.transactionId', priority: 3 }, (row) => row.data.transactionId, { code: true }),
    reasonColumn(intl),
    instantColumn({ id: 'created', intl, label: 'clearing.col.createdAt', priority: 3 }, (row) => row.createdAt),
    instantColumn({ id: 'initiated', intl, label: 'workflow.col.initiatedAt', priority: 4 }, (row) => row.data.initiatedAt),
    statusColumn(intl),
    waitingOnColumn(intl, 3),
  ];
  const tab = accountTabs.find((candidate) => candidate.slug === 'otc-transactions')!;
  return (
    <>
      <WorkflowListCard
        id="otc-transactions"
        title={intl.formatMessage({ id: tab.label })}
        state={state}
        rows={rows}
        columns={columns}
        dateOf={(row) => exchangeDate(row.createdAt)}
        initialSort={{ columnId: 'created', direction: 'desc' }}
        empty="workflow.empty.otc"
        note={<FormattedMessage id="workflow.note.otc" />}
        command={
          canTrade(user) && (
            <button type="button" className="button button-primary button-small" onClick={() => setRegistering((count) => count + 1)}>
              <FormattedMessage id="workflow.otc.register" />
            </button>
          )
        }
      />
      {registering > 0 && (
        <OtcDealDialog
          key={registering}
          open
          onClose={() => setRegistering(0)}
          clientCodes={clientCodes}
          assets={[...assets.values()]}
          onRegistered={state.apply}
        />
      )}
    </>
  );
}
