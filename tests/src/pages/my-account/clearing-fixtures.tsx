/**
 * Fixture rows of the clearing tabs, each passed through its protocol schema (so a fixture that no
 * longer matches the contract fails here, not silently in a tab), and a fetch that answers the
 * clearing routes with them the way the server does ({ amountDecimals, items, at }).
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import {
  bankCommissionSchema,
  dailySettlementNoteSchema,
  dailySettlementPriceSchema,
  finalSettlementPriceSchema,
  monthlySettlementSummarySchema,
  nominationSchema,
  paymentObligationSchema,
  transactionReportSchema,
  unpaidTransactionSchema,
  warrantySchema,
  type BankCommission,
  type DailySettlementNote,
  type DailySettlementPrice,
  type FinalSettlementPrice,
  type MonthlySettlementSummary,
  type Nomination,
  type PaymentObligation,
  type TransactionReport,
  type UnpaidTransaction,
  type Warranty,
} from '../../../../protocol/clearing.ts';
import { endSession, startSession } from '../../../../src/auth/session.ts';
import { WithIntl } from '../../components/intl.tsx';

export const AT = '2026-11-24T10:00:00.000Z';

export const warranty = (partial: Partial<Warranty> = {}): Warranty =>
  warrantySchema.parse({
    clientWarrantyId: 'W1',
    clientCode: 'RO-HIDRO',
    clientName: 'Hidroelectrica SA',
    warrantyNumber: 'SGB-118',
    warrantyName: 'Scrisoare de garanție bancară BRD nr. 118',
    kind: 'bank_guarantee',
    depositDate: '2026-11-02',
    validityDate: '2027-02-01',
    value: 150_000_00,
    currency: 'RON',
    status: 'active',
    releasedAt: null,
    ...partial,
  });

export const bankCommission = (partial: Partial<BankCommission> = {}): BankCommission =>
  bankCommissionSchema.parse({ id: 'BC1', clientId: 'RO-HIDRO', name: 'Hidroelectrica SA', fiscalCode: 'RO13267221', date: '2026-11-20', info: 'Plată OP 4411', commission: 12_50, currency: 'RON', ...partial });

export const unpaid = (partial: Partial<UnpaidTransaction> = {}): UnpaidTransaction =>
  unpaidTransactionSchema.parse({ obligationId: 'OB1', transactionId: 'T-100', clientCode: 'RO-HIDRO', client: 'Hidroelectrica SA', amount: 4_560_75, currency: 'RON', dueDate: '2026-11-21', daysPassed: 3, ...partial });

export const obligation = (partial: Partial<PaymentObligation> = {}): PaymentObligation =>
  paymentObligationSchema.parse({
    obligationId: 'OB1',
    settlementRunId: 'SR1',
    clientCode: 'RO-HIDRO',
    clientName: 'Hidroelectrica SA',
    marketId: 'GAS-FWD',
    sessionDate: '2026-11-20',
    kind: 'variation_margin',
    transactionId: null,
    direction: 'pay',
    amount: 1_000_00,
    currency: 'RON',
    dueDate: '2026-11-21',
    status: 'paid',
    settledAt: '2026-11-21T09:30:00.000Z',
    settledBy: 'admin',
    ...partial,
  });

export const dailyPrice = (partial: Partial<DailySettlementPrice> = {}): DailySettlementPrice =>
  dailySettlementPriceSchema.parse({
    dailySettlementPriceId: 'DSP1',
    assetId: 'GFWD-DEC',
    assetName: 'GFWD-DEC26',
    marketId: 'GAS-FWD',
    sessionDate: '2026-11-23',
    priceDecimals: 2,
    priceFromTransactions: 152_40,
    priceFromOrders: null,
    value: 152_40,
    previousValue: 150_00,
    variationBps: 160,
    price: 152_40,
    refPrice: 152_40,
    source: 'transactions',
    overrideReason: null,
    overriddenBy: null,
    computedAt: '2026-11-23T16:05:00.000Z',
    ...partial,
  });

export const finalPrice = (partial: Partial<FinalSettlementPrice> = {}): FinalSettlementPrice =>
  finalSettlementPriceSchema.parse({
    finalSettlementPriceId: 'FSP1',
    assetId: 'GFWD-OCT',
    assetName: 'GFWD-OCT26',
    marketId: 'GAS-FWD',
    sessionDate: '2026-10-30',
    priceDecimals: 2,
    finalSettlementPrice: 141_10,
    dailySettlementPrice: 141_10,
    consultationPrice: null,
    priceFromLiquidation: null,
    computedAt: '2026-10-30T16:05:00.000Z',
    ...partial,
  });

export const report = (partial: Partial<TransactionReport> = {}): TransactionReport =>
  transactionReportSchema.parse({ reportId: 'TR1', clientCode: 'RO-HIDRO', client: 'Hidroelectrica SA', report: 'Raport tranzacții 2026-11-23', sessionDate: '2026-11-23', createdAt: '2026-11-23T16:10:00.000Z', ...partial });

export const note = (partial: Partial<DailySettlementNote> = {}): DailySettlementNote =>
  dailySettlementNoteSchema.parse({
    noteId: 'N1',
    settlementRunId: 'SR1',
    clientCode: 'RO-HIDRO',
    clientName: 'Hidroelectrica SA',
    marketId: 'GAS-FWD',
    sessionDate: '2026-11-23',
    currency: 'RON',
    lines: [],
    variationMargin: -2_400_00,
    deliveryValue: 0,
    fees: 36_00,
    bankCommissions: 0,
    toPay: 2_436_00,
    toReceive: 0,
    createdAt: '2026-11-23T16:10:00.000Z',
    ...partial,
  });

export const summary = (partial: Partial<MonthlySettlementSummary> = {}): MonthlySettlementSummary =>
  monthlySettlementSummarySchema.parse({
    clientCode: 'RO-HIDRO',
    clientName: 'Hidroelectrica SA',
    month: '2026-11',
    currency: 'RON',
    notes: 15,
    variationMargin: -1_200_00,
    deliveryValue: 0,
    fees: 410_00,
    bankCommissions: 25_00,
    toPay: 3_100_00,
    toReceive: 1_465_00,
    paid: 2_000_00,
    cashed: 1_465_00,
    unpaid: 1_100_00,
    ...partial,
  });

export const nomination = (partial: Partial<Nomination> = {}): Nomination =>
  nominationSchema.parse({
    nominationId: 'NOM1',
    transactionId: 'T-200',
    clientCode: 'RO-HIDRO',
    assetId: 'GSPOT-DA',
    assetName: 'GSPOT-DA',
    way: 'bid',
    deliveryDay: '2099-01-02',
    quantityDecimals: 3,
    unit: 'MWh',
    contractedQty: 240_000,
    nominatedQty: 240_000,
    deadline: '2099-01-01T12:00:00.000Z',
    locked: false,
    updatedAt: '2098-12-31T10:00:00.000Z',
    updatedBy: null,
    ...partial,
  });

type Answer = { status?: number; body: unknown } | ((init: RequestInit | undefined) => { status?: number; body: unknown });

/** A fetch that answers each path (without the query) from `routes`; 404 for the rest. */
export function stubApi(routes: Record<string, Answer>) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = url.replace('/session/api', '').split('?')[0]!;
    const route = routes[`${init?.method ?? 'GET'} ${path}`] ?? routes[path];
    const answer = typeof route === 'function' ? route(init) : route;
    if (!answer) return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', params: {} } }), { status: 404, headers: { 'Content-Type': 'application/json' } });
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export function list<T>(items: T[]) {
  return { body: { amountDecimals: 2, items, at: AT } };
}

export function signIn() {
  startSession('tok', new Date(Date.now() + 1_800_000).toISOString());
}

export function signOut() {
  endSession();
}

export function renderIn(locale: 'en' | 'ro', node: ReactNode) {
  return render(<WithIntl locale={locale}>{node}</WithIntl>);
}

/** The body rows of the table named `name`, each as its cells' texts. */
export function tableRows(name: string): string[][] {
  const table = screen.getByRole('table', { name });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).queryAllByRole('cell').map((cell) => (cell.textContent ?? '').replace(/[\u00a0\u202f]/g, ' ')));
}

/** Clicks the sort button of a column header. */
export function sortBy(tableName: string, header: string) {
  const table = screen.getByRole('table', { name: tableName });
  fireEvent.click(within(table).getByRole('button', { name: header }));
}

/** Sets the From date of the date range filter. */
export function filterFrom(label: string, date: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value: date } });
}

/** Clicks 'Export CSV' and returns the file's name and text (as Excel would read the bytes). */
export async function exportCsv(buttonName = 'Export CSV'): Promise<{ fileName: string; text: string; bytes: Uint8Array }> {
  let blob: Blob | null = null;
  let fileName = '';
  // jsdom has no object URLs: the saved Blob is caught here.
  URL.createObjectURL = (value: Blob | MediaSource) => {
    blob = value as Blob;
    return 'blob:csv';
  };
  URL.revokeObjectURL = () => undefined;
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    fileName = this.download;
  });
  fireEvent.click(screen.getByRole('button', { name: buttonName }));
  click.mockRestore();
  if (!blob) throw new Error('no file saved');
  const bytes = new Uint8Array(await (blob as Blob).arrayBuffer());
  return { fileName, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), bytes };
}
