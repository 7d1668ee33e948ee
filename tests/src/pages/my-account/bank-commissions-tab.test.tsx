// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes } from '../../../../protocol/clearing.ts';
import { BankCommissionsTab } from '../../../../src/pages/my-account/BankCommissionsTab.tsx';
import { bankCommission, exportCsv, filterFrom, list, renderIn, signIn, signOut, sortBy, stubApi, tableRows } from './clearing-fixtures.tsx';

const rows = [bankCommission(), bankCommission({ id: 'BC2', clientId: 'RO-TERMO', name: 'Termoenergetica SA', fiscalCode: 'RO1', date: '2026-11-10', info: 'Comision, transfer', commission: 7_05 })];

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('bank commissions tab', () => {
  it('sorts, filters by date, pages and exports CSV', async () => {
    stubApi({ [clearingRoutes.bankCommissions]: list(rows) });
    renderIn('en', <BankCommissionsTab />);
    await waitFor(() => expect(tableRows('Bank commissions')).toHaveLength(2));
    expect(tableRows('Bank commissions').map((cells) => cells[1])).toEqual(['RO-HIDRO', 'RO-TERMO']);
    expect(tableRows('Bank commissions')[0]).toContain('RON 12.50');
    sortBy('Bank commissions', 'Commission');
    expect(tableRows('Bank commissions').map((cells) => cells[1])).toEqual(['RO-TERMO', 'RO-HIDRO']);
    expect(screen.getByText('1-2 of 2')).toBeTruthy();
    const file = await exportCsv();
    expect(file.fileName).toMatch(/^bank-commissions-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file.text).toBe(
      '\uFEFFDate,Client,Client name,Fiscal code,Details,Commission\r\n' +
        '2026-11-10,RO-TERMO,Termoenergetica SA,RO1,"Comision, transfer",7.05\r\n' +
        '2026-11-20,RO-HIDRO,Hidroelectrica SA,RO13267221,Plată OP 4411,12.50\r\n',
    );
    filterFrom('From', '2026-11-15');
    expect(screen.getByText('1-1 of 1')).toBeTruthy();
  });

  it('says when there are none, in Romanian', async () => {
    stubApi({ [clearingRoutes.bankCommissions]: list([]) });
    renderIn('ro', <BankCommissionsTab />);
    expect(await screen.findByText('Nu există comisioane bancare de afișat.')).toBeTruthy();
    expect(screen.getByText('0-0 din 0')).toBeTruthy();
  });
});
