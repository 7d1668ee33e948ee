/**
 * Workflow lists that stay current: loaded once over REST, then kept fresh by the live changes of the
 * user's private queue (or the administrator's approvals queue) on the app's one connection. A change
 * replaces its instance by instanceId (never with an older version), enters the list when it matches
 * the list's query and leaves it when it no longer does (an approved deal leaves the operator's
 * queue). Newest first.
 */
import { useEffect, useMemo, useState } from 'react';
import { catchError, defer, EMPTY, filter, from, map, merge, of, scan, startWith, Subject, type Observable } from 'rxjs';
import type { WorkflowInstance } from '../../protocol/workflows.ts';
import { sharedWorkflowChanges$, type WorkflowQueue } from '../../streams/workflows.ts';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';
import { debouncedRefresh$, figures$, type FiguresState } from '../trading/account/account-figures.ts';

/** A burst of changes (a request approved moves a relation) refetches once. */
const WORKFLOW_REFRESH_DEBOUNCE_MS = 300;

export type WorkflowSource = WorkflowQueue;

/** Newest first: the last change on top, then the newest created. */
function newestFirst(a: WorkflowInstance, b: WorkflowInstance): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;
}

/**
 * The list after one instance's new state: replaced by instanceId (an older version than the one shown
 * is ignored), added when it matches the list, dropped when it no longer does.
 */
export function applyWorkflowInstance(list: readonly WorkflowInstance[], instance: WorkflowInstance, matches: (instance: WorkflowInstance) => boolean): WorkflowInstance[] {
  const current = list.find((candidate) => candidate.instanceId === instance.instanceId);
  if (current && current.version > instance.version) return [...list];
  const others = list.filter((candidate) => candidate.instanceId !== instance.instanceId);
  return (matches(instance) ? [...others, instance] : others).sort(newestFirst);
}

export interface WorkflowListState {
  status: 'loading' | 'ready' | 'error';
  items: WorkflowInstance[];
  error: unknown;
}

type Step = { kind: 'loaded'; items: WorkflowInstance[] } | { kind: 'failed'; error: unknown } | { kind: 'instance'; instance: WorkflowInstance };

/** The list: `load` once, then every instance of `updates$`; what arrives before the load is applied on top of it. */
export function workflowList$(load: (signal: AbortSignal) => Promise<WorkflowInstance[]>, updates$: Observable<WorkflowInstance>, matches: (instance: WorkflowInstance) => boolean): Observable<WorkflowListState> {
  const loaded$ = defer(() => {
    const controller = new AbortController();
    return from(load(controller.signal)).pipe(
      map((items): Step => ({ kind: 'loaded', items })),
      catchError((error: unknown) => of<Step>({ kind: 'failed', error })),
    );
  });
  const initial: WorkflowListState & { early: WorkflowInstance[] } = { status: 'loading', items: [], error: undefined, early: [] };
  return merge(
    loaded$,
    updates$.pipe(map((instance): Step => ({ kind: 'instance', instance }))),
  ).pipe(
    scan((state, step) => {
      switch (step.kind) {
        case 'loaded': {
          const items = state.early.reduce((list, instance) => applyWorkflowInstance(list, instance, matches), [...step.items].sort(newestFirst));
          return { status: 'ready' as const, items, error: undefined, early: [] };
        }
        case 'failed':
          return { ...state, status: 'error' as const, error: step.error };
        case 'instance':
          return state.status === 'loading'
            ? { ...state, early: [...state.early, step.instance] }
            : { ...state, items: applyWorkflowInstance(state.items, step.instance, matches) };
      }
    }, initial),
    map(({ status, items, error }) => ({ status, items, error })),
    startWith<WorkflowListState>({ status: 'loading', items: [], error: undefined }),
  );
}

export interface UseWorkflowList extends WorkflowListState {
  /** Loads the list again (after an error). */
  reload: () => void;
  /** Shows an instance at once (the answer to the user's own action, before its change arrives on the queue). */
  apply: (instance: WorkflowInstance) => void;
}

/** A list of instances kept fresh from `source`'s queue; `matches` says which instances belong to it (the same as its query). */
export function useWorkflowList(
  load: (signal: AbortSignal) => Promise<WorkflowInstance[]>,
  matches: (instance: WorkflowInstance) => boolean,
  source: WorkflowSource = 'participant',
  /** Compared by value: reload when it changes (a date filter). */
  key = '',
): UseWorkflowList {
  const connection = useRealtime()?.connection ?? null;
  const [state, setState] = useState<WorkflowListState>({ status: 'loading', items: [], error: undefined });
  const [attempt, setAttempt] = useState(0);
  const local = useMemo(() => new Subject<WorkflowInstance>(), []);
  useEffect(() => {
    const live$ = connection ? sharedWorkflowChanges$(connection, source).pipe(map((change) => change.instance)) : EMPTY;
    const subscription = workflowList$(load, merge(live$, local), matches).subscribe(setState);
    return () => subscription.unsubscribe();
    // `load` and `matches` follow `key` and `source` (each tab builds them from the same values).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [connection, source, key, attempt, local]);
  return { ...state, reload: () => setAttempt((value) => value + 1), apply: (instance) => local.next(instance) };
}

/** Data that is not an instance list (the whitelist relations) but moves with instances of `kinds`: loaded, then again after their changes. */
export function useWorkflowBackedData<T>(load: (signal: AbortSignal) => Promise<T>, kinds: readonly WorkflowInstance['kind'][]): FiguresState<T> & { reload: () => void } {
  const connection = useRealtime()?.connection ?? null;
  const [state, setState] = useState<FiguresState<T>>({ status: 'loading', data: null, error: undefined });
  const [attempt, setAttempt] = useState(0);
  const kindsKey = kinds.join(',');
  useEffect(() => {
    const changes = connection ? sharedWorkflowChanges$(connection, 'participant').pipe(filter((change) => kindsKey.split(',').includes(change.instance.kind))) : EMPTY;
    const subscription = figures$(load, debouncedRefresh$([changes], WORKFLOW_REFRESH_DEBOUNCE_MS)).subscribe(setState);
    return () => subscription.unsubscribe();
    // `load` is a module-level fetcher; the kinds are compared by value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [connection, kindsKey, attempt]);
  return { ...state, reload: () => setAttempt((value) => value + 1) };
}
