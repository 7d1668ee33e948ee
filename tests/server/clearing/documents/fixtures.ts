import { dailySettlementNoteSchema, monthlySettlementSummarySchema, transactionReportSchema, type DailySettlementNote, type MonthlySettlementSummary, type TransactionReport } from '../../../../protocol/clearing.ts';
import { transactionSchema, type Transaction } from '../../../../protocol/market-data.ts';

/** Documents' input as the settlement run writes it, checked against the contract's schemas. */

type NoteLine = DailySettlementNote['lines'][number];

export function noteLine(index: number, overrides: Partial<NoteLine> = {}): NoteLine {
  return {
    assetId: `GFWD-D-${String(index).padStart(3, '0')}`,
    assetName: `Gaze zi ${index}`,
    priceDecimals: 2,
    quantityDecimals: 1,
    openingQty: 100 * index,
    boughtQty: 50,
    soldQty: 20,
    closingQty: 100 * index + 30,
    previousSettlementPrice: 12_000 + index,
    settlementPrice: 12_100 + index,
    variationMargin: -(1_000 + index),
    deliveryValue: 0,
    fees: 25,
    ...overrides,
  };
}

/** A note whose totals are its lines' sums, the client's name with ț (comma below). */
export function dailyNote(lines: NoteLine[], overrides: Partial<DailySettlementNote> = {}): DailySettlementNote {
  const sum = (pick: (line: NoteLine) => number) => lines.reduce((total, line) => total + pick(line), 0);
  const variationMargin = sum((line) => line.variationMargin);
  const deliveryValue = sum((line) => line.deliveryValue);
  const fees = sum((line) => line.fees);
  const bankCommissions = 1_500;
  const net = variationMargin + deliveryValue - fees - bankCommissions;
  return dailySettlementNoteSchema.parse({
    noteId: 'NOTE-SIM-CARP-1-2026-11-24',
    settlementRunId: 'RUN-GAS-FWD-2026-11-24',
    clientCode: 'SIM-CARP-1',
    clientName: 'Simulator Carpați Unu SRL',
    marketId: 'GAS-FWD',
    sessionDate: '2026-11-24',
    currency: 'RON',
    lines,
    variationMargin,
    deliveryValue,
    fees,
    bankCommissions,
    toPay: net < 0 ? -net : 0,
    toReceive: net > 0 ? net : 0,
    createdAt: '2026-11-24T17:05:12.000Z',
    ...overrides,
  });
}

export function monthlySummary(overrides: Partial<MonthlySettlementSummary> = {}): MonthlySettlementSummary {
  return monthlySettlementSummarySchema.parse({
    clientCode: 'RO-HIDRO',
    clientName: 'Hidro Furnizare SA',
    month: '2026-11',
    currency: 'RON',
    notes: 19,
    variationMargin: 1_234_567_89,
    deliveryValue: -45_000_00,
    fees: 1_250_75,
    bankCommissions: 300_00,
    toPay: 46_550_75,
    toReceive: 1_234_567_89,
    paid: 40_000_00,
    cashed: 1_000_000_00,
    unpaid: 6_550_75,
    ...overrides,
  });
}

export function transactionReport(overrides: Partial<TransactionReport> = {}): TransactionReport {
  return transactionReportSchema.parse({
    reportId: 'TR-RO-HIDRO-2026-11-24',
    clientCode: 'RO-HIDRO',
    client: 'Hidro Furnizare SA',
    report: 'Raport tranzacții 2026-11-24',
    sessionDate: '2026-11-24',
    createdAt: '2026-11-24T18:00:00.000Z',
    ...overrides,
  });
}

export function transaction(id: number, fields: Pick<Transaction, 'buyer' | 'seller' | 'price' | 'qty' | 'timestamp'> & Partial<Transaction>): Transaction {
  return transactionSchema.parse({
    transactionId: String(id),
    assetId: 'ESPOT-DA-H01',
    noCnt: 1,
    aggressor: 'bid',
    txDate: '2026-11-24',
    buyOrderId: `B-${id}`,
    sellOrderId: `S-${id}`,
    marginsExposureActive: true,
    externalTransactionId: null,
    gasfwTransactionId: null,
    transferTimestamp: null,
    parentTransactionId: null,
    grandParentTransactionId: null,
    splitTimestamp: null,
    ...fields,
  });
}
