/**
 * Which actions a user is offered on an instance: the instance's stored machine state restored into
 * the same machine the server runs (machines/workflows/), asked with the user as the actor. Views
 * offer exactly these and nothing else, so what the browser offers is what the server accepts.
 */
import { useMemo } from 'react';
import { offeredActions, restoreWorkflow } from '../../machines/workflows/workflow-definitions.ts';
import type { WorkflowActor } from '../../machines/workflows/workflow-actor.ts';
import type { UserInfo } from '../../protocol/auth.ts';
import type { WorkflowAction, WorkflowInstance } from '../../protocol/workflows.ts';

/** The signed-in user as the machines' actor (roles, scopes and clients decide in the guards). */
export function workflowActorOf(user: Pick<UserInfo, 'userId' | 'roles' | 'scopes' | 'clientCodes'> | null): WorkflowActor | null {
  if (!user) return null;
  return { userId: user.userId, roles: user.roles, scopes: user.scopes, clientCodes: user.clientCodes };
}

/** The actions the machine offers this user on this instance now (none when signed out or the state cannot be restored). */
export function workflowActionsFor(instance: Pick<WorkflowInstance, 'kind' | 'machineState'>, user: Pick<UserInfo, 'userId' | 'roles' | 'scopes' | 'clientCodes'> | null): WorkflowAction[] {
  const actor = workflowActorOf(user);
  if (!actor) return [];
  try {
    return offeredActions(instance.kind, restoreWorkflow(instance.kind, instance.machineState), actor);
  } catch {
    // A state this client's machine does not know (a newer server): offer nothing rather than guess.
    return [];
  }
}

export function useWorkflowActions(instance: WorkflowInstance, user: UserInfo | null): WorkflowAction[] {
  return useMemo(() => workflowActionsFor(instance, user), [instance, user]);
}
