import { useIntl } from 'react-intl';
import { CLEARING_AMOUNT_DECIMALS, clearingRoutes, type MonthlySettlementSummary } from '../../../protocol/clearing.ts';
import { fetchMonthlySummaries } from '../../clearing/clearing-api.ts';
import { useClearingData } from '../../clearing/clearing-live.ts';
import { amountColumn, countColumn, textColumn } from '../../clearing/columns.tsx';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { ClearingListCard } from './ClearingListCard.tsx';
import { PdfDownloadButton } from './PdfDownloadButton.tsx';

/** A month (YYYY-MM) in the locale: 'noiembrie 2026' / 'November 2026'. */
function monthLabel(locale: string, month: string): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? month : new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/** The first and last day of a month (YYYY-MM), so a date range filter keeps the months it meets. */
function monthPeriod(month: string): readonly [string, string] {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  return [`${month}-01`, `${month}-${String(lastDay).padStart(2, '0')}`];
}

/** Monthly settlement summaries: a client's month of notes added up, with what was paid, cashed and is still unpaid. */
export function MonthlySettlementSummaryTab() {
  const intl = useIntl();
  const state = useClearingData(fetchMonthlySummaries, ['settlement', 'payment']);
  const decimals = state.data?.amountDecimals ?? CLEARING_AMOUNT_DECIMALS;
  const currency = (row: MonthlySettlementSummary) => row.currency;
  const columns: DataTableColumn<MonthlySettlementSummary>[] = [
    { ...textColumn({ id: 'month', intl, label: 'clearing.col.month' }, (row) => row.month), cell: (row) => monthLabel(intl.locale, row.month) },
    textColumn({ id: 'client', intl, label: 'clearing.col.client' }, (row) => row.clientCode, { code: true }),
    countColumn({ id: 'notes', intl, label: 'clearing.col.notes', priority: 3 }, (row) => row.notes),
    amountColumn({ id: 'variation', intl, label: 'clearing.col.variationMargin', priority: 2 }, (row) => row.variationMargin, currency, decimals),
    amountColumn({ id: 'delivery', intl, label: 'clearing.col.deliveryValue', priority: 3 }, (row) => row.deliveryValue, currency, decimals),
    amountColumn({ id: 'fees', intl, label: 'clearing.col.fees', priority: 3 }, (row) => row.fees, currency, decimals),
    amountColumn({ id: 'bankCommissions', intl, label: 'clearing.col.bankCommissions', priority: 3 }, (row) => row.bankCommissions, currency, decimals),
    amountColumn({ id: 'toPay', intl, label: 'clearing.col.toPay', priority: 2 }, (row) => row.toPay, currency, decimals),
    amountColumn({ id: 'toReceive', intl, label: 'clearing.col.toReceive', priority: 2 }, (row) => row.toReceive, currency, decimals),
    amountColumn({ id: 'paid', intl, label: 'clearing.col.paid', priority: 3 }, (row) => row.paid, currency, decimals),
    amountColumn({ id: 'cashed', intl, label: 'clearing.col.cashed', priority: 3 }, (row) => row.cashed, currency, decimals),
    amountColumn({ id: 'unpaid', intl, label: 'clearing.col.unpaid' }, (row) => row.unpaid, currency, decimals),
    {
      id: 'pdf',
      header: intl.formatMessage({ id: 'clearing.col.document' }),
      cell: (row) => (
        <PdfDownloadButton
          path={clearingRoutes.monthlySummaryPdf(row.clientCode, row.month)}
          fileName={`monthly-settlement-summary-${row.clientCode}-${row.month}.pdf`}
          label={intl.formatMessage({ id: 'clearing.pdf.monthlySummary' }, { client: row.clientCode, month: monthLabel(intl.locale, row.month) })}
        />
      ),
    },
  ];
  return (
    <ClearingListCard
      slug="monthly-settlement-summary"
      state={state}
      columns={columns}
      rowKey={(row) => `${row.clientCode}:${row.month}:${row.currency}`}
      dateOf={(row) => monthPeriod(row.month)}
      initialSort={{ columnId: 'month', direction: 'desc' }}
      empty="clearing.empty.monthlySettlementSummary"
    />
  );
}
