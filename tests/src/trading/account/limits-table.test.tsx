// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { limitUsagePercent } from '../../../../protocol/account.ts';
import { LimitsTable } from '../../../../src/trading/account/LimitsTable.tsx';
import { usageLevel } from '../../../../src/trading/account/UsageBar.tsx';
import { WithIntl } from '../../components/intl.tsx';
import { limits, plain } from './fixtures.ts';

afterEach(cleanup);

const rows = [
  limits({ code: 'RO-HIDRO', exposure: 250_000 }),
  limits({ code: 'RO-GAZEST', exposure: 850_000, availableFunds: -2_500 }),
  limits({ code: 'RO-TERMO', exposure: 1_200_000 }),
  limits({ code: 'RO-FREE', tradingLimit: null, clearingLimit: null, availableFunds: null, maxContracts: null }),
];

function renderTable(locale: 'en' | 'ro' = 'en') {
  return render(
    <WithIntl locale={locale}>
      <LimitsTable limits={rows} amountDecimals={2} label="Limits" />
    </WithIntl>,
  );
}

const bodyRows = () => within(screen.getByRole('table', { name: 'Limits' })).getAllByRole('row').slice(1);
const clientColumn = () => bodyRows().map((row) => within(row).getAllByRole('cell')[0]!.textContent);

describe('financial limits table', () => {
  it('shows each figure in the amount decimals and the usage of the trading limit', () => {
    renderTable();
    const hidro = bodyRows().find((row) => plain(row.textContent).includes('RO-HIDRO'))!;
    const cells = within(hidro).getAllByRole('cell').map((cell) => plain(cell.textContent));
    expect(cells.slice(0, 3)).toEqual(['RO-HIDRO', '10,000.00', '2,500.00']);
    expect(cells).toContain('150.00'); // margin blocked by orders
    expect(cells).toContain('4,750.00'); // available funds
    expect(cells).toContain('3 of 100');
    const meter = within(hidro).getByRole('meter');
    expect(meter.getAttribute('aria-valuenow')).toBe('25');
    expect(meter.getAttribute('aria-label')).toBe('25% of the trading limit used');
    expect(meter.dataset.level).toBe('normal');
  });

  it('colours the bar as a warning above 80% and as an error at or over the limit', () => {
    renderTable();
    const levelOf = (code: string) => within(bodyRows().find((row) => plain(row.textContent).includes(code))!).getByRole('meter').dataset.level;
    expect(levelOf('RO-GAZEST')).toBe('warning');
    expect(levelOf('RO-TERMO')).toBe('over');
    // The bar stops at 100% while the figure says how far over it is.
    const termo = bodyRows().find((row) => plain(row.textContent).includes('RO-TERMO'))!;
    expect(within(termo).getByRole('meter').getAttribute('aria-valuenow')).toBe('100');
    expect(plain(termo.textContent)).toContain('120%');
    expect(usageLevel(80)).toBe('normal');
    expect(usageLevel(81)).toBe('warning');
    expect(limitUsagePercent(850_000, 1_000_000)).toBe(85);
    expect(limitUsagePercent(5, null)).toBeNull();
  });

  it('says when a limit is not set or funds are not checked, and marks negative funds', () => {
    renderTable();
    const free = bodyRows().find((row) => plain(row.textContent).includes('RO-FREE'))!;
    expect(within(free).queryByRole('meter')).toBeNull();
    expect(plain(free.textContent)).toContain('No limit');
    expect(plain(free.textContent)).toContain('Not checked');
    const gazest = bodyRows().find((row) => plain(row.textContent).includes('RO-GAZEST'))!;
    expect(plain(gazest.querySelector('.amount-negative')?.textContent)).toBe('-25.00');
  });

  it('sorts by usage', () => {
    renderTable();
    expect(clientColumn()).toEqual(['RO-FREE', 'RO-GAZEST', 'RO-HIDRO', 'RO-TERMO']);
    fireEvent.click(screen.getByRole('button', { name: /Usage/ }));
    // Without a limit there is no usage: last whatever the direction.
    expect(clientColumn()).toEqual(['RO-HIDRO', 'RO-GAZEST', 'RO-TERMO', 'RO-FREE']);
  });

  it('speaks Romanian', () => {
    renderTable('ro');
    expect(screen.getByRole('columnheader', { name: /Limită de tranzacționare/ })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Fonduri disponibile/ })).toBeTruthy();
    const hidro = bodyRows().find((row) => plain(row.textContent).includes('RO-HIDRO'))!;
    expect(within(hidro).getByRole('meter').getAttribute('aria-label')).toBe('25% din limita de tranzacționare utilizat');
    expect(plain(hidro.textContent)).toContain('3 din 100');
  });
});
