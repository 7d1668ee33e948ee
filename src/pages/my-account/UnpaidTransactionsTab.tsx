import { useIntl } from 'react-intl';
import { CLEARING_AMOUNT_DECIMALS, type UnpaidTransaction } from '../../../protocol/clearing.ts';
import { fetchUnpaidTransactions } from '../../clearing/clearing-api.ts';
import { useClearingData } from '../../clearing/clearing-live.ts';
import { amountColumn, countColumn, dateColumn, textColumn } from '../../clearing/columns.tsx';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { ClearingListCard } from './ClearingListCard.tsx';

/** Unpaid transactions: the clients' unpaid pay obligations, with the days passed since they were due. */
export function UnpaidTransactionsTab() {
  const intl = useIntl();
  const state = useClearingData(fetchUnpaidTransactions, ['settlement', 'payment', 'margin_call']);
  const decimals = state.data?.amountDecimals ?? CLEARING_AMOUNT_DECIMALS;
  const columns: DataTableColumn<UnpaidTransaction>[] = [
    textColumn({ id: 'transaction', intl, label: 'clearing.col.transactionId' }, (row) => row.transactionId, { code: true }),
    textColumn({ id: 'client', intl, label: 'clearing.col.client' }, (row) => row.clientCode, { code: true }),
    textColumn({ id: 'clientName', intl, label: 'clearing.col.clientName', priority: 2 }, (row) => row.client),
    amountColumn({ id: 'amount', intl, label: 'clearing.col.amount' }, (row) => row.amount, (row) => row.currency, decimals),
    dateColumn({ id: 'due', intl, label: 'clearing.col.dueDate' }, (row) => row.dueDate),
    countColumn({ id: 'days', intl, label: 'clearing.col.daysPassed' }, (row) => row.daysPassed),
  ];
  return (
    <ClearingListCard
      slug="unpaid-transactions"
      state={state}
      columns={columns}
      rowKey={(row) => row.obligationId}
      dateOf={(row) => row.dueDate}
      initialSort={{ columnId: 'days', direction: 'desc' }}
      empty="clearing.empty.unpaidTransactions"
      note={intl.formatMessage({ id: 'clearing.note.unpaidTransactions' })}
    />
  );
}
