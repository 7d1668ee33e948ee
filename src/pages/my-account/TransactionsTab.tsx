import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import type { Transaction } from '../../../protocol/market-data.ts';
import { fetchAssets } from '../../api/reference.ts';
import { fetchTransactions } from '../../api/trading.ts';
import { CLEARING_AMOUNT_DECIMALS } from '../../../protocol/clearing.ts';
import { useClearingData } from '../../clearing/clearing-live.ts';
import { enumColumn, instantColumn, minorColumn, textColumn } from '../../clearing/columns.tsx';
import { exchangeDate } from '../../components/csv.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { useMyTradesList } from '../../trading/live.ts';
import { mergeTransactions } from '../../trading/TransactionsPanel.tsx';
import { useUser } from '../../auth/use-auth.ts';
import { mayStartTransactionWorkflows, TransactionWorkflowActions } from '../../workflows/TransactionWorkflowActions.tsx';
import { ClearingListCard } from './ClearingListCard.tsx';
import { TransferRequestsCard } from './TransferRequestsCard.tsx';

/** The user's clients' transactions as a clearing list (so the tab shares the other tabs' card), with the assets' decimals (cached reference). */
async function loadTransactions(signal: AbortSignal) {
  const [items, assets] = await Promise.all([fetchTransactions('mine', undefined, signal), fetchAssets()]);
  return { amountDecimals: CLEARING_AMOUNT_DECIMALS, items, assets, at: new Date().toISOString() };
}

/** Transactions of the user's clients: the server's list, with the ones traded since added live. */
export function TransactionsTab() {
  const intl = useIntl();
  const state = useClearingData(loadTransactions, ['settlement']);
  const live = useMyTradesList();
  const byId = useMemo(() => new Map((state.data?.assets ?? []).map((asset) => [asset.id, asset])), [state.data]);
  const rows = useMemo(() => mergeTransactions(state.data?.items ?? [], live) as Transaction[], [state.data, live]);
  const code = (row: Transaction) => byId.get(row.assetId)?.code ?? row.assetId;
  const user = useUser();
  // Transfer, margin activation and contract upload: offered to the transaction's participants only (issue 15).
  const workflowColumn: DataTableColumn<Transaction>[] = rows.some((row) => mayStartTransactionWorkflows(row, user))
    ? [
        {
          id: 'workflows',
          header: intl.formatMessage({ id: 'workflow.tx.actions' }),
          cell: (row) => (mayStartTransactionWorkflows(row, user) ? <TransactionWorkflowActions transaction={row} asset={byId.get(row.assetId)} /> : null),
        },
      ]
    : [];
  // The row's three workflow buttons need the room of buyer and seller in a narrow box (1280 px): they hide first there, as the aggressor does.
  const sidesPriority = workflowColumn.length > 0 ? 3 : 2;
  const columns: DataTableColumn<Transaction>[] = [
    instantColumn({ id: 'time', intl, label: 'clearing.col.time' }, (row) => row.timestamp),
    textColumn({ id: 'id', intl, label: 'clearing.col.transactionId' }, (row) => row.transactionId, { code: true }),
    textColumn({ id: 'asset', intl, label: 'clearing.col.asset' }, code, { code: true }),
    minorColumn({ id: 'price', intl, label: 'clearing.col.price' }, (row) => row.price, (row) => byId.get(row.assetId)?.priceDecimals ?? 2),
    minorColumn({ id: 'qty', intl, label: 'clearing.col.quantity' }, (row) => row.qty, (row) => byId.get(row.assetId)?.quantityDecimals ?? 0),
    enumColumn({ id: 'aggressor', intl, label: 'clearing.col.aggressor', priority: 3 }, (row) => row.aggressor, (way) => enumLabelKey('way', way as Transaction['aggressor'])),
    textColumn({ id: 'buyer', intl, label: 'clearing.col.buyer', priority: sidesPriority }, (row) => row.buyer, { code: true }),
    textColumn({ id: 'seller', intl, label: 'clearing.col.seller', priority: sidesPriority }, (row) => row.seller, { code: true }),
    ...workflowColumn,
  ];
  return (
    <div className="workflow-stack">
      <ClearingListCard
        slug="transactions"
        state={state}
        rows={rows}
        columns={columns}
        rowKey={(row) => row.transactionId}
        dateOf={(row) => exchangeDate(row.timestamp)}
        initialSort={{ columnId: 'time', direction: 'desc' }}
        empty="clearing.empty.transactions"
      />
      {/* The transfers of these transactions: where the partner answers one (issue 15). */}
      {(user?.clientCodes.length ?? 0) > 0 && <TransferRequestsCard />}
    </div>
  );
}
