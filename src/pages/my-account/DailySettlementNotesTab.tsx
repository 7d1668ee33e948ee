import { useIntl } from 'react-intl';
import { CLEARING_AMOUNT_DECIMALS, clearingRoutes, type DailySettlementNote } from '../../../protocol/clearing.ts';
import { fetchDailyNotes } from '../../clearing/clearing-api.ts';
import { useClearingData } from '../../clearing/clearing-live.ts';
import { amountColumn, dateColumn, textColumn } from '../../clearing/columns.tsx';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { ClearingListCard } from './ClearingListCard.tsx';
import { PdfDownloadButton } from './PdfDownloadButton.tsx';

/** Daily settlement notes: per client, market and day, what the settlement run found, with the PDF note. */
export function DailySettlementNotesTab() {
  const intl = useIntl();
  const state = useClearingData(fetchDailyNotes, ['settlement', 'payment']);
  const decimals = state.data?.amountDecimals ?? CLEARING_AMOUNT_DECIMALS;
  const currency = (row: DailySettlementNote) => row.currency;
  const columns: DataTableColumn<DailySettlementNote>[] = [
    dateColumn({ id: 'session', intl, label: 'clearing.col.sessionDate' }, (row) => row.sessionDate),
    textColumn({ id: 'client', intl, label: 'clearing.col.client' }, (row) => row.clientCode, { code: true }),
    textColumn({ id: 'market', intl, label: 'clearing.col.market', priority: 3 }, (row) => row.marketId, { code: true }),
    amountColumn({ id: 'variation', intl, label: 'clearing.col.variationMargin', priority: 2 }, (row) => row.variationMargin, currency, decimals),
    amountColumn({ id: 'delivery', intl, label: 'clearing.col.deliveryValue', priority: 3 }, (row) => row.deliveryValue, currency, decimals),
    amountColumn({ id: 'fees', intl, label: 'clearing.col.fees', priority: 2 }, (row) => row.fees, currency, decimals),
    amountColumn({ id: 'bankCommissions', intl, label: 'clearing.col.bankCommissions', priority: 3 }, (row) => row.bankCommissions, currency, decimals),
    amountColumn({ id: 'toPay', intl, label: 'clearing.col.toPay' }, (row) => row.toPay, currency, decimals),
    amountColumn({ id: 'toReceive', intl, label: 'clearing.col.toReceive' }, (row) => row.toReceive, currency, decimals),
    {
      id: 'pdf',
      header: intl.formatMessage({ id: 'clearing.col.document' }),
      cell: (row) => (
        <PdfDownloadButton
          path={clearingRoutes.dailyNotePdf(row.noteId)}
          fileName={`daily-settlement-note-${row.clientCode}-${row.sessionDate}.pdf`}
          label={intl.formatMessage({ id: 'clearing.pdf.dailyNote' }, { client: row.clientCode, date: row.sessionDate })}
        />
      ),
    },
  ];
  return (
    <ClearingListCard
      slug="daily-settlement-notes"
      state={state}
      columns={columns}
      rowKey={(row) => row.noteId}
      dateOf={(row) => row.sessionDate}
      initialSort={{ columnId: 'session', direction: 'desc' }}
      empty="clearing.empty.dailySettlementNotes"
    />
  );
}
