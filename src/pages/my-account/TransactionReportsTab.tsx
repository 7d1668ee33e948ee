import { useIntl } from 'react-intl';
import { clearingRoutes, type TransactionReport } from '../../../protocol/clearing.ts';
import { fetchTransactionReports } from '../../clearing/clearing-api.ts';
import { useClearingData } from '../../clearing/clearing-live.ts';
import { dateColumn, instantColumn, textColumn } from '../../clearing/columns.tsx';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { ClearingListCard } from './ClearingListCard.tsx';
import { PdfDownloadButton } from './PdfDownloadButton.tsx';

/** Transaction reports: a PDF of a client's transactions per session date. */
export function TransactionReportsTab() {
  const intl = useIntl();
  const state = useClearingData(fetchTransactionReports, ['settlement']);
  const columns: DataTableColumn<TransactionReport>[] = [
    dateColumn({ id: 'session', intl, label: 'clearing.col.sessionDate' }, (row) => row.sessionDate),
    textColumn({ id: 'report', intl, label: 'clearing.col.report' }, (row) => row.report),
    textColumn({ id: 'client', intl, label: 'clearing.col.client' }, (row) => row.clientCode, { code: true }),
    textColumn({ id: 'clientName', intl, label: 'clearing.col.clientName', priority: 2 }, (row) => row.client),
    textColumn({ id: 'id', intl, label: 'clearing.col.reportId', priority: 3 }, (row) => row.reportId, { code: true }),
    instantColumn({ id: 'created', intl, label: 'clearing.col.createdAt', priority: 2 }, (row) => row.createdAt),
    {
      id: 'pdf',
      header: intl.formatMessage({ id: 'clearing.col.document' }),
      cell: (row) => (
        <PdfDownloadButton
          path={clearingRoutes.transactionReportPdf(row.reportId)}
          fileName={`transaction-report-${row.clientCode}-${row.sessionDate}.pdf`}
          label={intl.formatMessage({ id: 'clearing.pdf.report' }, { report: row.report })}
        />
      ),
    },
  ];
  return (
    <ClearingListCard
      slug="transaction-reports"
      state={state}
      columns={columns}
      rowKey={(row) => row.reportId}
      dateOf={(row) => row.sessionDate}
      initialSort={{ columnId: 'session', direction: 'desc' }}
      empty="clearing.empty.transactionReports"
    />
  );
}
