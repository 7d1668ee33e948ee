/**
 * The root of a signed-in client session on one connection: it spawns the connection machine, the
 * user's orders (my-orders, each order through the order-lifecycle machine) and the reference data
 * (markets, rings, assets, with the load's error state) when it starts, and one
 * session-phase actor per market or asset when a view first asks for it (WATCH_PHASE), shared by every
 * view after that. The app (src/realtime/RealtimeProvider.tsx) and the recorded-session replays
 * (tests/streams/session-stack.ts) run this same composition on the same session streams.
 */
import { assign, setup, type ActorRefFrom } from 'xstate';
import type { Connection } from '../streams/connection.ts';
import type { SessionStreams } from '../streams/session.ts';
import { connectionMachine, connectionMachineFor } from './connection.machine.ts';
import { myOrdersMachine, myOrdersMachineFrom } from './my-orders.machine.ts';
import { referenceMachine, referenceMachineWith, type ReferenceData } from './reference.machine.ts';
import { sessionPhaseMachine, sessionPhaseMachineOf } from './session-phase.machine.ts';

export type SessionEvent = { type: 'WATCH_PHASE'; marketId: string; assetId?: string | null };

export type PhaseActorRef = ActorRefFrom<typeof sessionPhaseMachine>;

export interface SessionContext {
  connection: ActorRefFrom<typeof connectionMachine>;
  myOrders: ActorRefFrom<typeof myOrdersMachine>;
  /** Markets, rings and assets, with the load's error state. */
  reference: ActorRefFrom<typeof referenceMachine>;
  /** Session-phase actors by phaseKey(marketId, assetId). */
  phases: Readonly<Record<string, PhaseActorRef>>;
}

/** The key of a market's (assetId null) or an asset's phase actor. */
export function phaseKey(marketId: string, assetId: string | null = null): string {
  return assetId === null ? `phase:${marketId}` : `phase:${marketId}:${assetId}`;
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  // The defaults follow nothing; sessionMachineFor provides the ones fed by a connection.
  actors: { connection: connectionMachine, myOrders: myOrdersMachine, reference: referenceMachine, phase: sessionPhaseMachine },
  guards: {
    phaseNotWatched: ({ context, event }) => context.phases[phaseKey(event.marketId, event.assetId ?? null)] === undefined,
  },
  actions: {
    spawnPhase: assign({
      phases: ({ context, event, spawn }) => {
        const id = phaseKey(event.marketId, event.assetId ?? null);
        return { ...context.phases, [id]: spawn('phase', { id, input: { marketId: event.marketId, assetId: event.assetId ?? null } }) };
      },
    }),
  },
}).createMachine({
  id: 'session',
  context: ({ spawn }) => ({
    connection: spawn('connection', { id: 'connection' }),
    myOrders: spawn('myOrders', { id: 'myOrders' }),
    reference: spawn('reference', { id: 'reference' }),
    phases: {},
  }),
  on: {
    WATCH_PHASE: { guard: 'phaseNotWatched', actions: 'spawnPhase' },
  },
});

/**
 * The session of a connection: its state, its orders (queue and replies of `streams`), its phases, and
 * its reference data from `loadReference` (none given: the reference actor fails at once, which
 * nothing of a replay reads).
 */
export function sessionMachineFor(connection: Connection, streams: SessionStreams, loadReference?: () => Promise<ReferenceData>) {
  return sessionMachine.provide({
    actors: {
      connection: connectionMachineFor(connection),
      myOrders: myOrdersMachineFrom(streams.orderUpdates$),
      ...(loadReference ? { reference: referenceMachineWith(loadReference) } : {}),
      phase: sessionPhaseMachineOf((input) => streams.phaseUpdates$(input.marketId, input.assetId ?? null)),
    },
  });
}

export type SessionActorRef = ActorRefFrom<typeof sessionMachine>;

/** The phase actor of a market or asset, spawned on first use. */
export function watchPhase(session: SessionActorRef, marketId: string, assetId: string | null = null): PhaseActorRef {
  session.send({ type: 'WATCH_PHASE', marketId, assetId });
  return session.getSnapshot().context.phases[phaseKey(marketId, assetId)]!;
}
