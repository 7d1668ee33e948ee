// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes } from '../../../../protocol/clearing.ts';
import { WarrantiesTab } from '../../../../src/pages/my-account/WarrantiesTab.tsx';
import { exportCsv, filterFrom, list, renderIn, signIn, signOut, sortBy, stubApi, tableRows, warranty } from './clearing-fixtures.tsx';

const rows = [
  warranty(),
  warranty({ clientWarrantyId: 'W2', clientCode: 'RO-TERMO', clientName: 'Termo, "Est" SA', warrantyNumber: 'CD-7', warrantyName: 'Depozit "numerar", cont 5', kind: 'cash_deposit', depositDate: '2026-10-01', validityDate: '2026-12-31', value: 25_000_50, status: 'active' }),
];

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('warranties tab', () => {
  it('shows the rows in English, sorts, filters by deposit date and pages', async () => {
    stubApi({ [clearingRoutes.warranties]: list(rows) });
    renderIn('en', <WarrantiesTab />);
    await waitFor(() => expect(tableRows('Warranties')).toHaveLength(2));
    // Newest validity first.
    expect(tableRows('Warranties').map((cells) => cells[0])).toEqual(['RO-HIDRO', 'RO-TERMO']);
    expect(tableRows('Warranties')[0]).toContain('RON 150,000.00');
    expect(tableRows('Warranties')[0]).toContain('Bank letter of guarantee');
    sortBy('Warranties', 'Value');
    expect(tableRows('Warranties').map((cells) => cells[0])).toEqual(['RO-TERMO', 'RO-HIDRO']);
    expect(screen.getByText('1-2 of 2')).toBeTruthy();
    filterFrom('From', '2026-11-01');
    expect(tableRows('Warranties').map((cells) => cells[0])).toEqual(['RO-HIDRO']);
    expect(screen.getByText('1-1 of 1')).toBeTruthy();
  });

  it('exports the rows as CSV: BOM, RFC 4180 quoting, plain decimals, ISO dates', async () => {
    stubApi({ [clearingRoutes.warranties]: list(rows) });
    renderIn('ro', <WarrantiesTab />);
    await waitFor(() => expect(tableRows('Garanții')).toHaveLength(2));
    expect(tableRows('Garanții')[0]).toContain('150.000,00 RON');
    const file = await exportCsv('Exportă CSV');
    expect(file.fileName).toMatch(/^warranties-\d{4}-\d{2}-\d{2}\.csv$/);
    expect([...file.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(file.text).toBe(
      '\uFEFFClient,Număr garanție,Instrument,Tip,Data depunerii,Valabilă până la,Valoare,Stare,Eliberată la\r\n' +
        'RO-HIDRO,SGB-118,Scrisoare de garanție bancară BRD nr. 118,bank_guarantee,2026-11-02,2027-02-01,150000.00,active,\r\n' +
        'RO-TERMO,CD-7,"Depozit ""numerar"", cont 5",cash_deposit,2026-10-01,2026-12-31,25000.50,active,\r\n',
    );
  });

  it('says so when there are none, and shows a refusal in the reader’s language with a retry', async () => {
    const fetchMock = stubApi({ [clearingRoutes.warranties]: { status: 403, body: { error: { code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-X' } } } } });
    renderIn('ro', <WarrantiesTab />);
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Nu puteți vedea contul clientului RO-X.');
    stubApi({ [clearingRoutes.warranties]: list([]) });
    fireEvent.click(screen.getByRole('button', { name: 'Încercați din nou' }));
    expect(await screen.findByText('Nu există garanții de afișat.')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
