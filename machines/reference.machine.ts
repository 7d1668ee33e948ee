/**
 * The session's reference data (markets, rings, assets): loaded once when the session starts, kept,
 * and when the load fails, kept as a refusal the views can show with a way to try again (RETRY).
 * The views read the data from here instead of each fetching its own copy.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { AssetSpecification, Market, Ring } from '../protocol/reference.ts';
import { toClientError, type ClientError } from '../streams/api.ts';

export interface ReferenceData {
  markets: readonly Market[];
  rings: readonly Ring[];
  assets: readonly AssetSpecification[];
}

export interface ReferenceContext {
  data: ReferenceData | null;
  error: ClientError | null;
}

export type ReferenceEvent = { type: 'RETRY' };

const loadReference = fromPromise<ReferenceData>(async () => {
  throw new Error('loadReference actor not provided: use referenceMachine.provide()');
});

export const referenceMachine = setup({
  types: {
    context: {} as ReferenceContext,
    events: {} as ReferenceEvent,
  },
  actors: { loadReference },
  actions: {
    keepData: assign((_, params: { data: ReferenceData }) => ({ data: params.data, error: null })),
    keepError: assign((_, params: { error: unknown }) => ({ error: toClientError(params.error) })),
  },
}).createMachine({
  id: 'reference',
  context: { data: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadReference',
        src: 'loadReference',
        onDone: { target: 'ready', actions: { type: 'keepData', params: ({ event }) => ({ data: event.output }) } },
        onError: { target: 'failed', actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {},
    failed: {
      on: { RETRY: 'loading' },
    },
  },
});

export type ReferenceSnapshot = SnapshotFrom<typeof referenceMachine>;

/** The machine with its load (the app's cached REST calls, or a test's). */
export function referenceMachineWith(load: () => Promise<ReferenceData>) {
  return referenceMachine.provide({ actors: { loadReference: fromPromise(() => load()) } });
}

const noMarkets: readonly Market[] = [];
const noAssets: readonly AssetSpecification[] = [];

export function selectMarkets(snapshot: ReferenceSnapshot): readonly Market[] {
  return snapshot.context.data?.markets ?? noMarkets;
}

export function selectAssets(snapshot: ReferenceSnapshot): readonly AssetSpecification[] {
  return snapshot.context.data?.assets ?? noAssets;
}
