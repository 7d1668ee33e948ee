import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { CLEARING_AMOUNT_DECIMALS, type ObligationStatus, type PaymentObligation } from '../../../protocol/clearing.ts';
import { fetchObligations } from '../../clearing/clearing-api.ts';
import { useClearingData } from '../../clearing/clearing-live.ts';
import { amountColumn, dateColumn, enumColumn, instantColumn, textColumn } from '../../clearing/columns.tsx';
import { exchangeDate } from '../../components/csv.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { obligationKindLabels, obligationStatusLabels } from '../../clearing/labels.ts';
import { ClearingListCard } from './ClearingListCard.tsx';

/** Paid and cashed transactions: the obligations settled, by payment (paid) or collection (cashed). */
export function PaidCashedTransactionsTab() {
  const intl = useIntl();
  const state = useClearingData(fetchObligations, ['settlement', 'payment']);
  const decimals = state.data?.amountDecimals ?? CLEARING_AMOUNT_DECIMALS;
  const rows = useMemo(() => (state.data?.items ?? []).filter((row) => row.status !== 'unpaid'), [state.data]);
  const columns: DataTableColumn<PaymentObligation>[] = [
    instantColumn({ id: 'settledAt', intl, label: 'clearing.col.settledAt' }, (row) => row.settledAt),
    textColumn({ id: 'client', intl, label: 'clearing.col.client' }, (row) => row.clientCode, { code: true }),
    textColumn({ id: 'clientName', intl, label: 'clearing.col.clientName', priority: 3 }, (row) => row.clientName),
    dateColumn({ id: 'session', intl, label: 'clearing.col.sessionDate', priority: 2 }, (row) => row.sessionDate),
    enumColumn({ id: 'kind', intl, label: 'clearing.col.obligationKind', priority: 2 }, (row) => row.kind, (kind) => obligationKindLabels[kind as PaymentObligation['kind']]),
    textColumn({ id: 'transaction', intl, label: 'clearing.col.transactionId', priority: 3 }, (row) => row.transactionId, { code: true }),
    amountColumn({ id: 'amount', intl, label: 'clearing.col.amount' }, (row) => row.amount, (row) => row.currency, decimals),
    dateColumn({ id: 'due', intl, label: 'clearing.col.dueDate', priority: 3 }, (row) => row.dueDate),
    enumColumn({ id: 'status', intl, label: 'clearing.col.status' }, (row) => row.status, (status) => obligationStatusLabels[status as ObligationStatus]),
  ];
  return (
    <ClearingListCard
      slug="paid-cashed-transactions"
      state={state}
      rows={rows}
      columns={columns}
      rowKey={(row) => row.obligationId}
      dateOf={(row) => (row.settledAt ? exchangeDate(row.settledAt) : row.dueDate)}
      initialSort={{ columnId: 'settledAt', direction: 'desc' }}
      empty="clearing.empty.paidCashedTransactions"
    />
  );
}
