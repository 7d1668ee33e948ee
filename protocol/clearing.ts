import { z } from 'zod';
import { AMOUNT_DECIMALS } from './margin.ts';

/**
 * The clearing house's views and commands (issue 14): collateral (warranties), daily and final
 * settlement prices, settlement runs, payment obligations, bank commissions, clearing batches,
 * settlement notes, transaction reports, nominations, the financial report (portfolio margins) and
 * financial info. The contract the server (server/clearing/, server/http/clearing.routes.ts) and the
 * account tabs (src/pages/my-account/) share.
 *
 * Units: prices and quantities are integers in the asset's minor units (`priceDecimals`,
 * `quantityDecimals` of the asset, carried on each row that has one); money amounts are integers in
 * the currency's minor units with CLEARING_AMOUNT_DECIMALS places. Dates are Bucharest calendar dates
 * (YYYY-MM-DD); instants are ISO-8601 UTC strings, shown in EET by the client.
 */

export const CLEARING_AMOUNT_DECIMALS = AMOUNT_DECIMALS;
/** A warranty's holder is notified this many days before its validity date. */
export const WARRANTY_NOTICE_DAYS = 5;

const amount = z.number().int();
const minor = z.number().int();
const isoDate = z.iso.date();
const isoTime = z.string();
const code = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/);
const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** Query of every clearing list: a client (an agency or broker sees only its own clients), a date range, an asset. */
export const clearingListQuerySchema = z.strictObject({
  clientCode: code.optional(),
  marketId: id.optional(),
  assetId: id.optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type ClearingListQuery = z.infer<typeof clearingListQuerySchema>;

// ---------------------------------------------------------------------------------------------------
// Collateral
// ---------------------------------------------------------------------------------------------------

export const warrantyKinds = ['bank_guarantee', 'cash_deposit', 'insurance_policy', 'other'] as const;
export type WarrantyKind = (typeof warrantyKinds)[number];
/** active: counts today; pending: deposit date still ahead; expired: past its validity date; released: given back by the administrator. */
export const warrantyStatuses = ['pending', 'active', 'expired', 'released'] as const;
export type WarrantyStatus = (typeof warrantyStatuses)[number];

/** SPEC §3 Warranty. It counts in the clearing limit on days d with depositDate <= d < validityDate. */
export const warrantySchema = z.strictObject({
  clientWarrantyId: id,
  clientCode: code,
  clientName: z.string(),
  warrantyNumber: z.string(),
  /** What the instrument is, as written on it ("Scrisoare de garanție bancară BRD nr. 118"). */
  warrantyName: z.string(),
  kind: z.enum(warrantyKinds),
  depositDate: isoDate,
  validityDate: isoDate,
  value: amount.nonnegative(),
  currency: z.string(),
  status: z.enum(warrantyStatuses),
  releasedAt: isoTime.nullable(),
});
export type Warranty = z.infer<typeof warrantySchema>;

/** POST /admin/clearing/warranties (and PUT /admin/clearing/warranties/:clientWarrantyId, same body). */
export const warrantyInputSchema = z.strictObject({
  clientCode: code,
  warrantyNumber: z.string().trim().min(1).max(64),
  warrantyName: z.string().trim().min(1).max(200),
  kind: z.enum(warrantyKinds),
  depositDate: isoDate,
  validityDate: isoDate,
  value: amount.positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
});
export type WarrantyInput = z.infer<typeof warrantyInputSchema>;

// ---------------------------------------------------------------------------------------------------
// Settlement prices
// ---------------------------------------------------------------------------------------------------

/** Where a daily settlement price came from, in the order they are tried; override: set by the administrator. */
export const settlementPriceSources = ['transactions', 'orders', 'previous', 'override'] as const;
export type SettlementPriceSource = (typeof settlementPriceSources)[number];

/** SPEC §3 Daily settlement price, one per asset and session date. */
export const dailySettlementPriceSchema = z.strictObject({
  dailySettlementPriceId: id,
  assetId: id,
  assetName: z.string(),
  marketId: id,
  sessionDate: isoDate,
  priceDecimals: z.number().int().nonnegative(),
  /** Volume-weighted average of the closing window's trades; null without trades in it. */
  priceFromTransactions: minor.nullable(),
  /** Mid of best bid and best ask at the close; null unless both exist. */
  priceFromOrders: minor.nullable(),
  /** The computed price (transactions, else orders, else previous); null only for an asset that never had one. */
  value: minor.nullable(),
  /** The price in force the session before. */
  previousValue: minor.nullable(),
  /** (price − previousValue) / previousValue in basis points, rounded half away from zero; null without a previous value. */
  variationBps: z.number().int().nullable(),
  /** The price in force: the override when there is one, else value. */
  price: minor.nullable(),
  /** The reference price of the next session (the price in force, kept as the engine's settlement price). */
  refPrice: minor.nullable(),
  source: z.enum(settlementPriceSources),
  overrideReason: z.string().nullable(),
  overriddenBy: z.string().nullable(),
  computedAt: isoTime,
});
export type DailySettlementPrice = z.infer<typeof dailySettlementPriceSchema>;

/** POST /admin/clearing/daily-settlement-prices/:dailySettlementPriceId/override */
export const settlementPriceOverrideSchema = z.strictObject({
  price: minor,
  reason: z.string().trim().min(3).max(500),
});
export type SettlementPriceOverride = z.infer<typeof settlementPriceOverrideSchema>;

/** SPEC §3 Final settlement price, one per contract (asset) at its expiry. */
export const finalSettlementPriceSchema = z.strictObject({
  finalSettlementPriceId: id,
  assetId: id,
  assetName: z.string(),
  marketId: id,
  /** The expiry session's date. */
  sessionDate: isoDate,
  priceDecimals: z.number().int().nonnegative(),
  finalSettlementPrice: minor,
  dailySettlementPrice: minor.nullable(),
  /** The price the consultation of the market makers gave, where one was held. */
  consultationPrice: minor.nullable(),
  /** The price of the liquidation auction, where one was held. */
  priceFromLiquidation: minor.nullable(),
  computedAt: isoTime,
});
export type FinalSettlementPrice = z.infer<typeof finalSettlementPriceSchema>;

// ---------------------------------------------------------------------------------------------------
// Settlement runs, fees and payments
// ---------------------------------------------------------------------------------------------------

export const settlementRunStatuses = ['running', 'completed'] as const;
/** POST /admin/clearing/settlement-runs */
export const settlementRunRequestSchema = z.strictObject({ marketId: id, sessionDate: isoDate });
export type SettlementRunRequest = z.infer<typeof settlementRunRequestSchema>;

export const settlementRunSchema = z.strictObject({
  settlementRunId: id,
  marketId: id,
  sessionDate: isoDate,
  status: z.enum(settlementRunStatuses),
  startedAt: isoTime,
  completedAt: isoTime.nullable(),
  clients: z.number().int().nonnegative(),
  /** A hash of what the run wrote: a second run of the same market and date gives the same one. */
  resultHash: z.string().nullable(),
});
export type SettlementRun = z.infer<typeof settlementRunSchema>;

/** SPEC §3 Bank commission: what the bank charged for a payment, passed on to the client. */
export const bankCommissionSchema = z.strictObject({
  id,
  clientId: code,
  name: z.string(),
  fiscalCode: z.string(),
  date: isoDate,
  info: z.string(),
  commission: amount.nonnegative(),
  currency: z.string(),
});
export type BankCommission = z.infer<typeof bankCommissionSchema>;

/** pay: the client owes the clearing house; receive: the clearing house owes the client. */
export const obligationDirections = ['pay', 'receive'] as const;
export type ObligationDirection = (typeof obligationDirections)[number];
/** unpaid until the administrator records the payment (pay → paid) or the collection by the client (receive → cashed). */
export const obligationStatuses = ['unpaid', 'paid', 'cashed'] as const;
export type ObligationStatus = (typeof obligationStatuses)[number];
/** What an obligation settles. */
export const obligationKinds = ['transaction', 'variation_margin', 'fees'] as const;

export const paymentObligationSchema = z.strictObject({
  obligationId: id,
  settlementRunId: id,
  clientCode: code,
  clientName: z.string(),
  marketId: id,
  sessionDate: isoDate,
  kind: z.enum(obligationKinds),
  /** The transaction settled, for kind 'transaction'. */
  transactionId: z.string().nullable(),
  direction: z.enum(obligationDirections),
  amount: amount.nonnegative(),
  currency: z.string(),
  dueDate: isoDate,
  status: z.enum(obligationStatuses),
  /** When the payment or collection was recorded. */
  settledAt: isoTime.nullable(),
  settledBy: z.string().nullable(),
});
export type PaymentObligation = z.infer<typeof paymentObligationSchema>;

/** POST /admin/clearing/obligations/:obligationId/settle: a pay obligation becomes paid, a receive one cashed. */
export const obligationSettleSchema = z.strictObject({
  /** The bank reference of the payment. */
  reference: z.string().trim().min(1).max(100),
});

/** GET /clearing/obligations: the list query, narrowed by status too. */
export const obligationListQuerySchema = clearingListQuerySchema.extend({ status: z.enum(obligationStatuses).optional() });

/** SPEC §3 Unpaid transaction: an unpaid pay obligation, aged. */
export const unpaidTransactionSchema = z.strictObject({
  obligationId: id,
  transactionId: z.string().nullable(),
  clientCode: code,
  client: z.string(),
  amount: amount.nonnegative(),
  currency: z.string(),
  dueDate: isoDate,
  /** Whole days from the due date to today (Bucharest); 0 on the due date. */
  daysPassed: z.number().int().nonnegative(),
});
export type UnpaidTransaction = z.infer<typeof unpaidTransactionSchema>;

/** SPEC §3 Batch transaction: a transaction as reported to clearing, in pieces. */
export const batchTransactionSchema = z.strictObject({
  batchId: id,
  transactionId: z.string(),
  reportedAt: isoTime,
  singlePieceAmount: amount,
  assetId: id,
  assetName: z.string(),
  /** Quantity per piece, in the asset's quantity minor units. */
  pieces: minor,
  piecesCnt: z.number().int().nonnegative(),
  quantityDecimals: z.number().int().nonnegative(),
});
export type BatchTransaction = z.infer<typeof batchTransactionSchema>;

// ---------------------------------------------------------------------------------------------------
// Notes and reports
// ---------------------------------------------------------------------------------------------------

export const settlementNoteLineSchema = z.strictObject({
  assetId: id,
  assetName: z.string(),
  priceDecimals: z.number().int().nonnegative(),
  quantityDecimals: z.number().int().nonnegative(),
  /** Position carried into the day, bought and sold that day, carried out (quantity minor units; + long, − short). */
  openingQty: minor,
  boughtQty: minor.nonnegative(),
  soldQty: minor.nonnegative(),
  closingQty: minor,
  previousSettlementPrice: minor.nullable(),
  settlementPrice: minor.nullable(),
  /** + the client gains, − the client owes. */
  variationMargin: amount,
  /** Value of the day's physical deliveries settled in full (spot): + to receive, − to pay. */
  deliveryValue: amount,
  fees: amount.nonnegative(),
});

/** A daily settlement note: one per client, market and session date, written by the settlement run. */
export const dailySettlementNoteSchema = z.strictObject({
  noteId: id,
  settlementRunId: id,
  clientCode: code,
  clientName: z.string(),
  marketId: id,
  sessionDate: isoDate,
  currency: z.string(),
  lines: z.array(settlementNoteLineSchema),
  variationMargin: amount,
  deliveryValue: amount,
  fees: amount.nonnegative(),
  bankCommissions: amount.nonnegative(),
  toPay: amount.nonnegative(),
  toReceive: amount.nonnegative(),
  createdAt: isoTime,
});
export type DailySettlementNote = z.infer<typeof dailySettlementNoteSchema>;

/** A monthly settlement summary per client: the month's notes added up. */
export const monthlySettlementSummarySchema = z.strictObject({
  clientCode: code,
  clientName: z.string(),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/),
  currency: z.string(),
  notes: z.number().int().nonnegative(),
  variationMargin: amount,
  deliveryValue: amount,
  fees: amount.nonnegative(),
  bankCommissions: amount.nonnegative(),
  toPay: amount.nonnegative(),
  toReceive: amount.nonnegative(),
  paid: amount.nonnegative(),
  cashed: amount.nonnegative(),
  unpaid: amount.nonnegative(),
});
export type MonthlySettlementSummary = z.infer<typeof monthlySettlementSummarySchema>;

/** SPEC §3 Transaction report: a PDF report of a client's transactions for a session date. */
export const transactionReportSchema = z.strictObject({
  reportId: id,
  clientCode: code,
  client: z.string(),
  /** Its title ("Raport tranzacții 2026-11-24"), in the language it was made in. */
  report: z.string(),
  sessionDate: isoDate,
  createdAt: isoTime,
});
export type TransactionReport = z.infer<typeof transactionReportSchema>;

// ---------------------------------------------------------------------------------------------------
// Nominations
// ---------------------------------------------------------------------------------------------------

/** The quantity per delivery day a client nominates to the transmission operator for a physical transaction. */
export const nominationSchema = z.strictObject({
  nominationId: id,
  transactionId: z.string(),
  clientCode: code,
  assetId: id,
  assetName: z.string(),
  way: z.enum(['bid', 'ask']),
  deliveryDay: isoDate,
  quantityDecimals: z.number().int().nonnegative(),
  unit: z.string(),
  /** The transaction's quantity for that day: what the nomination starts from. */
  contractedQty: minor.nonnegative(),
  nominatedQty: minor.nonnegative(),
  /** Editable until then; locked after it. */
  deadline: isoTime,
  locked: z.boolean(),
  updatedAt: isoTime,
  updatedBy: z.string().nullable(),
});
export type Nomination = z.infer<typeof nominationSchema>;

/** PUT /clearing/nominations/:nominationId */
export const nominationUpdateSchema = z.strictObject({ nominatedQty: minor.nonnegative() });

// ---------------------------------------------------------------------------------------------------
// Financial report (portfolio margins) and financial info
// ---------------------------------------------------------------------------------------------------

export const marginPartsSchema = z.strictObject({
  /** From resting orders. */
  orderPart: amount,
  /** From open positions (transactions) until delivery. */
  transactionPart: amount,
  /** Amounts unlocked by the clearing house (offsetting positions, payments received). */
  unlocked: amount,
  /** orderPart + transactionPart − unlocked, never below 0. */
  total: amount,
});
export type MarginParts = z.infer<typeof marginPartsSchema>;

export const marginCallFiguresSchema = z.strictObject({
  /** initial + variation (losses) + delivery margin, plus the unpaid amounts in the "with unpaid" view. */
  currentMarginRequirement: amount,
  /** clearingLimit − currentMarginRequirement when positive: what is left to trade on. */
  creditLimit: amount.nonnegative(),
  /** currentMarginRequirement − clearingLimit when positive: the amount to deposit. */
  marginCall: amount.nonnegative(),
});

/** SPEC §3 Financial report (portfolio margins), per client. */
export const financialReportSchema = z.strictObject({
  clientCode: code,
  clientName: z.string(),
  currency: z.string(),
  /** The warranties that count today. */
  clearingLimit: amount.nonnegative(),
  tradingLimit: amount.nullable(),
  initialMargin: marginPartsSchema,
  variationMargin: marginPartsSchema,
  deliveryMargin: marginPartsSchema,
  /** Value of open orders and open positions. */
  totalExposure: amount,
  unpaidAmount: amount.nonnegative(),
  withUnpaid: marginCallFiguresSchema,
  withoutUnpaid: marginCallFiguresSchema,
  /** What the engine's funds check uses now (ORDER_INSUFFICIENT_FUNDS). */
  engineFunds: amount.nullable(),
  at: isoTime,
});
export type FinancialReport = z.infer<typeof financialReportSchema>;

/** SPEC "financial imbalance" and "financial info": the restrictions clearing places on a client, per asset ('*' = every asset). */
export const financialInfoSchema = z.strictObject({
  clientCode: code,
  clientName: z.string(),
  imbalance: z.array(z.strictObject({ assetId: z.string(), way: z.enum(['bid', 'ask']), quantity: minor.nonnegative(), quantityDecimals: z.number().int().nonnegative() })),
  tradeableQuantity: z.array(z.strictObject({ assetId: z.string(), bid: minor.nullable(), ask: minor.nullable(), quantityDecimals: z.number().int().nonnegative() })),
  at: isoTime,
});
export type FinancialInfo = z.infer<typeof financialInfoSchema>;

/** PUT /admin/clearing/financial-info/:clientCode: replaces the client's restrictions (quantities in the asset's minor units). */
export const financialRestrictionsInputSchema = z.strictObject({
  imbalance: z.array(z.strictObject({ assetId: z.string().regex(/^(\*|[A-Za-z0-9_-]{1,64})$/), way: z.enum(['bid', 'ask']), quantity: minor.nonnegative() })).max(200),
  tradeableQuantity: z
    .array(z.strictObject({ assetId: z.string().regex(/^(\*|[A-Za-z0-9_-]{1,64})$/), bid: minor.nonnegative().nullable(), ask: minor.nonnegative().nullable() }))
    .max(200),
});
export type FinancialRestrictionsInput = z.infer<typeof financialRestrictionsInputSchema>;

// ---------------------------------------------------------------------------------------------------
// Lists and live messages
// ---------------------------------------------------------------------------------------------------

/** Every clearing list answers `{ amountDecimals, items, at }`. */
export function clearingListSchema<T extends z.ZodType>(item: T) {
  return z.strictObject({ amountDecimals: z.number().int().nonnegative(), items: z.array(item), at: isoTime });
}

/** On `/user/queue/clearing`: something of the user's clients changed; the tab named refetches. */
export const clearingChangeSchema = z.strictObject({
  kind: z.enum(['settlement', 'payment', 'margin_call', 'warranty', 'settlement_price', 'nomination']),
  clientCode: code.nullable(),
  marketId: id.nullable(),
  sessionDate: isoDate.nullable(),
  at: isoTime,
});
export type ClearingChange = z.infer<typeof clearingChangeSchema>;

/** REST routes under /session/api (GET lists take clearingListQuerySchema; admin routes need the administrator). */
export const clearingRoutes = {
  warranties: '/clearing/warranties',
  dailySettlementPrices: '/clearing/daily-settlement-prices',
  finalSettlementPrices: '/clearing/final-settlement-prices',
  settlementRuns: '/clearing/settlement-runs',
  obligations: '/clearing/obligations',
  unpaidTransactions: '/clearing/unpaid-transactions',
  bankCommissions: '/clearing/bank-commissions',
  batches: '/clearing/batches',
  dailyNotes: '/clearing/daily-notes',
  /** GET …/:noteId/pdf?lang=ro|en */
  dailyNotePdf: (noteId: string) => `/clearing/daily-notes/${noteId}/pdf`,
  monthlySummaries: '/clearing/monthly-summaries',
  /** GET …/:clientCode/:month/pdf?lang=ro|en */
  monthlySummaryPdf: (clientCode: string, month: string) => `/clearing/monthly-summaries/${clientCode}/${month}/pdf`,
  transactionReports: '/clearing/transaction-reports',
  transactionReportPdf: (reportId: string) => `/clearing/transaction-reports/${reportId}/pdf`,
  nominations: '/clearing/nominations',
  financialReport: '/clearing/financial-report',
  financialInfo: '/clearing/financial-info',
  admin: {
    warranties: '/admin/clearing/warranties',
    releaseWarranty: (id: string) => `/admin/clearing/warranties/${id}/release`,
    financialInfo: (clientCode: string) => `/admin/clearing/financial-info/${clientCode}`,
    settlementRuns: '/admin/clearing/settlement-runs',
    overrideDailySettlementPrice: (id: string) => `/admin/clearing/daily-settlement-prices/${id}/override`,
    settleObligation: (id: string) => `/admin/clearing/obligations/${id}/settle`,
  },
} as const;
