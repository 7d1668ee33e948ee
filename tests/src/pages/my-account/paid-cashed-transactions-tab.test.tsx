// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes } from '../../../../protocol/clearing.ts';
import { PaidCashedTransactionsTab } from '../../../../src/pages/my-account/PaidCashedTransactionsTab.tsx';
import { exportCsv, filterFrom, list, obligation, renderIn, signIn, signOut, sortBy, stubApi, tableRows } from './clearing-fixtures.tsx';

const rows = [
  obligation(),
  obligation({ obligationId: 'OB2', kind: 'transaction', transactionId: 'T-9', direction: 'receive', amount: 2_500_00, status: 'cashed', settledAt: '2026-11-22T22:30:00.000Z' }),
  obligation({ obligationId: 'OB3', status: 'unpaid', settledAt: null, settledBy: null }),
];

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('paid and cashed transactions tab', () => {
  it('shows only the settled obligations, with the settlement time in EET; sorts, filters, pages and exports', async () => {
    stubApi({ [clearingRoutes.obligations]: list(rows) });
    renderIn('en', <PaidCashedTransactionsTab />);
    await waitFor(() => expect(tableRows('Paid and cashed transactions')).toHaveLength(2));
    const table = tableRows('Paid and cashed transactions');
    expect(table.map((cells) => cells[8])).toEqual(['Cashed', 'Paid']);
    // 22:30 UTC on 22 November is 00:30 on the 23rd in Bucharest.
    expect(table[0]![0]).toContain('23/11/2026, 00:30:00');
    sortBy('Paid and cashed transactions', 'Amount');
    expect(tableRows('Paid and cashed transactions').map((cells) => cells[8])).toEqual(['Paid', 'Cashed']);
    expect(screen.getByText('1-2 of 2')).toBeTruthy();
    const file = await exportCsv();
    expect(file.text).toBe(
      '\uFEFFSettled at,Client,Client name,Session date,For,Transaction,Amount,Due date,Status\r\n' +
        '2026-11-21T09:30:00.000Z,RO-HIDRO,Hidroelectrica SA,2026-11-20,variation_margin,,1000.00,2026-11-21,paid\r\n' +
        '2026-11-22T22:30:00.000Z,RO-HIDRO,Hidroelectrica SA,2026-11-20,transaction,T-9,2500.00,2026-11-21,cashed\r\n',
    );
    // The date filter reads the exchange date: the collection made at 00:30 EET on the 23rd.
    filterFrom('From', '2026-11-23');
    expect(screen.getByText('1-1 of 1')).toBeTruthy();
  });
});
