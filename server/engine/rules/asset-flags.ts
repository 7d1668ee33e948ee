/**
 * Asset configuration flags: trading deactivated, the modify restrictions (no price change, price
 * must improve, no quantity decrease, no attribute change), the cancel restriction and the balancing
 * group's (only improve, a capped decrease, no cancel).
 */
import { apiError } from '../../../protocol/error-codes.ts';
import { formatPrice, formatQty, refuse, type Refusal } from '../refusal.ts';
import { NONE } from '../sides.ts';
import type { AssetState, OrderState } from '../state.ts';

/** Add, modify, activate: the asset's trading is not deactivated (cancel and suspend stay possible). */
export function tradingActiveRefusal(a: AssetState): Refusal | null {
  return a.tradingActive ? null : refuse(apiError('ORDER_TRADING_DEACTIVATED', { assetId: a.assetId }));
}

/**
 * The asset's modify restrictions and the balancing group's, in this order, for a modify of `o` to
 * `newPrice` / `newRemaining`; `worse`: the new price is worse for the order's side (lower bid, higher
 * ask); `attributesChanged`: validity type, validity or execution type change.
 */
export function modifyFlagsRefusal(a: AssetState, o: OrderState, newRemaining: number, priceChanged: boolean, worse: boolean, attributesChanged: boolean): Refusal | null {
  if (a.noPriceChange && priceChanged) return refuse(apiError('ORDER_PRICE_NOT_CHANGEABLE'));
  if (a.priceMustImprove && worse) return refuse(apiError('ORDER_PRICE_CANNOT_WORSEN', { previous: formatPrice(a, o.price) }));
  if (a.noQuantityDecrease && newRemaining < o.remaining) return refuse(apiError('ORDER_QUANTITY_CANNOT_DECREASE', { previous: formatQty(a, o.remaining) }));
  if (a.noAttributeChange && attributesChanged) return refuse(apiError('ORDER_ATTRIBUTES_NOT_CHANGEABLE'));
  if (a.bgMaxDecreasePercent !== NONE && o.balancingGroupId !== null) {
    if (worse) return refuse(apiError('ORDER_BALANCING_GROUP_ONLY_IMPROVE'));
    if (newRemaining < o.remaining) {
      const cap = Math.floor((o.originalQty * a.bgMaxDecreasePercent) / 100);
      const alreadyDecreased = Math.max(0, o.originalQty - o.tradedQty - o.remaining);
      const decrease = o.originalQty - o.tradedQty - newRemaining;
      if (decrease > cap) return refuse(apiError('ORDER_BALANCING_GROUP_DECREASE_CAP', { maxDecrease: formatQty(a, Math.max(0, cap - alreadyDecreased)) }));
    }
  }
  return null;
}

/** Cancel and suspend: the asset's no-cancel flag, then the balancing group's. */
export function cancelFlagsRefusal(a: AssetState, o: OrderState): Refusal | null {
  if (a.noCancel) return refuse(apiError('ORDER_NOT_CANCELLABLE'));
  if (a.bgMaxDecreasePercent !== NONE && o.balancingGroupId !== null) return refuse(apiError('ORDER_BALANCING_GROUP_NO_CANCEL'));
  return null;
}
