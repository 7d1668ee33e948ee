import { z } from 'zod';
import { AMOUNT_DECIMALS } from './margin.ts';

/**
 * Trading account views (GET /account/positions, GET /account/limits). Quantities and prices are
 * integers in the asset's minor units; money amounts (values, limits, funds, margins) are integers
 * in currency minor units with `amountDecimals` places (the engine's amount scale).
 */

/** Decimals of every money amount of the account views (the engine's AMOUNT_DECIMALS). */
export const ACCOUNT_AMOUNT_DECIMALS = AMOUNT_DECIMALS;
/** Exposure above this share of the trading limit is shown as a warning. */
export const LIMIT_WARNING_PERCENT = 80;

const minor = z.number().int();
const amount = z.number().int();

export const positionsQuerySchema = z.strictObject({
  marketId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
  clientCode: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/).optional(),
});
export type PositionsQuery = z.infer<typeof positionsQuerySchema>;

export const limitsQuerySchema = z.strictObject({
  clientCode: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/).optional(),
});

/** One client's position on one asset in the asset's current session. */
export const positionSchema = z.strictObject({
  clientCode: z.string(),
  assetId: z.string(),
  marketId: z.string(),
  sessionDate: z.string(),
  boughtQty: minor.nonnegative(),
  soldQty: minor.nonnegative(),
  /** boughtQty − soldQty: positive long, negative short. */
  netQty: minor,
  /** Volume-weighted average prices, rounded half up; null without trades on that side. */
  avgBuyPrice: minor.nullable(),
  avgSellPrice: minor.nullable(),
  /** Value of the buys and of the sells, each trade rounded up as the engine values it. */
  boughtValue: amount.nonnegative(),
  soldValue: amount.nonnegative(),
  tradedValue: amount.nonnegative(),
  trades: z.number().int().nonnegative(),
});
export type Position = z.infer<typeof positionSchema>;

export const positionsResponseSchema = z.strictObject({
  amountDecimals: z.number().int().nonnegative(),
  items: z.array(positionSchema),
  at: z.string(),
});
export type PositionsResponse = z.infer<typeof positionsResponseSchema>;

/** The client's general account (SPEC §3 Client). */
export const clientAccountSchema = z.strictObject({
  code: z.string(),
  name: z.string(),
  acerCode: z.string(),
  agencyId: z.string(),
  active: z.boolean(),
});
export type ClientAccount = z.infer<typeof clientAccountSchema>;

/** SPEC §3 Financial limits, as the engine's pre-trade clearing sees them now. */
export const clientLimitsSchema = z.strictObject({
  client: clientAccountSchema,
  currency: z.string(),
  /** null: no financial limit is checked. */
  tradingLimit: amount.nullable(),
  /** openOrdersValue + tradedValue: what CLEARING_FINANCIAL_LIMIT compares with the trading limit. */
  exposure: amount,
  openOrdersValue: amount,
  tradedValue: amount,
  /** Funds deposited with the clearing house against which margins are blocked; null: not checked. */
  clearingLimit: amount.nullable(),
  marginBlockedByOrders: amount,
  marginBlockedByTrades: amount,
  /** clearingLimit − both margins (may be negative); null when funds are not checked. */
  availableFunds: amount.nullable(),
  openContracts: z.number().int().nonnegative(),
  maxContracts: z.number().int().nonnegative().nullable(),
});
export type ClientLimits = z.infer<typeof clientLimitsSchema>;

export const limitsResponseSchema = z.strictObject({
  amountDecimals: z.number().int().nonnegative(),
  items: z.array(clientLimitsSchema),
  at: z.string(),
});
export type LimitsResponse = z.infer<typeof limitsResponseSchema>;

/** Exposure as a share of the trading limit in whole percent (rounded down, exact); null without a limit. */
export function limitUsagePercent(exposure: number, tradingLimit: number | null): number | null {
  if (tradingLimit === null) return null;
  if (tradingLimit <= 0) return exposure > 0 ? 100 : 0;
  return Number((BigInt(Math.max(0, exposure)) * 100n) / BigInt(tradingLimit));
}
