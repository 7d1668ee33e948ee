/**
 * State-and-transition coverage of an XState machine with @xstate/graph.
 *
 * The full sets come from the machine definition itself: every state node, and every transition
 * definition of every node (events, invoke done/error, delayed `after`, `always`). The covered sets
 * come from traversing the machine with sample events (getAdjacencyMap): a state is covered when a
 * reachable snapshot has it active, a transition when machine.getTransitionData() selects it for a
 * reachable (snapshot, event) pair. A test asserts covered == full, so adding a state or a
 * transition without a path to it fails the test.
 */
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, getStateNodes } from '@xstate/graph';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject, StateValue } from 'xstate';

type AnyTransition = { eventType: string; source: { id: string }; target?: ReadonlyArray<{ id: string }> | undefined; guard?: unknown };
type AnyNode = {
  id: string;
  transitions: Map<string, AnyTransition[]>;
  always?: AnyTransition[] | undefined;
};

function guardName(guard: unknown): string {
  if (!guard) return '';
  if (typeof guard === 'string') return `[${guard}]`;
  if (typeof guard === 'object' && guard && 'type' in guard) {
    const g = guard as { type: string; params?: unknown };
    return `[${g.type}${g.params !== undefined ? ' ' + JSON.stringify(g.params) : ''}]`;
  }
  return '[inline]';
}

function labelOf(node: AnyNode, transition: AnyTransition, index: number): string {
  const targets = transition.target?.map((t) => t.id).join(',') ?? '(none)';
  return `${node.id} --${transition.eventType}#${index}${guardName(transition.guard)}--> ${targets}`;
}

function allNodes(machine: AnyStateMachine): AnyNode[] {
  return [machine.root as unknown as AnyNode, ...(getStateNodes(machine.root) as unknown as AnyNode[])];
}

/** Every state node id except the root. */
export function allStateIds(machine: AnyStateMachine): string[] {
  return (getStateNodes(machine.root) as unknown as AnyNode[]).map((n) => n.id).sort();
}

/** Every transition definition, labelled. */
export function allTransitions(machine: AnyStateMachine): Map<AnyTransition, string> {
  const labels = new Map<AnyTransition, string>();
  for (const node of allNodes(machine)) {
    for (const [, list] of node.transitions) list.forEach((t, i) => labels.set(t, labelOf(node, t, i)));
    node.always?.forEach((t, i) => labels.set(t, labelOf(node, t, i)));
  }
  return labels;
}

/** Event types the machine reacts to anywhere (wildcards excluded). */
export function eventTypesOf(machine: AnyStateMachine): string[] {
  const types = new Set<string>();
  for (const node of allNodes(machine)) for (const type of node.transitions.keys()) if (!type.includes('*')) types.add(type);
  return [...types].sort();
}

function activeIds(prefix: string, value: StateValue): string[] {
  if (typeof value === 'string') return [`${prefix}.${value}`];
  return Object.entries(value).flatMap(([key, child]) => [`${prefix}.${key}`, ...(child ? activeIds(`${prefix}.${key}`, child as StateValue) : [])]);
}

export interface CoverageOptions<TEvent extends EventObject> {
  /** Sample events per event type; a type without samples is sent as `{ type }`. */
  samples?: Partial<Record<string, TEvent[]>>;
  input?: unknown;
  /** Snapshot identity for the traversal (default: value + context as JSON). */
  serializeState?: (snapshot: AnyMachineSnapshot) => string;
  limit?: number;
}

export interface CoverageReport {
  states: string[];
  statesCovered: string[];
  transitions: string[];
  transitionsCovered: string[];
  /** Shortest path (event types) to every state the traversal reached. */
  paths: string[][];
}

export function coverMachine<TEvent extends EventObject>(machine: AnyStateMachine, options: CoverageOptions<TEvent> = {}): CoverageReport {
  const labels = allTransitions(machine);
  const events = eventTypesOf(machine).flatMap((type) => (options.samples?.[type] as EventObject[] | undefined) ?? [{ type }]);
  const traversal = {
    events,
    ...(options.input !== undefined ? { input: options.input } : {}),
    serializeState: options.serializeState ?? ((s: AnyMachineSnapshot) => JSON.stringify({ value: s.value, context: s.context })),
    limit: options.limit ?? 50_000,
  };
  const adjacency = getAdjacencyMap(machine, traversal as never);
  const statesCovered = new Set<string>();
  const transitionsCovered = new Set<string>();
  for (const entry of Object.values(adjacency) as Array<{ state: AnyMachineSnapshot }>) {
    for (const id of activeIds(machine.id, entry.state.value)) statesCovered.add(id);
  }
  for (const { state, event } of adjacencyMapToArray(adjacency) as Array<{ state: AnyMachineSnapshot; event: EventObject }>) {
    for (const transition of machine.getTransitionData(state as never, event as never) as unknown as AnyTransition[]) {
      const label = labels.get(transition);
      if (label === undefined) throw new Error(`transition not found in the definition: ${transition.eventType}`);
      transitionsCovered.add(label);
    }
  }
  const paths = getShortestPaths(machine, traversal as never).map((path) =>
    path.steps.map((step) => (step.event as EventObject).type).filter((type) => type !== 'xstate.init'),
  );
  return {
    states: allStateIds(machine),
    statesCovered: [...statesCovered].sort(),
    transitions: [...labels.values()].sort(),
    transitionsCovered: [...transitionsCovered].sort(),
    paths,
  };
}
