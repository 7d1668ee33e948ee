/**
 * Quantities: a positive integer (qty, or noCnt on contract assets), on the quantity step, within
 * [minQuantity, maxQuantity]. Step and bound refusals carry the rule whole (step or bound with its
 * unit): the trader reads what to enter, not only that it was wrong (issue 11).
 */
import { apiError } from '../../../protocol/error-codes.ts';
import { formatQty, refuse, type Refusal } from '../refusal.ts';
import type { AssetState } from '../state.ts';

export function isPositiveInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
}

/** A new order's quantity field (qty, or noCnt on contract assets) that is not a positive integer: missing or invalid. */
export function quantityInputRefusal(a: AssetState, value: unknown): Refusal {
  if (value === undefined || value === null) return a.inputNoCnt ? refuse(apiError('ORDER_CONTRACT_COUNT_MISSING')) : refuse(apiError('ORDER_QUANTITY_MISSING'));
  return quantityInvalid(a);
}

/** Not a positive integer: the refusal states the step and the bounds. */
export function quantityInvalid(a: AssetState): Refusal {
  return refuse(apiError('ORDER_QUANTITY_INVALID', { step: formatQty(a, a.quantityStep), min: formatQty(a, a.minQuantity), max: formatQty(a, a.maxQuantity), unit: a.config.unit ?? '' }));
}

/**
 * Both qty and noCnt sent: they must name one quantity. The field the asset does not take is derived
 * (noCnt = ceil(qty / contractQty)); a disagreeing one was silently dropped before, now it is refused.
 * `qty` is the order's quantity after the input field was read.
 */
export function contractsMismatchRefusal(a: AssetState, qty: number, sentQty: unknown, sentNoCnt: unknown): Refusal | null {
  // On a noCnt asset `qty` came from noCnt: the sent qty must be exactly that. On a qty asset the sent
  // noCnt must be the contracts `qty` makes.
  const statedQty = a.inputNoCnt ? sentQty : qty;
  if (typeof statedQty !== 'number' || (a.inputNoCnt && statedQty === qty)) return null;
  const expected = a.contractQty === 1 ? statedQty : Math.ceil(statedQty / a.contractQty);
  if (!a.inputNoCnt && sentNoCnt === expected) return null;
  return refuse(apiError('ORDER_CONTRACTS_MISMATCH', { noCnt: String(sentNoCnt), expected: String(expected) }));
}

/** True when `qty` (a positive integer) passes every quantity rule; false means "ask quantityRefusal". */
export function quantityOk(a: AssetState, qty: number): boolean {
  return qty % a.quantityStep === 0 && qty >= a.minQuantity && qty <= a.maxQuantity;
}

/** The first quantity rule `qty` breaks, or null. */
export function quantityRefusal(a: AssetState, qty: number): Refusal | null {
  const unit = a.config.unit ?? '';
  if (qty % a.quantityStep !== 0) return refuse(apiError('ORDER_QUANTITY_STEP', { step: formatQty(a, a.quantityStep), unit }));
  if (qty < a.minQuantity) return refuse(apiError('ORDER_QUANTITY_BELOW_MINIMUM', { min: formatQty(a, a.minQuantity), unit }));
  if (qty > a.maxQuantity) return refuse(apiError('ORDER_QUANTITY_TOO_LARGE', { max: formatQty(a, a.maxQuantity), unit }));
  return null;
}
