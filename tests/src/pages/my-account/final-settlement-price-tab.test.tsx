// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes } from '../../../../protocol/clearing.ts';
import { FinalSettlementPriceTab } from '../../../../src/pages/my-account/FinalSettlementPriceTab.tsx';
import { exportCsv, filterFrom, finalPrice, list, renderIn, signIn, signOut, sortBy, stubApi, tableRows } from './clearing-fixtures.tsx';

const rows = [finalPrice(), finalPrice({ finalSettlementPriceId: 'FSP2', assetId: 'GFWD-SEP', assetName: 'GFWD-SEP26', sessionDate: '2026-09-29', finalSettlementPrice: 138_05, dailySettlementPrice: 137_90, consultationPrice: 138_05 })];

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('final settlement price tab', () => {
  it('sorts, filters by expiry date, pages and exports', async () => {
    stubApi({ [clearingRoutes.finalSettlementPrices]: list(rows) });
    renderIn('ro', <FinalSettlementPriceTab />);
    await waitFor(() => expect(tableRows('Preț final de decontare')).toHaveLength(2));
    expect(tableRows('Preț final de decontare').map((cells) => cells[1])).toEqual(['GFWD-OCT26', 'GFWD-SEP26']);
    expect(tableRows('Preț final de decontare')[0]![2]).toBe('141,10');
    sortBy('Preț final de decontare', 'Preț final de decontare');
    expect(tableRows('Preț final de decontare').map((cells) => cells[1])).toEqual(['GFWD-SEP26', 'GFWD-OCT26']);
    const file = await exportCsv('Exportă CSV');
    expect(file.text).toBe(
      '\uFEFFData expirării,Activ,Preț final de decontare,Preț zilnic de decontare,Preț de consultare,Preț de lichidare,Calculat la\r\n' +
        '2026-09-29,GFWD-SEP26,138.05,137.90,138.05,,2026-10-30T16:05:00.000Z\r\n' +
        '2026-10-30,GFWD-OCT26,141.10,141.10,,,2026-10-30T16:05:00.000Z\r\n',
    );
    filterFrom('De la', '2026-10-01');
    expect(screen.getByText('1-1 din 1')).toBeTruthy();
  });
});
