// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes } from '../../../../protocol/clearing.ts';
import { MonthlySettlementSummaryTab } from '../../../../src/pages/my-account/MonthlySettlementSummaryTab.tsx';
import { exportCsv, filterFrom, list, renderIn, signIn, signOut, sortBy, stubApi, summary, tableRows } from './clearing-fixtures.tsx';

const rows = [summary(), summary({ month: '2026-10', notes: 22, variationMargin: 300_00, unpaid: 0, paid: 3_100_00 })];

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('monthly settlement summary tab', () => {
  it('names the month in the reader’s language, sorts, filters by the months a range meets, pages and exports', async () => {
    stubApi({ [clearingRoutes.monthlySummaries]: list(rows) });
    renderIn('ro', <MonthlySettlementSummaryTab />);
    await waitFor(() => expect(tableRows('Sinteza lunară a decontării')).toHaveLength(2));
    expect(tableRows('Sinteza lunară a decontării').map((cells) => cells[0])).toEqual(['noiembrie 2026', 'octombrie 2026']);
    sortBy('Sinteza lunară a decontării', 'Note');
    sortBy('Sinteza lunară a decontării', 'Note');
    expect(tableRows('Sinteza lunară a decontării').map((cells) => cells[2])).toEqual(['22', '15']);
    const file = await exportCsv('Exportă CSV');
    expect(file.text).toBe(
      '\uFEFFLuna,Client,Note,Marjă de variație,Valoare livrare,Tarife,Comisioane bancare,De plată,De încasat,Plătit,Încasat,Neplătit\r\n' +
        '2026-10,RO-HIDRO,22,300.00,0.00,410.00,25.00,3100.00,1465.00,3100.00,1465.00,0.00\r\n' +
        '2026-11,RO-HIDRO,15,-1200.00,0.00,410.00,25.00,3100.00,1465.00,2000.00,1465.00,1100.00\r\n',
    );
    // From the middle of October: October still counts, it meets the range.
    filterFrom('De la', '2026-10-15');
    expect(screen.getByText('1-2 din 2')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Până la'), { target: { value: '2026-10-31' } });
    expect(tableRows('Sinteza lunară a decontării').map((cells) => cells[0])).toEqual(['octombrie 2026']);
  });
});
