import { FormattedMessage, useIntl } from 'react-intl';
import { limitUsagePercent, type ClientLimits } from '../../../protocol/account.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { formatMinor } from '../../i18n/format.ts';
import { UsageBar } from './UsageBar.tsx';

export interface LimitsTableProps {
  limits: readonly ClientLimits[];
  amountDecimals: number;
  label: string;
  loading?: boolean;
}

/** SPEC §2 financial limits table: per client, the trading limit and its use, funds and margins (amounts without the currency, which the card names). */
export function LimitsTable({ limits, amountDecimals, label, loading = false }: LimitsTableProps) {
  const intl = useIntl();
  const money = (value: number | null) =>
    value === null ? <span className="muted"><FormattedMessage id="account.limits.notChecked" /></span> : <span className="mono">{formatMinor(intl, value, amountDecimals)}</span>;
  const columns: DataTableColumn<ClientLimits>[] = [
    { id: 'client', header: <FormattedMessage id="account.limits.client" />, sortValue: (row) => row.client.code, cell: (row) => <span className="mono">{row.client.code}</span> },
    {
      id: 'tradingLimit',
      header: <FormattedMessage id="account.limits.tradingLimit" />,
      align: 'end',
      sortValue: (row) => row.tradingLimit,
      cell: (row) => (row.tradingLimit === null ? <span className="muted"><FormattedMessage id="account.limits.noLimit" /></span> : money(row.tradingLimit)),
    },
    { id: 'exposure', header: <FormattedMessage id="account.limits.exposure" />, align: 'end', sortValue: (row) => row.exposure, cell: (row) => money(row.exposure) },
    {
      id: 'usage',
      header: <FormattedMessage id="account.limits.usage" />,
      width: '11rem',
      sortValue: (row) => limitUsagePercent(row.exposure, row.tradingLimit),
      cell: (row) => <UsageBar exposure={row.exposure} tradingLimit={row.tradingLimit} />,
    },
    { id: 'clearingLimit', header: <FormattedMessage id="account.limits.clearingLimit" />, align: 'end', sortValue: (row) => row.clearingLimit, cell: (row) => money(row.clearingLimit) },
    { id: 'marginOrders', header: <FormattedMessage id="account.limits.marginOrders" />, align: 'end', sortValue: (row) => row.marginBlockedByOrders, cell: (row) => money(row.marginBlockedByOrders) },
    { id: 'marginTrades', header: <FormattedMessage id="account.limits.marginTrades" />, align: 'end', sortValue: (row) => row.marginBlockedByTrades, cell: (row) => money(row.marginBlockedByTrades) },
    {
      id: 'availableFunds',
      header: <FormattedMessage id="account.limits.availableFunds" />,
      align: 'end',
      sortValue: (row) => row.availableFunds,
      cell: (row) => <span className={row.availableFunds !== null && row.availableFunds < 0 ? 'amount-negative' : undefined}>{money(row.availableFunds)}</span>,
    },
    {
      id: 'contracts',
      header: <FormattedMessage id="account.limits.contracts" />,
      align: 'end',
      sortValue: (row) => row.openContracts,
      cell: (row) => (
        <span className="mono">
          {row.maxContracts === null
            ? intl.formatNumber(row.openContracts)
            : intl.formatMessage({ id: 'account.limits.contractsOf' }, { open: intl.formatNumber(row.openContracts), max: intl.formatNumber(row.maxContracts) })}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={limits}
      rowKey={(row) => row.client.code}
      loading={loading}
      initialSort={{ columnId: 'client', direction: 'asc' }}
      hideFooter={limits.length <= 10}
      emptyMessage={<FormattedMessage id="account.limits.empty" />}
    />
  );
}
