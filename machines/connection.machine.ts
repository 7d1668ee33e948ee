/**
 * The connection as the views see it: connecting, connected, reconnecting (attempt and next delay
 * in context), offline. It mirrors `connectionState$` of streams/connection.ts and never invents a
 * state: every state accepts every event of the stream.
 */
import { EMPTY, map, type Observable } from 'rxjs';
import { assign, fromEventObservable, setup, type SnapshotFrom } from 'xstate';
import type { ConnectionState } from '../streams/connection.ts';

export type OfflineReason = 'idle' | 'disconnected' | 'gaveUp';

export type ConnectionMachineEvent =
  | { type: 'CONNECTING'; attempt: number }
  | { type: 'CONNECTED'; generation: number }
  | { type: 'RECONNECTING'; attempt: number; nextDelayMs: number }
  | { type: 'OFFLINE'; reason: OfflineReason };

export interface ConnectionMachineContext {
  /** Attempt in progress or waited for; 0 for the first connect. */
  attempt: number;
  /** Delay before the next attempt while reconnecting; null otherwise. */
  nextDelayMs: number | null;
  /** Successful connects so far (from the stream). */
  generation: number;
  offlineReason: OfflineReason | null;
}

export function connectionStateToEvent(state: ConnectionState): ConnectionMachineEvent {
  switch (state.status) {
    case 'connecting':
      return { type: 'CONNECTING', attempt: state.attempt };
    case 'connected':
      return { type: 'CONNECTED', generation: state.generation };
    case 'reconnecting':
      return { type: 'RECONNECTING', attempt: state.attempt, nextDelayMs: state.nextDelayMs };
    case 'offline':
      return { type: 'OFFLINE', reason: state.reason };
  }
}

/** The stream enters here; the default is empty (provide one with connectionMachineFor). */
const connectionStates = fromEventObservable<ConnectionMachineEvent, void>(() => EMPTY);

export const connectionMachine = setup({
  types: {
    context: {} as ConnectionMachineContext,
    events: {} as ConnectionMachineEvent,
  },
  actors: { connectionStates },
  actions: {
    recordConnecting: assign((_, params: { attempt: number }) => ({ attempt: params.attempt, nextDelayMs: null, offlineReason: null })),
    recordConnected: assign((_, params: { generation: number }) => ({ attempt: 0, nextDelayMs: null, generation: params.generation, offlineReason: null })),
    recordReconnecting: assign((_, params: { attempt: number; nextDelayMs: number }) => ({ attempt: params.attempt, nextDelayMs: params.nextDelayMs, offlineReason: null })),
    recordOffline: assign((_, params: { reason: OfflineReason }) => ({ nextDelayMs: null, offlineReason: params.reason })),
  },
}).createMachine({
  id: 'connection',
  initial: 'offline',
  context: { attempt: 0, nextDelayMs: null, generation: 0, offlineReason: 'idle' },
  invoke: { id: 'connectionStates', src: 'connectionStates' },
  on: {
    CONNECTING: { target: '.connecting', actions: { type: 'recordConnecting', params: ({ event }) => ({ attempt: event.attempt }) } },
    CONNECTED: { target: '.connected', actions: { type: 'recordConnected', params: ({ event }) => ({ generation: event.generation }) } },
    RECONNECTING: {
      target: '.reconnecting',
      actions: { type: 'recordReconnecting', params: ({ event }) => ({ attempt: event.attempt, nextDelayMs: event.nextDelayMs }) },
    },
    OFFLINE: { target: '.offline', actions: { type: 'recordOffline', params: ({ event }) => ({ reason: event.reason }) } },
  },
  states: {
    offline: {},
    connecting: {},
    connected: { tags: ['online'] },
    reconnecting: {},
  },
});

export type ConnectionMachineSnapshot = SnapshotFrom<typeof connectionMachine>;

/** The machine fed by a connection's state stream. */
export function connectionMachineFor(source: { connectionState$: Observable<ConnectionState> }) {
  return connectionMachine.provide({
    actors: {
      connectionStates: fromEventObservable<ConnectionMachineEvent, void>(() => source.connectionState$.pipe(map(connectionStateToEvent))),
    },
  });
}

export function isOnline(snapshot: ConnectionMachineSnapshot): boolean {
  return snapshot.hasTag('online');
}
