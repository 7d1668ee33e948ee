import { useEffect, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Trade, Transaction } from '../../protocol/market-data.ts';
import type { AssetSpecification } from '../../protocol/reference.ts';
import { fetchTransactions, type TransactionScope } from '../api/trading.ts';
import { DataTable, type DataTableColumn } from '../components/DataTable.tsx';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import { formatExchangeDateTime, formatMinor } from '../i18n/format.ts';
import { useMyTradesList, useTradesList } from './live.ts';

/** A row of the table: a transaction, or a public trade (parties blank). */
export type TransactionRow = Trade & Partial<Pick<Transaction, 'buyer' | 'seller'>>;

/** Rows by id, newest first; a later copy of a transaction replaces the earlier one. */
export function mergeTransactions(current: readonly TransactionRow[], incoming: readonly TransactionRow[]): TransactionRow[] {
  const byId = new Map<string, TransactionRow>();
  for (const row of [...current, ...incoming]) byId.set(row.transactionId, { ...byId.get(row.transactionId), ...row });
  return [...byId.values()].sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
}

export interface TransactionsTableProps {
  rows: readonly TransactionRow[];
  assets: readonly AssetSpecification[];
  label: string;
  loading?: boolean;
}

export function TransactionsTable({ rows, assets, label, loading }: TransactionsTableProps) {
  const intl = useIntl();
  const byId = new Map(assets.map((asset) => [asset.id, asset]));
  const columns: DataTableColumn<TransactionRow>[] = [
    { id: 'time', header: <FormattedMessage id="transactions.time" />, sortValue: (t) => t.timestamp, cell: (t) => <span className="small">{formatExchangeDateTime(intl, t.timestamp)}</span> },
    { id: 'id', header: <FormattedMessage id="transactions.id" />, sortValue: (t) => t.transactionId, cell: (t) => <span className="mono small">{t.transactionId}</span> },
    { id: 'asset', header: <FormattedMessage id="transactions.asset" />, sortValue: (t) => byId.get(t.assetId)?.code ?? t.assetId, cell: (t) => byId.get(t.assetId)?.code ?? t.assetId },
    {
      id: 'price',
      header: <FormattedMessage id="transactions.price" />,
      align: 'end',
      sortValue: (t) => t.price,
      cell: (t) => <span className="mono">{formatMinor(intl, t.price, byId.get(t.assetId)?.priceDecimals ?? 2)}</span>,
    },
    {
      id: 'qty',
      header: <FormattedMessage id="transactions.quantity" />,
      align: 'end',
      sortValue: (t) => t.qty,
      cell: (t) => <span className="mono">{formatMinor(intl, t.qty, byId.get(t.assetId)?.quantityDecimals ?? 0)}</span>,
    },
    {
      id: 'aggressor',
      header: <FormattedMessage id="transactions.aggressor" />,
      sortValue: (t) => t.aggressor,
      cell: (t) => <FormattedMessage id={enumLabelKey('way', t.aggressor)} />,
    },
    { id: 'buyer', header: <FormattedMessage id="transactions.buyer" />, sortValue: (t) => t.buyer, cell: (t) => t.buyer || '—' },
    { id: 'seller', header: <FormattedMessage id="transactions.seller" />, sortValue: (t) => t.seller, cell: (t) => t.seller || '—' },
  ];
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={rows}
      rowKey={(t) => t.transactionId}
      loading={loading ?? false}
      initialSort={{ columnId: 'time', direction: 'desc' }}
      emptyMessage={<FormattedMessage id="transactions.empty" />}
    />
  );
}

/** Transactions (all or mine), of one asset or all: the server's list, then live ones added. */
export function TransactionsPanel({ assets, assetId, initialScope = 'mine' }: { assets: readonly AssetSpecification[]; assetId?: string; initialScope?: TransactionScope }) {
  const intl = useIntl();
  const [scope, setScope] = useState<TransactionScope>(initialScope);
  // The server's list and what it was fetched for: a list for another scope or asset counts as still loading.
  const [fetched, setFetched] = useState<{ scope: TransactionScope; assetId: string | undefined; items: TransactionRow[] } | null>(null);
  // Both live lists stay subscribed whichever scope is shown, so switching loses nothing.
  const mine = useMyTradesList();
  const publicTrades = useTradesList(assetId);

  useEffect(() => {
    const controller = new AbortController();
    fetchTransactions(scope, assetId, controller.signal)
      .then((items) => setFetched({ scope, assetId, items }))
      .catch(() => !controller.signal.aborted && setFetched({ scope, assetId, items: [] }));
    return () => controller.abort();
  }, [scope, assetId]);

  const rows = useMemo(() => {
    const ownLive = mine.filter((t) => assetId === undefined || t.assetId === assetId);
    const live: TransactionRow[] = scope === 'mine' ? ownLive : assetId ? [...publicTrades, ...ownLive] : ownLive;
    return mergeTransactions(fetched?.scope === scope && fetched.assetId === assetId ? fetched.items : [], live);
  }, [fetched, scope, mine, publicTrades, assetId]);
  const loading = fetched?.scope !== scope || fetched.assetId !== assetId;

  const label = intl.formatMessage({ id: 'transactions.title' });
  const scopes = ['mine', 'all'] as const;
  return (
    <section className="card" aria-labelledby="transactions-title">
      <div className="card-header">
        <h2 id="transactions-title">{label}</h2>
        <div className="segmented" role="group" aria-label={intl.formatMessage({ id: 'transactions.scope' })}>
          {scopes.map((candidate) => (
            <button
              key={candidate}
              type="button"
              className={candidate === scope ? 'segment active' : 'segment'}
              aria-pressed={candidate === scope}
              onClick={() => setScope(candidate)}
            >
              <FormattedMessage id={candidate === 'mine' ? 'transactions.scope.mine' : 'transactions.scope.all'} />
            </button>
          ))}
        </div>
      </div>
      <TransactionsTable rows={rows} assets={assets} label={label} loading={loading} />
    </section>
  );
}
