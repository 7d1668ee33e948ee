// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes } from '../../../../protocol/clearing.ts';
import { UnpaidTransactionsTab } from '../../../../src/pages/my-account/UnpaidTransactionsTab.tsx';
import { exportCsv, filterFrom, list, renderIn, signIn, signOut, sortBy, stubApi, tableRows, unpaid } from './clearing-fixtures.tsx';

const rows = [unpaid(), unpaid({ obligationId: 'OB2', transactionId: null, clientCode: 'RO-TERMO', client: 'Termoenergetica SA', amount: 99_00, dueDate: '2026-11-12', daysPassed: 12 })];

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('unpaid transactions tab', () => {
  it('shows the days passed, oldest debt first; sorts, filters, pages and exports', async () => {
    stubApi({ [clearingRoutes.unpaidTransactions]: list(rows) });
    renderIn('ro', <UnpaidTransactionsTab />);
    await waitFor(() => expect(tableRows('Tranzacții neplătite')).toHaveLength(2));
    expect(tableRows('Tranzacții neplătite').map((cells) => cells[5])).toEqual(['12', '3']);
    expect(tableRows('Tranzacții neplătite')[1]).toContain('4.560,75 RON');
    sortBy('Tranzacții neplătite', 'Sumă');
    expect(tableRows('Tranzacții neplătite').map((cells) => cells[1])).toEqual(['RO-TERMO', 'RO-HIDRO']);
    expect(screen.getByText('1-2 din 2')).toBeTruthy();
    const file = await exportCsv('Exportă CSV');
    expect(file.text).toBe(
      '\uFEFFTranzacție,Client,Nume client,Sumă,Scadență,Zile trecute\r\n' +
        ',RO-TERMO,Termoenergetica SA,99.00,2026-11-12,12\r\n' +
        'T-100,RO-HIDRO,Hidroelectrica SA,4560.75,2026-11-21,3\r\n',
    );
    filterFrom('De la', '2026-11-20');
    expect(tableRows('Tranzacții neplătite').map((cells) => cells[0])).toEqual(['T-100']);
  });
});
