/**
 * Workflow changes over the one STOMP connection (issue 15): each transition of an instance the user
 * takes part in arrives on /user/queue/workflows, and every transition reaches administrators on
 * /user/queue/workflow-approvals (their approval queues). Payloads are checked with the contract's
 * schema; one that fails is reported on `errors$` and dropped (streams/connection.ts).
 */
import { share, type Observable } from 'rxjs';
import { destinations } from '../protocol/destinations.ts';
import { workflowChangeSchema, type WorkflowChange } from '../protocol/workflows.ts';
import type { Connection } from './connection.ts';

/** Cold: every subscriber has its own STOMP subscription (share it). Restored after every reconnect. */
export function workflowChanges$(connection: Connection): Observable<WorkflowChange> {
  return connection.watch$(destinations.workflows, workflowChangeSchema);
}

/** The administrator's queue (others receive nothing on it). Cold, like workflowChanges$. */
export function workflowApprovals$(connection: Connection): Observable<WorkflowChange> {
  return connection.watch$(destinations.workflowApprovals, workflowChangeSchema);
}

export type WorkflowQueue = 'participant' | 'approvals';

// One STOMP subscription per connection and queue, however many views show it (as streams/session.ts shares its streams).
const sharedQueues = new WeakMap<Connection, Partial<Record<WorkflowQueue, Observable<WorkflowChange>>>>();

/** The queue's changes, shared: subscribed while someone watches, restored after every reconnect. */
export function sharedWorkflowChanges$(connection: Connection, queue: WorkflowQueue): Observable<WorkflowChange> {
  const queues = sharedQueues.get(connection) ?? {};
  sharedQueues.set(connection, queues);
  return (queues[queue] ??= (queue === 'approvals' ? workflowApprovals$(connection) : workflowChanges$(connection)).pipe(share()));
}
