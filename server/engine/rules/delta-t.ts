/**
 * Delta T: while a period runs on an asset (started by a crossing order, see session.ts), resting
 * orders are locked (no modify, cancel, suspend, activate), immediate orders are refused, and an
 * order that crosses must improve its own side's best price by the delta-T step.
 */
import { apiError } from '../../../protocol/error-codes.ts';
import type { ExecutionType } from '../../../protocol/enums.ts';
import { formatPrice, iso, refuse, type Refusal } from '../refusal.ts';
import { BID, type SideIndex } from '../sides.ts';
import type { AssetState } from '../state.ts';

/** Modify, cancel, suspend, activate: refused while delta T runs. */
export function deltaTLockRefusal(a: AssetState): Refusal | null {
  return a.deltaT === null ? null : refuse(apiError('ORDER_DELTA_T_LOCKED', { endsAt: iso(a.deltaT.endsAt) }));
}

/** A new order during delta T: no IOC / FOK; a crossing order improves its side by the step. */
export function deltaTOrderRefusal(a: AssetState, side: SideIndex, price: number, executionType: ExecutionType): Refusal | null {
  const d = a.deltaT;
  if (d === null) return null;
  if (executionType !== 'normal') return refuse(apiError('ORDER_DELTA_T_LOCKED', { endsAt: iso(d.endsAt) }));
  if (!a.book.crosses(side, price)) return null;
  const own = a.book.sides[side].best();
  if (own !== undefined) {
    const step = a.deltaTPriceStep;
    const improves = side === BID ? price >= own.price + step : price <= own.price - step;
    if (!improves) return refuse(apiError('ORDER_DELTA_T_PRICE_STEP', { step: formatPrice(a, step), currency: a.market.config.currency }));
  }
  return null;
}
