/**
 * Execution types: normal rests its remainder; IOC trades what it can at once (refused when nothing
 * can trade); FOK trades all at once or is refused. A resting order is always normal. When immediate
 * orders are allowed is the session phase's rule (placeImmediate).
 */
import { apiError } from '../../../protocol/error-codes.ts';
import { executionTypes, type ExecutionType } from '../../../protocol/enums.ts';
import { refuse, type Refusal } from '../refusal.ts';
import type { SideIndex } from '../sides.ts';
import type { AssetState } from '../state.ts';

const executionTypeSet: ReadonlySet<string> = new Set(executionTypes);

/** An execution type other than normal that is not IOC or FOK. */
export function executionTypeRefusal(executionType: unknown): Refusal | null {
  return executionTypeSet.has(executionType as string) ? null : refuse(apiError('REQUEST_INVALID', { field: 'executionType', issue: 'invalid' }));
}

/** Modify: a resting order stays normal. */
export function restingExecutionRefusal(executionType: ExecutionType): Refusal | null {
  return executionType === 'normal' ? null : refuse(apiError('REQUEST_INVALID', { field: 'executionType', issue: 'restingOrderIsNormal' }));
}

/** FOK: the opposite quantity at acceptable prices covers `qty`; IOC: something at an acceptable price. Nothing has changed yet. */
export function immediateFillRefusal(a: AssetState, side: SideIndex, price: number, qty: number, executionType: ExecutionType): Refusal | null {
  if (executionType === 'FOK') {
    if (a.book.executableQty(side, price, qty) < qty) return refuse(apiError('ORDER_FOK_NOT_FILLED'));
  } else if (executionType === 'IOC') {
    if (!a.book.crosses(side, price)) return refuse(apiError('ORDER_IOC_NOT_FILLED'));
  }
  return null;
}

/** The same on a bilateral asset, where only the whitelist partners' quantity (`executable`, counted up to `qty`) can fill. */
export function partnerFillRefusal(executable: number, qty: number, executionType: ExecutionType): Refusal | null {
  if (executionType === 'FOK' && executable < qty) return refuse(apiError('ORDER_FOK_NOT_FILLED'));
  if (executionType === 'IOC' && executable === 0) return refuse(apiError('ORDER_IOC_NOT_FILLED'));
  return null;
}
