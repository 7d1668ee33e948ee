/**
 * Position limits of a client on an asset: the imbalance restriction (one way only, within a
 * quantity) and the tradeable quantity per way (open + traded this session + new <= limit).
 * Fast path: ResolvedRules.limitsFree when the client has neither on the asset.
 */
import { apiError } from '../../../protocol/error-codes.ts';
import { formatQty, refuse, type Refusal } from '../refusal.ts';
import { BID, NONE, sideOf, type SideIndex } from '../sides.ts';
import type { AssetState, ClientAssetState, ClientState, ResolvedRules } from '../state.ts';
import { pickForAsset } from './rights.ts';

/** Fills imbalanceSide / imbalanceQty, tradeableBid / tradeableAsk and the fast-path limitsFree. */
export function resolvePositionLimits(target: ResolvedRules, client: ClientState, asset: AssetState): void {
  const cc = client.config;
  const imb = pickForAsset(cc.imbalance, asset.assetId);
  target.imbalanceSide = imb ? sideOf(imb.way) : NONE;
  target.imbalanceQty = imb ? imb.quantity : 0;
  const tq = pickForAsset(cc.tradeableQuantity, asset.assetId);
  target.tradeableBid = tq?.bid ?? NONE;
  target.tradeableAsk = tq?.ask ?? NONE;
  target.limitsFree = target.imbalanceSide === NONE && target.tradeableBid === NONE && target.tradeableAsk === NONE;
}

/** Imbalance and tradeable quantity, for `addQty` more open on `side`. */
export function positionLimitsRefusal(a: AssetState, cas: ClientAssetState, side: SideIndex, addQty: number): Refusal | null {
  const rules = cas.rules;
  if (rules.imbalanceSide !== NONE) {
    if (side !== rules.imbalanceSide) {
      const quantity = formatQty(a, rules.imbalanceQty);
      return rules.imbalanceSide === BID ? refuse(apiError('ORDER_IMBALANCE_BID_ONLY', { quantity })) : refuse(apiError('ORDER_IMBALANCE_ASK_ONLY', { quantity }));
    }
    if (cas.openQty[side] + addQty > rules.imbalanceQty) return refuse(apiError('ORDER_IMBALANCE_QUANTITY_LIMIT', { limit: formatQty(a, rules.imbalanceQty) }));
  }
  const limit = side === BID ? rules.tradeableBid : rules.tradeableAsk;
  if (limit !== NONE) {
    const used = cas.openQty[side] + cas.tradedQty[side] + addQty;
    if (used > limit) return refuse(apiError('ORDER_TRADEABLE_QUANTITY_INSUFFICIENT', { excess: formatQty(a, used - limit), limit: formatQty(a, limit) }));
  }
  return null;
}
