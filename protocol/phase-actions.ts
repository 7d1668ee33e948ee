/**
 * What each session phase allows, defined once. The engine refuses by it (server/engine/rules/),
 * the session-phase machine turns it into tags, and the order ticket and the desk read those tags.
 *
 * | phase     | place | place IOC/FOK | modify | change price | cancel | suspend | activate | matching |
 * |-----------|-------|---------------|--------|--------------|--------|---------|----------|----------|
 * | opening   | yes   | no            | yes    | yes          | yes    | yes     | yes      | no       |
 * | trading   | yes   | yes           | yes    | yes          | yes    | yes     | yes      | yes      |
 * | closing   | no    | no            | yes    | no           | yes    | yes     | no       | no       |
 * | suspended | no    | no            | no     | no           | no     | no      | no       | no       |
 * | closed    | no    | no            | no     | no           | no     | no      | no       | no       |
 */
import type { SessionPhase } from './enums.ts';

export const phaseActions = ['place', 'placeImmediate', 'modify', 'changePrice', 'cancel', 'suspend', 'activate', 'matching'] as const;
export type PhaseAction = (typeof phaseActions)[number];

/** What one phase allows: a flag per action. */
export type PhaseRights = Readonly<Record<PhaseAction, boolean>>;

export const phaseAllows: Readonly<Record<SessionPhase, PhaseRights>> = {
  opening: { place: true, placeImmediate: false, modify: true, changePrice: true, cancel: true, suspend: true, activate: true, matching: false },
  trading: { place: true, placeImmediate: true, modify: true, changePrice: true, cancel: true, suspend: true, activate: true, matching: true },
  closing: { place: false, placeImmediate: false, modify: true, changePrice: false, cancel: true, suspend: true, activate: false, matching: false },
  suspended: { place: false, placeImmediate: false, modify: false, changePrice: false, cancel: false, suspend: false, activate: false, matching: false },
  closed: { place: false, placeImmediate: false, modify: false, changePrice: false, cancel: false, suspend: false, activate: false, matching: false },
};

/** The actions a phase allows, in table order. */
export function allowedActions(phase: SessionPhase): PhaseAction[] {
  return phaseActions.filter((action) => phaseAllows[phase][action]);
}

/**
 * The refusal for `action` in `phase`, or null when allowed: SESSION_SUSPENDED while suspended,
 * SESSION_CLOSING_NO_PRICE_CHANGE for a price change in closing, else SESSION_PHASE_FORBIDS.
 */
export function phaseRefusalOf(
  phase: SessionPhase,
  action: PhaseAction,
): { code: 'SESSION_SUSPENDED'; params: Record<string, never> } | { code: 'SESSION_CLOSING_NO_PRICE_CHANGE'; params: Record<string, never> } | { code: 'SESSION_PHASE_FORBIDS'; params: { phase: SessionPhase } } | null {
  if (phaseAllows[phase][action]) return null;
  if (phase === 'suspended') return { code: 'SESSION_SUSPENDED', params: {} };
  if (phase === 'closing' && action === 'changePrice') return { code: 'SESSION_CLOSING_NO_PRICE_CHANGE', params: {} };
  return { code: 'SESSION_PHASE_FORBIDS', params: { phase } };
}
