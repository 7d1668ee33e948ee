/**
 * Cross orders: a client's new price must not meet its own resting orders on the other side; with
 * the asset flag oneSidePerClient, any resting order on the other side refuses.
 * Fast path: the client has no resting order on the other side (ClientAssetState.openCount).
 */
import { apiError } from '../../../protocol/error-codes.ts';
import { refuse, type Refusal } from '../refusal.ts';
import { ASK, BID, type SideIndex } from '../sides.ts';
import type { AssetState, ClientAssetState } from '../state.ts';

/** True when the client has nothing resting on the other side; false means "ask crossRefusal". */
export function crossFree(cas: ClientAssetState, side: SideIndex): boolean {
  return cas.openCount[side === BID ? ASK : BID] === 0;
}

/** The client's own resting order on the other side that `price` would meet (named), or null. */
export function crossRefusal(a: AssetState, cas: ClientAssetState, side: SideIndex, price: number): Refusal | null {
  const other = side === BID ? ASK : BID;
  if (cas.openCount[other] === 0) return null;
  if (a.oneSidePerClient) return refuse(apiError('ORDER_CROSS_BID', { orderId: cas.heads[other]!.id }));
  for (let o = cas.heads[other]; o !== null; o = o.cNext) {
    if (side === BID ? o.price <= price : o.price >= price) return refuse(apiError('ORDER_CROSS', { orderId: o.id }));
  }
  return null;
}
