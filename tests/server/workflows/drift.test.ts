/**
 * No drift between what the client offers and what the server accepts: for each of the five machines,
 * every reachable state (traversed with @xstate/graph, as tests/machines/coverage.ts does) and every
 * role, offeredActions() (what the screens show) equals the set of actions the real runner accepts
 * against an instance stored in that state.
 */
import { getAdjacencyMap } from '@xstate/graph';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeError } from '../../../protocol/error-codes.ts';
import { workflowActionsByKind, workflowKinds, type WorkflowKind } from '../../../protocol/workflows.ts';
import { systemActor } from '../../../machines/workflows/workflow-actor.ts';
import { offeredActions, storeWorkflow, waitingOnOf, workflowMachines } from '../../../machines/workflows/workflow-definitions.ts';
import { systemUser, type WorkflowUser } from '../../../server/workflows/workflow-runner.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { openWorkflowStore, type WorkflowStore } from '../../helpers/workflow-store.ts';

const parties = { initiatorClient: 'RO-HIDRO', partnerClient: 'RO-TERMO' };

/** Every event type of the machine, sent by every role (with a reason), plus the system's events. */
function samplesFor(machine: AnyStateMachine, roles: readonly WorkflowUser[]): EventObject[] {
  const types = new Set<string>();
  const nodes = [machine.root, ...Object.values(machine.root.states)] as Array<{ transitions: Map<string, unknown> }>;
  for (const node of nodes) for (const type of node.transitions.keys()) types.add(type);
  return [...types].flatMap((type) => [
    ...roles.map((actor) => ({ type, actor, reason: 'because' })),
    { type, actor: systemActor, code: 'OTC_LIMIT_DATE_EXCEEDED' },
  ]);
}

function reachable(kind: WorkflowKind, roles: readonly WorkflowUser[]): AnyMachineSnapshot[] {
  const machine = workflowMachines[kind] as AnyStateMachine;
  const adjacency = getAdjacencyMap(machine, {
    events: samplesFor(machine, roles),
    input: parties,
    serializeState: (snapshot: AnyMachineSnapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context }),
    limit: 10_000,
  } as never);
  return (Object.values(adjacency) as Array<{ state: AnyMachineSnapshot }>).map((entry) => entry.state);
}

describe.each(testDatabases)('drift between offered and accepted actions on $name', (database) => {
  let ws: WorkflowStore;
  let roles: Array<[string, WorkflowUser]>;
  let seq = 0;

  beforeAll(async () => {
    ws = await openWorkflowStore(database);
    roles = [
      ['initiator broker', await ws.actor('broker1')],
      ['partner broker', await ws.actor('broker2')],
      ['same agency broker without the client', await ws.addUser('broker1b', 'broker1', { clientCodes: [] })],
      ['other agency broker', await ws.actor('sim-nord')],
      ['client', await ws.actor('client1')],
      ['terminal', await ws.addUser('terminal-hidro', 'terminal1', { clientCodes: ['RO-HIDRO'] })],
      ['administrator', await ws.actor('admin')],
      ['system', systemUser],
    ];
  });
  afterAll(async () => ws?.close());

  /** Stores an instance in this state and sends the action; true when the runner accepts it. */
  async function accepts(kind: WorkflowKind, snapshot: AnyMachineSnapshot, action: string, actor: WorkflowUser): Promise<boolean> {
    const at = new Date(ws.clock.now()).toISOString();
    const id = `drift-${++seq}`;
    await ws.runner.repository.insert(ws.store.db, {
      id, kind, status: String(snapshot.value), machineState: storeWorkflow(snapshot), ...parties, transactionId: null, limitAt: null,
      waitingOn: waitingOnOf(snapshot), version: 1, reason: null, data: {}, createdBy: roles.find(([role]) => role === 'administrator')![1].userId!, createdAt: at, updatedAt: at,
    });
    try {
      await ws.runner.act(id, action, actor, { reason: 'because' });
      return true;
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      expect(['WORKFLOW_ACTION_NOT_ALLOWED', 'WORKFLOW_NOT_FOUND']).toContain(error.code);
      return false;
    } finally {
      // One pending whitelist request per pair (a unique index): each probe leaves nothing behind.
      await ws.store.db.query('delete from workflow_events where instance_id = $1', [id]);
      await ws.store.db.query('delete from workflow_instances where id = $1', [id]);
    }
  }

  it.each(workflowKinds)('%s: every reachable state, every role', async (kind) => {
    const actors = roles.map(([, actor]) => actor);
    const states = reachable(kind, actors);
    expect(new Set(states.map((state) => String(state.value))).size).toBe(Object.keys((workflowMachines[kind] as AnyStateMachine).root.states).length);
    let offeredSomewhere = 0;
    let probes = 0;
    for (const snapshot of states) {
      for (const [role, actor] of roles) {
        const offered = offeredActions(kind, snapshot, actor);
        const accepted: string[] = [];
        for (const action of workflowActionsByKind[kind]) if (await accepts(kind, snapshot, action, actor)) accepted.push(action);
        probes += workflowActionsByKind[kind].length;
        expect({ state: snapshot.value, role, accepted }).toEqual({ state: snapshot.value, role, accepted: [...offered] });
        offeredSomewhere += offered.length;
      }
    }
    expect(offeredSomewhere).toBeGreaterThan(0);
    expect(probes).toBe(states.length * roles.length * workflowActionsByKind[kind].length);
  });
});
