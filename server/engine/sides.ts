/** The two sides of a book as array indexes, and the engine's "not set" marker for numeric fields. */
import type { Way } from '../../protocol/enums.ts';

export const BID = 0;
export const ASK = 1;
export type SideIndex = 0 | 1;

/** "Not set" for numeric configuration fields (a limit, a side): the hot path compares numbers only. */
export const NONE = -1;

export function sideOf(way: Way): SideIndex {
  return way === 'bid' ? BID : ASK;
}
export function wayOf(side: number): Way {
  return side === BID ? 'bid' : 'ask';
}
