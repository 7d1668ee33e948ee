/**
 * Prices: sign, digits, step, the asset's limits, the session bounds and the regulator's maximum.
 * Fast path: the bounds fold into one range [priceLo, priceHi] on the asset (resolvePriceBounds, on
 * every asset configuration), so a valid price costs two comparisons and a modulo.
 */
import { apiError } from '../../../protocol/error-codes.ts';
import type { ExecutionType } from '../../../protocol/enums.ts';
import { formatPrice, refuse, type Refusal } from '../refusal.ts';
import type { AssetState } from '../state.ts';

/** Folds every price bound of the asset into [priceLo, priceHi]. */
export function resolvePriceBounds(a: AssetState): void {
  let lo = Math.max(1, a.minPrice);
  if (a.hasSessionMin) lo = Math.max(lo, a.sessionMinPrice);
  let hi = Math.min(a.maxPrice, a.priceDigitsLimit - 1, Number.MAX_SAFE_INTEGER);
  if (a.hasSessionMax) hi = Math.min(hi, a.sessionMaxPrice);
  if (a.hasRegulatorMax) hi = Math.min(hi, a.regulatorMaxPrice);
  a.priceLo = lo;
  a.priceHi = hi;
}

/** True when `price` passes every price rule; false means "ask priceRefusal". */
export function priceOk(a: AssetState, price: number): boolean {
  return price >= a.priceLo && price <= a.priceHi && price % a.priceStep === 0 && Number.isInteger(price);
}

/** The first price rule `price` breaks, or null. */
export function priceRefusal(a: AssetState, price: number): Refusal | null {
  if (typeof price !== 'number' || !Number.isSafeInteger(price)) {
    if (typeof price === 'number' && Number.isFinite(price) && Math.abs(price) >= a.priceDigitsLimit) return refuse(apiError('ORDER_PRICE_TOO_MANY_DIGITS', { maxDigits: 12 }));
    return refuse(apiError('REQUEST_INVALID', { field: 'price', issue: 'notAnInteger' }));
  }
  if (price < 0) return refuse(apiError('ORDER_PRICE_NEGATIVE'));
  if (price === 0) return refuse(apiError('ORDER_PRICE_ZERO'));
  if (price >= a.priceDigitsLimit) return refuse(apiError('ORDER_PRICE_TOO_MANY_DIGITS', { maxDigits: 12 }));
  const currency = a.market.config.currency;
  if (price % a.priceStep !== 0) return refuse(apiError('ORDER_PRICE_STEP', { step: formatPrice(a, a.priceStep), currency }));
  if (price < a.minPrice || price > a.maxPrice) return refuse(apiError('ORDER_PRICE_OUTSIDE_LIMITS', { min: formatPrice(a, a.minPrice), max: formatPrice(a, a.maxPrice), currency }));
  if (a.hasSessionMin && price < a.sessionMinPrice) return refuse(apiError('ORDER_SESSION_MIN_PRICE', { bound: formatPrice(a, a.sessionMinPrice), currency }));
  if (a.hasSessionMax && price > a.sessionMaxPrice) return refuse(apiError('ORDER_SESSION_MAX_PRICE', { bound: formatPrice(a, a.sessionMaxPrice), currency }));
  if (a.hasRegulatorMax && price > a.regulatorMaxPrice) return refuse(apiError('ORDER_REGULATOR_MAX_PRICE', { bound: formatPrice(a, a.regulatorMaxPrice), currency }));
  return null;
}

/** An order without a price is a market order: only IOC and FOK may be one. */
export function marketOrderRefusal(executionType: ExecutionType): Refusal | null {
  return executionType === 'normal' ? refuse(apiError('ORDER_PRICE_MISSING')) : null;
}
