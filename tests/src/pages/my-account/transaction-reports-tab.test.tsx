// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes } from '../../../../protocol/clearing.ts';
import { TransactionReportsTab } from '../../../../src/pages/my-account/TransactionReportsTab.tsx';
import { exportCsv, filterFrom, list, renderIn, report, signIn, signOut, sortBy, stubApi, tableRows } from './clearing-fixtures.tsx';

const rows = [report(), report({ reportId: 'TR2', clientCode: 'RO-TERMO', client: 'Termoenergetica SA', report: 'Raport tranzacții 2026-11-20', sessionDate: '2026-11-20', createdAt: '2026-11-20T16:10:00.000Z' })];

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('transaction reports tab', () => {
  it('sorts, filters, pages and exports', async () => {
    stubApi({ [clearingRoutes.transactionReports]: list(rows) });
    renderIn('en', <TransactionReportsTab />);
    await waitFor(() => expect(tableRows('Transaction reports')).toHaveLength(2));
    expect(tableRows('Transaction reports').map((cells) => cells[2])).toEqual(['RO-HIDRO', 'RO-TERMO']);
    sortBy('Transaction reports', 'Client');
    sortBy('Transaction reports', 'Client');
    expect(tableRows('Transaction reports').map((cells) => cells[2])).toEqual(['RO-TERMO', 'RO-HIDRO']);
    const file = await exportCsv();
    expect(file.text).toBe(
      '\uFEFFSession date,Report,Client,Client name,Report ID,Created at\r\n' +
        '2026-11-20,Raport tranzacții 2026-11-20,RO-TERMO,Termoenergetica SA,TR2,2026-11-20T16:10:00.000Z\r\n' +
        '2026-11-23,Raport tranzacții 2026-11-23,RO-HIDRO,Hidroelectrica SA,TR1,2026-11-23T16:10:00.000Z\r\n',
    );
    filterFrom('From', '2026-11-21');
    expect(screen.getByText('1-1 of 1')).toBeTruthy();
  });

  it('downloads the PDF with the bearer token, in the reader’s language, and saves it under the server’s name', async () => {
    stubApi({ [clearingRoutes.transactionReports]: list(rows) });
    const fetchMock = vi.mocked(fetch);
    const listFetch = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (url, init) =>
      String(url).includes('/pdf') ? new Response('%PDF-1.7 fixture', { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="raport-tranzactii-RO-HIDRO-2026-11-23.pdf"' } }) : listFetch(url as string, init),
    );
    let saved: Blob | null = null;
    let fileName = '';
    URL.createObjectURL = (value: Blob | MediaSource) => {
      saved = value as Blob;
      return 'blob:pdf';
    };
    URL.revokeObjectURL = () => undefined;
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      fileName = this.download;
    });
    renderIn('ro', <TransactionReportsTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Descărcați PDF-ul pentru Raport tranzacții 2026-11-23' }));
    await waitFor(() => expect(screen.queryByRole('alert')?.textContent ?? fileName).toBe('raport-tranzactii-RO-HIDRO-2026-11-23.pdf'));
    click.mockRestore();
    const call = fetchMock.mock.calls.find(([url]) => String(url).includes('/pdf'))!;
    expect(call[0]).toBe('/session/api/clearing/transaction-reports/TR1/pdf?lang=ro');
    expect((call[1]?.headers as Record<string, string>)['Authorization']).toBe('Bearer tok');
    expect(await (saved as unknown as Blob).text()).toBe('%PDF-1.7 fixture');
  });

  it('shows a refused download beside its button', async () => {
    stubApi({
      [clearingRoutes.transactionReports]: list(rows),
      [clearingRoutes.transactionReportPdf('TR1')]: { status: 404, body: { error: { code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-HIDRO' } } } },
    });
    renderIn('en', <TransactionReportsTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Download the PDF of Raport tranzacții 2026-11-23' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You cannot see the account of client RO-HIDRO.');
  });
});
