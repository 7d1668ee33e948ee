/**
 * The five workflow machines by kind, and the pure functions the server and the client both use:
 * start an instance, restore it from its stored state, apply an event, list the actions offered to a
 * user and say whom the instance waits on. XState's pure `initialTransition` and `transition` run the
 * machines: no actor, no I/O, so the server can check an event inside its database transaction.
 */
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import type { ErrorCode } from '../../protocol/error-codes.ts';
import { actionsWithReason, workflowActionsByKind, type WorkflowAction, type WorkflowKind } from '../../protocol/workflows.ts';
import { marginActivationMachine } from './margin-activation.machine.ts';
import { otcDealMachine } from './otc-deal.machine.ts';
import { transactionContractMachine } from './transaction-contract.machine.ts';
import { transferMachine } from './transfer.machine.ts';
import { whitelistRequestMachine } from './whitelist-request.machine.ts';
import type { WorkflowActor, WorkflowParties } from './workflow-actor.ts';

export const workflowMachines = {
  otc: otcDealMachine,
  transfer: transferMachine,
  marginActivation: marginActivationMachine,
  contract: transactionContractMachine,
  whitelist: whitelistRequestMachine,
} as const satisfies Record<WorkflowKind, AnyStateMachine>;

/** What is stored of an instance's machine: its state (every workflow machine is flat) and context. */
export interface StoredMachineState {
  value: string;
  context: Record<string, unknown>;
}

/** An event for any workflow machine: a user's action (with a reason where needed) or the system's, with its code. */
export type WorkflowEvent = EventObject & { actor: WorkflowActor; reason?: string; code?: ErrorCode };

function machineOf(kind: WorkflowKind): AnyStateMachine {
  return workflowMachines[kind] as AnyStateMachine;
}

export function startWorkflow(kind: WorkflowKind, parties: WorkflowParties): AnyMachineSnapshot {
  const [snapshot] = initialTransition(machineOf(kind), { initiatorClient: parties.initiatorClient, partnerClient: parties.partnerClient });
  return snapshot as AnyMachineSnapshot;
}

export function restoreWorkflow(kind: WorkflowKind, stored: StoredMachineState): AnyMachineSnapshot {
  return machineOf(kind).resolveState({ value: stored.value, context: stored.context }) as AnyMachineSnapshot;
}

export function storeWorkflow(snapshot: AnyMachineSnapshot): StoredMachineState {
  return { value: String(snapshot.value), context: { ...(snapshot.context as Record<string, unknown>) } };
}

/** The status is the state's name (the statuses of protocol/workflows.ts). */
export function statusOf(snapshot: AnyMachineSnapshot): string {
  return String(snapshot.value);
}

/** The next snapshot, or null when the machine does not take the event here (no transition, or its guard says no). */
export function applyWorkflowEvent(kind: WorkflowKind, snapshot: AnyMachineSnapshot, event: WorkflowEvent): AnyMachineSnapshot | null {
  if (!snapshot.can(event)) return null;
  const [next] = transition(machineOf(kind), snapshot, event);
  return next as AnyMachineSnapshot;
}

/** A reason stands in for the one the user will type: the question is whether the action is open to them. */
const PLACEHOLDER_REASON = 'reason';

/** The user actions the machine offers this actor in this state (in the protocol's order). */
export function offeredActions(kind: WorkflowKind, snapshot: AnyMachineSnapshot, actor: WorkflowActor): WorkflowAction[] {
  const actions = workflowActionsByKind[kind] as readonly WorkflowAction[];
  return actions.filter((action) => snapshot.can({ type: action, actor, ...(actionsWithReason.includes(action) ? { reason: PLACEHOLDER_REASON } : {}) }));
}

export type WaitingOn = 'initiator' | 'partner' | 'administrator' | 'none';

export function waitingOnOf(snapshot: AnyMachineSnapshot): WaitingOn {
  if (snapshot.hasTag('waitsOnAdministrator')) return 'administrator';
  if (snapshot.hasTag('waitsOnPartner')) return 'partner';
  if (snapshot.hasTag('waitsOnInitiator')) return 'initiator';
  return 'none';
}
