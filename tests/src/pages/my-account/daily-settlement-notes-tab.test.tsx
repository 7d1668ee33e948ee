// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes } from '../../../../protocol/clearing.ts';
import { DailySettlementNotesTab } from '../../../../src/pages/my-account/DailySettlementNotesTab.tsx';
import { exportCsv, filterFrom, list, note, renderIn, signIn, signOut, sortBy, stubApi, tableRows } from './clearing-fixtures.tsx';

const rows = [note(), note({ noteId: 'N2', sessionDate: '2026-11-20', variationMargin: 1_250_50, fees: 12_00, toPay: 0, toReceive: 1_238_50 })];

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('daily settlement notes tab', () => {
  it('shows each note with its PDF, sorts, filters, pages and exports', async () => {
    stubApi({ [clearingRoutes.dailyNotes]: list(rows) });
    renderIn('en', <DailySettlementNotesTab />);
    await waitFor(() => expect(tableRows('Daily settlement notes')).toHaveLength(2));
    expect(tableRows('Daily settlement notes')[0]).toContain('-RON 2,400.00');
    expect(screen.getByRole('button', { name: 'Download the daily settlement note of RO-HIDRO for 2026-11-23 (PDF)' })).toBeTruthy();
    sortBy('Daily settlement notes', 'To receive');
    sortBy('Daily settlement notes', 'To receive');
    expect(tableRows('Daily settlement notes')[0]).toContain('RON 1,238.50');
    expect(screen.getByText('1-2 of 2')).toBeTruthy();
    const file = await exportCsv();
    expect(file.fileName).toMatch(/^daily-settlement-notes-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file.text).toBe(
      '\uFEFFSession date,Client,Market,Variation margin,Delivery value,Fees,Bank commissions,To pay,To receive\r\n' +
        '2026-11-20,RO-HIDRO,GAS-FWD,1250.50,0.00,12.00,0.00,0.00,1238.50\r\n' +
        '2026-11-23,RO-HIDRO,GAS-FWD,-2400.00,0.00,36.00,0.00,2436.00,0.00\r\n',
    );
    filterFrom('From', '2026-11-21');
    expect(screen.getByText('1-1 of 1')).toBeTruthy();
  });
});
