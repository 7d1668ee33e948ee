import { useIntl } from 'react-intl';
import type { WhitelistRelation } from '../../../protocol/workflows.ts';
import { CLEARING_AMOUNT_DECIMALS } from '../../../protocol/clearing.ts';
import { enumColumn, instantColumn, textColumn } from '../../clearing/columns.tsx';
import { exchangeDate } from '../../components/csv.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { fetchWhitelistPartners } from '../../workflows/workflow-api.ts';
import { useWorkflowBackedData } from '../../workflows/workflow-live.ts';
import { ClearingListCard } from './ClearingListCard.tsx';

async function loadPartners(signal: AbortSignal) {
  const items = await fetchWhitelistPartners(signal);
  return { amountDecimals: CLEARING_AMOUNT_DECIMALS, items, at: new Date().toISOString() };
}

/** Whitelist partners (SPEC §3): each relation of the user's clients with its status and since when; reloaded when a whitelist request moves. */
export function WhitelistPartnersTab() {
  const intl = useIntl();
  const state = useWorkflowBackedData(loadPartners, ['whitelist']);
  const columns: DataTableColumn<WhitelistRelation>[] = [
    textColumn({ id: 'client', intl, label: 'clearing.col.client' }, (row) => row.clientCode, { code: true }),
    textColumn({ id: 'partner', intl, label: 'workflow.col.partner' }, (row) => row.partnerClientCode, { code: true }),
    textColumn({ id: 'partnerName', intl, label: 'clearing.col.clientName', priority: 2 }, (row) => row.partnerName),
    enumColumn({ id: 'status', intl, label: 'clearing.col.status' }, (row) => row.status, (status) => enumLabelKey('whitelistRelationStatus', status as WhitelistRelation['status'])),
    instantColumn({ id: 'since', intl, label: 'workflow.col.since' }, (row) => row.updatedAt),
  ];
  return (
    <ClearingListCard
      slug="whitelist-partners"
      state={state}
      columns={columns}
      rowKey={(row) => `${row.clientCode}:${row.partnerClientCode}`}
      dateOf={(row) => exchangeDate(row.updatedAt)}
      initialSort={{ columnId: 'since', direction: 'desc' }}
      empty="workflow.empty.partners"
      note={intl.formatMessage({ id: 'workflow.note.partners' })}
    />
  );
}
