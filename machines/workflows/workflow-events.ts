import type { ErrorCode } from '../../protocol/error-codes.ts';
import { isAdministrator, isInitiatorSide, isPartnerSide, isSystem, type WorkflowActor, type WorkflowParties } from './workflow-actor.ts';

/** A user's action on an instance (the `type` is the action's name in protocol/workflows.ts). */
export interface WorkflowUserEvent<T extends string> {
  type: T;
  actor: WorkflowActor;
  /** Required for `reject` (the `hasReason` guard). */
  reason?: string;
}

/** The system's events: the limit date passed, or the server's checks refused the step. */
export type WorkflowSystemEvent =
  | { type: 'expire'; actor: WorkflowActor; code: ErrorCode }
  | { type: 'checksFailed'; actor: WorkflowActor; code: ErrorCode };

/** What every workflow machine keeps: its two sides and the last reason. */
export interface WorkflowContext {
  initiatorClient: string;
  partnerClient: string;
  /** The last user-given reason or system refusal code, for the list's "reason" column. */
  lastReason: string | null;
}

export interface WorkflowInput {
  initiatorClient: string;
  partnerClient: string;
}

/** The reason an event brings: the user's text, or the system's code. */
export function reasonOf(event: object): string | null {
  if ('code' in event && typeof event.code === 'string') return event.code;
  if ('reason' in event && typeof event.reason === 'string' && event.reason.trim() !== '') return event.reason.trim();
  return null;
}

type GuardArgs = { context: WorkflowParties; event: { actor: WorkflowActor } };

/**
 * The guards every two-sided workflow machine names the same way (spread into its setup()): which side
 * the actor acts for, the administrator, the system, and a rejection that carries a reason.
 */
export const sideGuards = {
  isInitiator: ({ context, event }: GuardArgs) => isInitiatorSide(event.actor, context),
  isPartner: ({ context, event }: GuardArgs) => isPartnerSide(event.actor, context),
  isAdministrator: ({ event }: GuardArgs) => isAdministrator(event.actor),
  isSystem: ({ event }: GuardArgs) => isSystem(event.actor),
  partnerRejectsWithReason: ({ context, event }: GuardArgs) => isPartnerSide(event.actor, context) && reasonOf(event) !== null,
  administratorRejectsWithReason: ({ event }: GuardArgs) => isAdministrator(event.actor) && reasonOf(event) !== null,
};
