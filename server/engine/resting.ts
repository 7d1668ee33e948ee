/**
 * Orders into and out of the book, with their reservations and their client lists: rest, take out
 * (suspend, a re-prioritising modify), finish (cancel, expiry) and retire (back to the pool).
 */
import { release, reserve } from './clearing.ts';
import type { EngineState } from './engine-state.ts';
import { clientLink, clientUnlink, type AssetState, type OrderState } from './state.ts';
import type { CancelReason } from './types.ts';

/** Appends the order at the tail of its level and reserves its open quantity. */
export function rest(s: EngineState, a: AssetState, o: OrderState): void {
  const level = a.book.sides[o.side].append(o);
  clientLink(o);
  o.resting = true;
  reserve(s, a, o);
  s.levelEvent(a, o.side, level);
}

/** Takes a resting order out of its level and releases its reservations (it stays live). */
export function removeFromBook(s: EngineState, a: AssetState, o: OrderState): void {
  if (!o.resting) return;
  const level = a.book.sides[o.side].unlink(o);
  clientUnlink(o);
  o.resting = false;
  release(o);
  s.levelEvent(a, o.side, level);
}

/** Ends an order's life: cancelled (user, IOC rest) or expired. */
export function finish(s: EngineState, a: AssetState, o: OrderState, kind: 'cancelled' | 'expired', at: number, reason: CancelReason): void {
  removeFromBook(s, a, o);
  o.status = 'cancelled';
  o.lastModifiedAt = at;
  retire(s, a, o);
  s.orderEvent(a, o, kind, at, reason);
}

/** Drops a finished order from the live index; its object goes back to the pool. */
export function retire(s: EngineState, a: AssetState, o: OrderState): void {
  o.live = false;
  o.suspended = false;
  s.orders.delete(o.id);
  if (a.initiatorOrderId === o.id) a.initiatorOrderId = null;
  if (s.pool.length < 1_000_000) s.pool.push(o);
}
