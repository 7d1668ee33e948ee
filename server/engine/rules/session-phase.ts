/**
 * Session phase: what each phase allows is protocol/phase-actions.ts's table (the session-phase
 * machine of the client reads the same table); this is the engine's refusal by it.
 *
 * | command                  | action         |
 * |--------------------------|----------------|
 * | add                      | place          |
 * | add IOC / FOK            | placeImmediate |
 * | modify                   | modify         |
 * | modify changing a price  | changePrice    |
 * | cancel / suspend         | cancel / suspend |
 * | activate                 | activate       |
 * | continuous matching      | matching (matching.ts, orders.ts place()) |
 */
import { apiError } from '../../../protocol/error-codes.ts';
import { phaseAllows, phaseRefusalOf, type PhaseAction } from '../../../protocol/phase-actions.ts';
import type { SessionPhase } from '../../../protocol/enums.ts';
import { refuse, type Refusal } from '../refusal.ts';

/** True when `phase` allows `action`. */
export function phaseAllowsAction(phase: SessionPhase, action: PhaseAction): boolean {
  return phaseAllows[phase][action];
}

/** The refusal when `phase` does not allow `action` (SESSION_SUSPENDED, SESSION_CLOSING_NO_PRICE_CHANGE, SESSION_PHASE_FORBIDS), or null. */
export function phaseRefusal(phase: SessionPhase, action: PhaseAction): Refusal | null {
  if (phaseAllows[phase][action]) return null;
  const refusal = phaseRefusalOf(phase, action)!;
  switch (refusal.code) {
    case 'SESSION_SUSPENDED':
      return refuse(apiError('SESSION_SUSPENDED'));
    case 'SESSION_CLOSING_NO_PRICE_CHANGE':
      return refuse(apiError('SESSION_CLOSING_NO_PRICE_CHANGE'));
    default:
      return refuse(apiError('SESSION_PHASE_FORBIDS', refusal.params));
  }
}
