// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes, financialInfoSchema, financialReportSchema, type FinancialInfo, type FinancialReport } from '../../../../protocol/clearing.ts';
import { FinancialReportCard } from '../../../../src/trading/account/FinancialReportCard.tsx';
import { list, renderIn, signIn, signOut, stubApi } from '../../pages/my-account/clearing-fixtures.tsx';
import { plain } from './fixtures.ts';

const parts = (orderPart: number, transactionPart: number, unlocked: number) => ({ orderPart, transactionPart, unlocked, total: Math.max(0, orderPart + transactionPart - unlocked) });

const report = (partial: Partial<FinancialReport> = {}): FinancialReport =>
  financialReportSchema.parse({
    clientCode: 'RO-HIDRO',
    clientName: 'Hidroelectrica SA',
    currency: 'RON',
    clearingLimit: 100_000_00,
    tradingLimit: 250_000_00,
    initialMargin: parts(12_000_00, 30_000_00, 2_000_00),
    variationMargin: parts(0, 8_500_00, 0),
    deliveryMargin: parts(0, 4_000_00, 0),
    totalExposure: 420_000_00,
    unpaidAmount: 70_000_00,
    withoutUnpaid: { currentMarginRequirement: 52_500_00, creditLimit: 47_500_00, marginCall: 0 },
    withUnpaid: { currentMarginRequirement: 122_500_00, creditLimit: 0, marginCall: 22_500_00 },
    engineFunds: 47_500_00,
    at: '2026-11-24T10:00:00.000Z',
    ...partial,
  });

const info = (partial: Partial<FinancialInfo> = {}): FinancialInfo =>
  financialInfoSchema.parse({
    clientCode: 'RO-HIDRO',
    clientName: 'Hidroelectrica SA',
    imbalance: [{ assetId: 'GSPOT-DA', way: 'ask', quantity: 500_0, quantityDecimals: 1 }],
    tradeableQuantity: [{ assetId: '*', bid: 1_200_0, ask: null, quantityDecimals: 1 }],
    at: '2026-11-24T10:00:00.000Z',
    ...partial,
  });

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

function rowOf(tableName: string, header: string): string[] {
  const table = screen.getByRole('table', { name: tableName });
  const row = within(table).getByRole('rowheader', { name: header }).closest('tr')!;
  return within(row).getAllByRole('cell').map((cell) => plain(cell.textContent));
}

describe('financial report card', () => {
  it('shows the three margins in parts, the limits, and the credit limit or margin call with and without unpaid', async () => {
    stubApi({ [clearingRoutes.financialReport]: list([report()]), [clearingRoutes.financialInfo]: list([info()]) });
    renderIn('en', <FinancialReportCard />);
    await screen.findByRole('table', { name: 'Margins of RO-HIDRO' });
    expect(rowOf('Margins of RO-HIDRO', 'Initial margin')).toEqual(['RON 12,000.00', 'RON 30,000.00', 'RON 2,000.00', 'RON 40,000.00']);
    expect(rowOf('Margins of RO-HIDRO', 'Variation margin')).toEqual(['RON 0.00', 'RON 8,500.00', 'RON 0.00', 'RON 8,500.00']);
    expect(rowOf('Margins of RO-HIDRO', 'Delivery margin')).toEqual(['RON 0.00', 'RON 4,000.00', 'RON 0.00', 'RON 4,000.00']);
    expect(rowOf('Margin call of RO-HIDRO', 'Current margin requirement')).toEqual(['RON 52,500.00', 'RON 122,500.00']);
    expect(rowOf('Margin call of RO-HIDRO', 'Credit limit or margin call')).toEqual(['Credit limit RON 47,500.00', 'Margin call RON 22,500.00']);
    const figures = plain(screen.getByRole('region', { hidden: true, name: /Financial report/ })?.textContent ?? '');
    expect(figures).toContain('Clearing limitRON 100,000.00');
    expect(figures).toContain('Total exposureRON 420,000.00');
    expect(figures).toContain('UnpaidRON 70,000.00');
    // What the engine's funds check uses now (ORDER_INSUFFICIENT_FUNDS past it).
    expect(figures).toContain('Funds for new ordersRON 47,500.00');
  });

  it('shows the financial info: the imbalance restriction and the tradeable quantity, in Romanian', async () => {
    stubApi({ [clearingRoutes.financialReport]: list([report()]), [clearingRoutes.financialInfo]: list([info()]) });
    renderIn('ro', <FinancialReportCard />);
    const imbalance = await screen.findByRole('table', { name: 'Restricție de dezechilibru' });
    expect(within(imbalance).getAllByRole('cell').map((cell) => plain(cell.textContent))).toEqual(['GSPOT-DA', 'Vânzare', '500,0']);
    const tradeable = screen.getByRole('table', { name: 'Cantitate tranzacționabilă' });
    expect(within(tradeable).getAllByRole('cell').map((cell) => plain(cell.textContent))).toEqual(['Toate activele', '1.200,0', 'Fără limită']);
    expect(rowOf('Apelul în marjă al clientului RO-HIDRO', 'Limită de credit sau apel în marjă')).toEqual(['Limită de credit 47.500,00 RON', 'Apel în marjă 22.500,00 RON']);
  });

  it('switches between the user’s clients', async () => {
    stubApi({
      [clearingRoutes.financialReport]: list([report(), report({ clientCode: 'RO-TERMO', clientName: 'Termoenergetica SA', clearingLimit: 5_00 })]),
      [clearingRoutes.financialInfo]: list([info(), info({ clientCode: 'RO-TERMO', imbalance: [] })]),
    });
    renderIn('en', <FinancialReportCard />);
    await screen.findByRole('table', { name: 'Margins of RO-HIDRO' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Client' }), { target: { value: 'RO-TERMO' } });
    await screen.findByRole('table', { name: 'Margins of RO-TERMO' });
    expect(screen.getByText('No imbalance restriction.')).toBeTruthy();
  });

  it('shows a refusal with a retry, and nothing to show when there are no clients', async () => {
    stubApi({ [clearingRoutes.financialReport]: { status: 403, body: { error: { code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-X' } } } }, [clearingRoutes.financialInfo]: list([]) });
    renderIn('en', <FinancialReportCard />);
    expect((await screen.findByRole('alert')).textContent).toContain('You cannot see the account of client RO-X.');
    stubApi({ [clearingRoutes.financialReport]: list([]), [clearingRoutes.financialInfo]: list([]) });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByText('No financial report to show.')).toBeTruthy());
  });
});
