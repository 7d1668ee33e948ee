/**
 * Personal workspaces (type gas, energy or gas-bg: a market, picked assets and rings):
 *
 *   loading --ok--> ready --CREATE--> creating --ok/error--> ready
 *      |              |--UPDATE--> updating --ok/error--> ready
 *      |              |--DELETE--> deleting --ok/error--> ready
 *      '--error--> loadFailed --LOAD--> loading
 *
 * Failures keep the SPEC's workspace codes: WORKSPACE_LOAD_FAILED, WORKSPACE_SAVE_FAILED (create),
 * WORKSPACE_EDIT_FAILED (update), WORKSPACE_DELETE_FAILED; a server refusal that already carries a
 * WORKSPACE_* code keeps its own. The calls are injected actors.
 */
import { and, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { WorkspaceType } from '../protocol/enums.ts';
import type { ErrorCode } from '../protocol/error-codes.ts';
import { toClientError, type ClientError } from '../streams/api.ts';

/** Not in protocol/ yet (see docs/client-core.md). */
export interface Workspace {
  id: string;
  name: string;
  type: WorkspaceType;
  marketId: string;
  assetIds: string[];
  ringIds: string[];
}
export type WorkspaceDraft = Omit<Workspace, 'id'>;

export type WorkspaceEvent =
  | { type: 'LOAD' }
  | { type: 'CREATE'; draft: WorkspaceDraft }
  | { type: 'UPDATE'; workspace: Workspace }
  | { type: 'DELETE'; id: string }
  | { type: 'SELECT'; id: string }
  | { type: 'DISMISS_ERROR' };

type WorkspaceOperation = 'load' | 'create' | 'update' | 'delete';
const failureCode: Record<WorkspaceOperation, ErrorCode> = {
  load: 'WORKSPACE_LOAD_FAILED',
  create: 'WORKSPACE_SAVE_FAILED',
  update: 'WORKSPACE_EDIT_FAILED',
  delete: 'WORKSPACE_DELETE_FAILED',
};

/** The refusal kept for a failed operation. */
export function workspaceError(operation: WorkspaceOperation, error: unknown): ClientError {
  const cause = toClientError(error);
  return cause.code.startsWith('WORKSPACE_') ? cause : { code: failureCode[operation], params: {} };
}

export interface WorkspaceContext {
  workspaces: Workspace[];
  selectedId: string | null;
  error: ClientError | null;
  pendingDraft: WorkspaceDraft | null;
  pendingUpdate: Workspace | null;
  pendingDeleteId: string | null;
}

export const workspaceMachine = setup({
  types: {
    context: {} as WorkspaceContext,
    events: {} as WorkspaceEvent,
  },
  actors: {
    loadWorkspaces: fromPromise<Workspace[], void>(async () => {
      throw new Error('loadWorkspaces actor not provided');
    }),
    createWorkspace: fromPromise<Workspace, WorkspaceDraft>(async () => {
      throw new Error('createWorkspace actor not provided');
    }),
    updateWorkspace: fromPromise<Workspace, Workspace>(async () => {
      throw new Error('updateWorkspace actor not provided');
    }),
    deleteWorkspace: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('deleteWorkspace actor not provided');
    }),
  },
  guards: {
    isKnownWorkspace: ({ context, event }) => {
      const id = event.type === 'UPDATE' ? event.workspace.id : event.type === 'DELETE' || event.type === 'SELECT' ? event.id : null;
      return id !== null && context.workspaces.some((w) => w.id === id);
    },
    hasName: ({ event }) => (event.type === 'CREATE' ? event.draft.name : event.type === 'UPDATE' ? event.workspace.name : '').trim() !== '',
  },
  actions: {
    storeList: assign((_, params: { workspaces: Workspace[] }) => ({
      workspaces: params.workspaces,
      selectedId: params.workspaces[0]?.id ?? null,
      error: null,
    })),
    storeError: assign((_, params: { operation: WorkspaceOperation; error: unknown }) => ({ error: workspaceError(params.operation, params.error) })),
    rememberDraft: assign(({ event }) => (event.type === 'CREATE' ? { pendingDraft: event.draft, error: null } : {})),
    rememberUpdate: assign(({ event }) => (event.type === 'UPDATE' ? { pendingUpdate: event.workspace, error: null } : {})),
    rememberDelete: assign(({ event }) => (event.type === 'DELETE' ? { pendingDeleteId: event.id, error: null } : {})),
    addWorkspace: assign(({ context }, params: { workspace: Workspace }) => ({
      // The server's id decides: an id already listed is replaced, not duplicated.
      workspaces: [...context.workspaces.filter((w) => w.id !== params.workspace.id), params.workspace],
      selectedId: params.workspace.id,
      pendingDraft: null,
    })),
    replaceWorkspace: assign(({ context }, params: { workspace: Workspace }) => ({
      workspaces: context.workspaces.map((w) => (w.id === params.workspace.id ? params.workspace : w)),
      pendingUpdate: null,
    })),
    removeWorkspace: assign(({ context }) => {
      const workspaces = context.workspaces.filter((w) => w.id !== context.pendingDeleteId);
      const selectedId = context.selectedId === context.pendingDeleteId ? (workspaces[0]?.id ?? null) : context.selectedId;
      return { workspaces, selectedId, pendingDeleteId: null };
    }),
    forgetPending: assign({ pendingDraft: null, pendingUpdate: null, pendingDeleteId: null }),
    select: assign(({ event }) => (event.type === 'SELECT' ? { selectedId: event.id } : {})),
    dismissError: assign({ error: null }),
  },
}).createMachine({
  id: 'workspace',
  context: { workspaces: [], selectedId: null, error: null, pendingDraft: null, pendingUpdate: null, pendingDeleteId: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadWorkspaces',
        src: 'loadWorkspaces',
        onDone: { target: 'ready', actions: { type: 'storeList', params: ({ event }) => ({ workspaces: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'storeError', params: ({ event }) => ({ operation: 'load', error: event.error }) } },
      },
    },
    loadFailed: {
      on: { LOAD: 'loading' },
    },
    ready: {
      on: {
        LOAD: 'loading',
        CREATE: { guard: 'hasName', target: 'creating', actions: 'rememberDraft' },
        UPDATE: { guard: and(['isKnownWorkspace', 'hasName']), target: 'updating', actions: 'rememberUpdate' },
        DELETE: { guard: 'isKnownWorkspace', target: 'deleting', actions: 'rememberDelete' },
        SELECT: { guard: 'isKnownWorkspace', actions: 'select' },
        DISMISS_ERROR: { actions: 'dismissError' },
      },
    },
    creating: {
      invoke: {
        id: 'createWorkspace',
        src: 'createWorkspace',
        input: ({ context }) => context.pendingDraft!,
        onDone: { target: 'ready', actions: { type: 'addWorkspace', params: ({ event }) => ({ workspace: event.output }) } },
        onError: { target: 'ready', actions: [{ type: 'storeError', params: ({ event }) => ({ operation: 'create', error: event.error }) }, 'forgetPending'] },
      },
    },
    updating: {
      invoke: {
        id: 'updateWorkspace',
        src: 'updateWorkspace',
        input: ({ context }) => context.pendingUpdate!,
        onDone: { target: 'ready', actions: { type: 'replaceWorkspace', params: ({ event }) => ({ workspace: event.output }) } },
        onError: { target: 'ready', actions: [{ type: 'storeError', params: ({ event }) => ({ operation: 'update', error: event.error }) }, 'forgetPending'] },
      },
    },
    deleting: {
      invoke: {
        id: 'deleteWorkspace',
        src: 'deleteWorkspace',
        input: ({ context }) => ({ id: context.pendingDeleteId! }),
        onDone: { target: 'ready', actions: 'removeWorkspace' },
        onError: { target: 'ready', actions: [{ type: 'storeError', params: ({ event }) => ({ operation: 'delete', error: event.error }) }, 'forgetPending'] },
      },
    },
  },
});

export type WorkspaceSnapshot = SnapshotFrom<typeof workspaceMachine>;

export function selectedWorkspace(snapshot: WorkspaceSnapshot): Workspace | null {
  return snapshot.context.workspaces.find((w) => w.id === snapshot.context.selectedId) ?? null;
}
