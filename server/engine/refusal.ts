/**
 * How the engine refuses: a result with the error code and its display-ready parameters, no events.
 * Built only on the error path. Rules format prices and quantities with the asset's decimals.
 */
import { formatDecimal } from '../../protocol/decimal.ts';
import type { ApiError, ErrorCode } from '../../protocol/error-codes.ts';
import type { AssetState } from './state.ts';
import type { EngineParams, EngineResult } from './types.ts';

/** A refused command's result. */
export type Refusal = EngineResult;

export function refuse<C extends ErrorCode>(error: ApiError<C>): Refusal {
  return { result: error.code, params: error.params as EngineParams, events: [] };
}

/** A time as an ISO string (refusal parameters). */
export function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

export function formatPrice(a: AssetState, price: number): string {
  return formatDecimal(price, a.priceDecimals);
}

export function formatQty(a: AssetState, qty: number): string {
  return formatDecimal(qty, a.quantityDecimals);
}
