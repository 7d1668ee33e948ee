/** Workspaces: coverage, and load/create/edit/delete with the SPEC's workspace error codes. */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { selectedWorkspace, workspaceError, workspaceMachine, type Workspace, type WorkspaceDraft } from '../../machines/workspace.machine.ts';
import { ApiCallError } from '../../streams/api.ts';
import { coverMachine } from './coverage.ts';

const gas: Workspace = { id: 'w1', name: 'Gaz', type: 'gas', marketId: 'M1', assetIds: ['A1'], ringIds: [] };
const power: Workspace = { id: 'w2', name: 'Energie', type: 'energy', marketId: 'M2', assetIds: ['B1', 'B2'], ringIds: ['R1'] };
const draft: WorkspaceDraft = { name: 'BG', type: 'gas-bg', marketId: 'M3', assetIds: [], ringIds: [] };

describe('workspaceMachine coverage', () => {
  it('reaches every state and every transition', () => {
    const fail = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('500') });
    const report = coverMachine(workspaceMachine, {
      samples: {
        'xstate.done.actor.loadWorkspaces': [{ type: 'xstate.done.actor.loadWorkspaces', output: [gas] }],
        'xstate.error.actor.loadWorkspaces': [fail('loadWorkspaces')],
        CREATE: [
          { type: 'CREATE', draft },
          { type: 'CREATE', draft: { ...draft, name: ' ' } },
        ],
        'xstate.done.actor.createWorkspace': [{ type: 'xstate.done.actor.createWorkspace', output: { ...draft, id: 'w3' } }],
        'xstate.error.actor.createWorkspace': [fail('createWorkspace')],
        UPDATE: [
          { type: 'UPDATE', workspace: { ...gas, name: 'Gaz natural' } },
          { type: 'UPDATE', workspace: { ...gas, id: 'nope' } },
        ],
        'xstate.done.actor.updateWorkspace': [{ type: 'xstate.done.actor.updateWorkspace', output: { ...gas, name: 'Gaz natural' } }],
        'xstate.error.actor.updateWorkspace': [fail('updateWorkspace')],
        DELETE: [
          { type: 'DELETE', id: 'w1' },
          { type: 'DELETE', id: 'nope' },
        ],
        'xstate.done.actor.deleteWorkspace': [{ type: 'xstate.done.actor.deleteWorkspace', output: null }],
        'xstate.error.actor.deleteWorkspace': [fail('deleteWorkspace')],
        SELECT: [{ type: 'SELECT', id: 'w1' }],
      } as never,
    });
    expect(report.states).toEqual(['workspace.creating', 'workspace.deleting', 'workspace.loadFailed', 'workspace.loading', 'workspace.ready', 'workspace.updating']);
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
  });
});

function scripted(answers: { load?: unknown[]; create?: unknown[]; update?: unknown[]; remove?: unknown[] }) {
  const answer = async <T,>(queue: unknown[] | undefined): Promise<T> => {
    const next = queue?.shift();
    if (next instanceof Error) throw next;
    return next as T;
  };
  const calls: unknown[] = [];
  const machine = workspaceMachine.provide({
    actors: {
      loadWorkspaces: fromPromise<Workspace[], void>(() => answer(answers.load)),
      createWorkspace: fromPromise<Workspace, WorkspaceDraft>(({ input }) => {
        calls.push(['create', input]);
        return answer(answers.create);
      }),
      updateWorkspace: fromPromise<Workspace, Workspace>(({ input }) => {
        calls.push(['update', input]);
        return answer(answers.update);
      }),
      deleteWorkspace: fromPromise<unknown, { id: string }>(({ input }) => {
        calls.push(['delete', input]);
        return answer(answers.remove);
      }),
    },
  });
  return { actor: createActor(machine).start(), calls };
}

describe('workspaces', () => {
  it('a failed load shows WORKSPACE_LOAD_FAILED and LOAD tries again', async () => {
    const { actor } = scripted({ load: [new Error('boom'), [gas, power]] });
    await waitFor(actor, (s) => s.matches('loadFailed'));
    expect(actor.getSnapshot().context.error).toEqual({ code: 'WORKSPACE_LOAD_FAILED', params: {} });
    actor.send({ type: 'LOAD' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ workspaces: [gas, power], selectedId: 'w1', error: null });
    expect(selectedWorkspace(actor.getSnapshot())).toEqual(gas);
    actor.stop();
  });

  it('creates, edits and deletes; each failure keeps its own code and the list unchanged', async () => {
    const created: Workspace = { ...draft, id: 'w3' };
    const { actor, calls } = scripted({
      load: [[gas, power]],
      create: [new ApiCallError('UNKNOWN_ERROR', {}, 500), created],
      update: [new Error('x'), { ...power, name: 'Putere' }],
      remove: [new ApiCallError('WORKSPACE_DELETE_FAILED', {}, 500), null],
    });
    await waitFor(actor, (s) => s.matches('ready'));

    actor.send({ type: 'CREATE', draft });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toEqual({ code: 'WORKSPACE_SAVE_FAILED', params: {} });
    expect(actor.getSnapshot().context.workspaces).toHaveLength(2);
    actor.send({ type: 'DISMISS_ERROR' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'CREATE', draft });
    await waitFor(actor, (s) => s.matches('ready') && s.context.workspaces.length === 3);
    expect(actor.getSnapshot().context.selectedId).toBe('w3');

    actor.send({ type: 'UPDATE', workspace: { ...power, name: 'Putere' } });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toEqual({ code: 'WORKSPACE_EDIT_FAILED', params: {} });
    expect(actor.getSnapshot().context.workspaces[1]!.name).toBe('Energie');
    actor.send({ type: 'UPDATE', workspace: { ...power, name: 'Putere' } });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error === null);
    expect(actor.getSnapshot().context.workspaces[1]!.name).toBe('Putere');

    actor.send({ type: 'DELETE', id: 'w3' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toEqual({ code: 'WORKSPACE_DELETE_FAILED', params: {} });
    actor.send({ type: 'DELETE', id: 'w3' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.workspaces.length === 2);
    expect(actor.getSnapshot().context.selectedId).toBe('w1');

    expect(calls).toEqual([
      ['create', draft],
      ['create', draft],
      ['update', { ...power, name: 'Putere' }],
      ['update', { ...power, name: 'Putere' }],
      ['delete', { id: 'w3' }],
      ['delete', { id: 'w3' }],
    ]);
    actor.stop();
  });

  it('ignores an unknown id and a nameless workspace', async () => {
    const { actor, calls } = scripted({ load: [[gas]] });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'DELETE', id: 'nope' });
    actor.send({ type: 'SELECT', id: 'nope' });
    actor.send({ type: 'UPDATE', workspace: { ...gas, name: '' } });
    actor.send({ type: 'CREATE', draft: { ...draft, name: '   ' } });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.selectedId).toBe('w1');
    expect(calls).toEqual([]);
    actor.stop();
  });

  it('workspaceError keeps a WORKSPACE_* code and maps anything else to the operation', () => {
    expect(workspaceError('update', { code: 'WORKSPACE_SAVE_FAILED', params: {} })).toEqual({ code: 'WORKSPACE_SAVE_FAILED', params: {} });
    expect(workspaceError('load', new ApiCallError('CLIENT_NETWORK_ERROR'))).toEqual({ code: 'WORKSPACE_LOAD_FAILED', params: {} });
  });
});
