// @vitest-environment jsdom
/** Workflow lists kept fresh from the live queue: replaced by instanceId, never by an older version, newest first, leaving when they no longer match. */
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { NEVER, Subject, type Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { destinations } from '../../../protocol/destinations.ts';
import { workflowRoutes, type WorkflowChange, type WorkflowInstance } from '../../../protocol/workflows.ts';
import type { Connection } from '../../../streams/connection.ts';
import { applyWorkflowInstance, useWorkflowList } from '../../../src/workflows/workflow-live.ts';
import { fetchWorkflows } from '../../../src/workflows/workflow-api.ts';
import { signIn, signOut, stubApi } from '../pages/my-account/clearing-fixtures.tsx';
import { admin, broker1, broker2, instance } from './workflow-fixtures.tsx';

const participantQueue = new Subject<WorkflowChange>();
const approvalsQueue = new Subject<WorkflowChange>();
const watch = vi.fn((destination: string): Observable<unknown> => (destination === destinations.workflows ? participantQueue : destination === destinations.workflowApprovals ? approvalsQueue : NEVER));
let connection = { watch$: watch } as unknown as Connection;
vi.mock('../../../src/realtime/RealtimeProvider.tsx', () => ({ useRealtime: () => ({ connection }) }));

beforeEach(() => {
  connection = { watch$: watch } as unknown as Connection;
  watch.mockClear();
  signIn();
});
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

const changeOf = (subject: WorkflowInstance): WorkflowChange => ({ instance: subject, event: subject.history.at(-1)! });
const ids = (list: readonly WorkflowInstance[]) => list.map((item) => `${item.instanceId}@${item.version}`);

describe('applyWorkflowInstance', () => {
  const first = instance('otc', [], { instanceId: 'A', updatedAt: '2026-11-20T08:00:00.000Z' });
  const second = instance('otc', [], { instanceId: 'B', updatedAt: '2026-11-20T09:00:00.000Z' });
  const all = () => true;

  it('replaces by instanceId and puts the newest change first', () => {
    const moved = instance('otc', [['activate', broker1]], { instanceId: 'A', updatedAt: '2026-11-20T10:00:00.000Z' });
    expect(ids(applyWorkflowInstance([second, first], moved, all))).toEqual(['A@2', 'B@1']);
  });

  it('never goes back to an older version', () => {
    const newer = instance('otc', [['activate', broker1]], { instanceId: 'A' });
    expect(ids(applyWorkflowInstance([newer], first, all))).toEqual(['A@2']);
  });

  it('adds what matches the list and drops what no longer does', () => {
    const waiting = (item: WorkflowInstance) => item.waitingOn === 'administrator';
    const queued = instance('otc', [['activate', broker1], ['acceptActivation', broker2]], { instanceId: 'C' });
    const approved = instance('otc', [['activate', broker1], ['acceptActivation', broker2], ['approve', admin]], { instanceId: 'C' });
    expect(ids(applyWorkflowInstance([], queued, waiting))).toEqual(['C@3']);
    expect(applyWorkflowInstance([queued], approved, waiting)).toEqual([]);
  });
});

describe('useWorkflowList', () => {
  it('loads once, then applies the live changes of its kind without a reload', async () => {
    const deal = instance('otc', [], { instanceId: 'A' });
    const fetchMock = stubApi({ [workflowRoutes.list]: { body: { instances: [deal] } } });
    const { result } = renderHook(() => useWorkflowList((signal) => fetchWorkflows({ kind: 'otc' }, signal), (item) => item.kind === 'otc'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(ids(result.current.items)).toEqual(['A@1']);
    const activated = instance('otc', [['activate', broker1]], { instanceId: 'A' });
    act(() => participantQueue.next(changeOf(activated)));
    expect(ids(result.current.items)).toEqual(['A@2']);
    expect(result.current.items[0]!.status).toBe('awaiting_partner_accept');
    act(() => participantQueue.next(changeOf(instance('whitelist', [], { instanceId: 'W' }))));
    const fresh = instance('otc', [], { instanceId: 'N', updatedAt: '2026-11-21T08:00:00.000Z' });
    act(() => participantQueue.next(changeOf(fresh)));
    expect(ids(result.current.items)).toEqual(['N@1', 'A@2']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(watch).toHaveBeenCalledWith(destinations.workflows, expect.anything());
  });

  it('keeps a change that arrives before the list and applies it on top', async () => {
    let release: (() => void) | null = null;
    const deal = instance('otc', [], { instanceId: 'A' });
    const { result } = renderHook(() =>
      useWorkflowList(
        () => new Promise<WorkflowInstance[]>((resolve) => (release = () => resolve([deal]))),
        (item) => item.kind === 'otc',
      ),
    );
    await waitFor(() => expect(release).not.toBeNull());
    act(() => participantQueue.next(changeOf(instance('otc', [['activate', broker1]], { instanceId: 'A' }))));
    expect(result.current.status).toBe('loading');
    act(() => release!());
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(ids(result.current.items)).toEqual(['A@2']);
  });

  it('follows the administrator queue for the approvals, and shows the answer to an own action at once', async () => {
    const queued = instance('transfer', [['accept', broker2]], { instanceId: 'T' });
    stubApi({ [workflowRoutes.list]: { body: { instances: [queued] } } });
    const { result } = renderHook(() => useWorkflowList((signal) => fetchWorkflows({ awaiting: 'administrator' }, signal), (item) => item.waitingOn === 'administrator', 'approvals'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(watch).toHaveBeenCalledWith(destinations.workflowApprovals, expect.anything());
    act(() => result.current.apply(instance('transfer', [['accept', broker2], ['approve', admin]], { instanceId: 'T' })));
    expect(result.current.items).toEqual([]);
    act(() => approvalsQueue.next(changeOf(instance('otc', [['activate', broker1], ['acceptActivation', broker2]], { instanceId: 'O' }))));
    expect(ids(result.current.items)).toEqual(['O@3']);
  });
});
