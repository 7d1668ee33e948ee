import { useIntl } from 'react-intl';
import { CLEARING_AMOUNT_DECIMALS, type BankCommission } from '../../../protocol/clearing.ts';
import { fetchBankCommissions } from '../../clearing/clearing-api.ts';
import { useClearingData } from '../../clearing/clearing-live.ts';
import { amountColumn, dateColumn, textColumn } from '../../clearing/columns.tsx';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { ClearingListCard } from './ClearingListCard.tsx';

/** Bank commissions: what the banks charged for the clients' payments, passed on to them. */
export function BankCommissionsTab() {
  const intl = useIntl();
  const state = useClearingData(fetchBankCommissions, ['settlement', 'payment']);
  const decimals = state.data?.amountDecimals ?? CLEARING_AMOUNT_DECIMALS;
  const columns: DataTableColumn<BankCommission>[] = [
    dateColumn({ id: 'date', intl, label: 'clearing.col.date' }, (row) => row.date),
    textColumn({ id: 'client', intl, label: 'clearing.col.client' }, (row) => row.clientId, { code: true }),
    textColumn({ id: 'name', intl, label: 'clearing.col.clientName', priority: 2 }, (row) => row.name),
    textColumn({ id: 'fiscalCode', intl, label: 'clearing.col.fiscalCode', priority: 3 }, (row) => row.fiscalCode, { code: true }),
    textColumn({ id: 'info', intl, label: 'clearing.col.info', priority: 2 }, (row) => row.info),
    amountColumn({ id: 'commission', intl, label: 'clearing.col.commission' }, (row) => row.commission, (row) => row.currency, decimals),
  ];
  return (
    <ClearingListCard
      slug="bank-commissions"
      state={state}
      columns={columns}
      rowKey={(row) => row.id}
      dateOf={(row) => row.date}
      initialSort={{ columnId: 'date', direction: 'desc' }}
      empty="clearing.empty.bankCommissions"
    />
  );
}
