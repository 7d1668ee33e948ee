/**
 * cancelAll: the kill switch. One command, one journal record: every live order of the given clients
 * (optionally of one market or asset) is cancelled at the same instant, or left with the refusal a
 * cancelOrder of it would get (phase, delta T, agency, the asset's cancel restrictions). The command
 * itself is refused only when malformed.
 */
import { apiError } from '../../protocol/error-codes.ts';
import type { EngineState } from './engine-state.ts';
import { liveOrder, removalRefusal } from './orders.ts';
import { refuse, type Refusal } from './refusal.ts';
import { finish } from './resting.ts';
import type { OrderState } from './state.ts';
import type { CancelAllCommand, CancelAllRefusal } from './types.ts';

const isId = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value !== '');

export function cancelAll(s: EngineState, c: CancelAllCommand): Refusal | null {
  if (!Array.isArray(c.clientCodes) || !c.clientCodes.every((code) => typeof code === 'string')) {
    return refuse(apiError('REQUEST_INVALID', { field: 'clientCodes', issue: 'notAList' }));
  }
  if (!isId(c.marketId)) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'invalid' }));
  if (!isId(c.assetId)) return refuse(apiError('REQUEST_INVALID', { field: 'assetId', issue: 'invalid' }));
  const clients = new Set(c.clientCodes);
  // Collected first (cancelling removes from the index), in id order so a replay cancels alike.
  const targets: OrderState[] = [];
  for (const o of s.orders.values()) {
    if (!clients.has(o.clientCode)) continue;
    const a = o.cas.asset;
    if (c.assetId != null && a.assetId !== c.assetId) continue;
    if (c.marketId != null && a.marketId !== c.marketId) continue;
    targets.push(o);
  }
  targets.sort((x, y) => x.id - y.id);
  const cancelled: number[] = [];
  const refused: CancelAllRefusal[] = [];
  for (const o of targets) {
    // Past its expiry but not yet expired by a tick: already gone for the trader, as for cancelOrder.
    if (liveOrder(s, o.id, c.at) === undefined) continue;
    const a = o.cas.asset;
    const r = removalRefusal(a, o, 'cancel', c.actor?.agencyId);
    if (r !== null) {
      refused.push({ orderId: o.id, code: r.result as CancelAllRefusal['code'], params: r.params ?? {} });
      continue;
    }
    cancelled.push(o.id);
    finish(s, a, o, 'cancelled', c.at, 'user');
  }
  s.resultCancelAll = { cancelled, refused };
  return null;
}
