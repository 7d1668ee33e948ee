/**
 * Simple competitive procedure: one initiator on one side, partners on the other; GTC orders only;
 * the initiator has one order per session and may not change its quantity.
 */
import { apiError } from '../../../protocol/error-codes.ts';
import type { ValidityType, Way } from '../../../protocol/enums.ts';
import { refuse, type Refusal } from '../refusal.ts';
import type { SideIndex } from '../sides.ts';
import type { AssetState, OrderState } from '../state.ts';

/** Add and modify: GTC only on a simple competitive asset. */
export function scValidityRefusal(a: AssetState, validityType: ValidityType): Refusal | null {
  return a.scInitiator !== null && validityType !== 'GTC' ? refuse(apiError('ORDER_SIMPLE_COMPETITIVE_GTC_ONLY')) : null;
}

/** A new order's role: the initiator on its side with no other order this session, partners on the other side. */
export function scRoleRefusal(a: AssetState, clientCode: string, side: SideIndex, way: Way): Refusal | null {
  if (a.scInitiator === null) return null;
  if (clientCode === a.scInitiator) {
    if (side !== a.scSide) return refuse(apiError('ORDER_SIMPLE_COMPETITIVE_WRONG_SIDE', { way }));
    if (a.initiatorOrderId !== null) return refuse(apiError('ORDER_INITIATOR_EXISTS', { orderId: a.initiatorOrderId }));
    if (a.initiatorPlaced) return refuse(apiError('ORDER_INITIATOR_NO_NEW_ORDER'));
  } else if (side === a.scSide) {
    return refuse(apiError('ORDER_SIMPLE_COMPETITIVE_WRONG_SIDE', { way }));
  }
  return null;
}

/** A new order (that passed scRoleRefusal) is the initiator's. */
export function isInitiator(a: AssetState, clientCode: string): boolean {
  return a.scInitiator !== null && clientCode === a.scInitiator;
}

/** Modify: the initiator's quantity is locked. */
export function initiatorQuantityRefusal(o: OrderState, qtyChanged: boolean): Refusal | null {
  return o.initiator && qtyChanged ? refuse(apiError('ORDER_INITIATOR_QUANTITY_LOCKED')) : null;
}
