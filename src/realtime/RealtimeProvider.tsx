import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { createActor, type ActorRefFrom } from 'xstate';
import { connectionMachine } from '../../machines/connection.machine.ts';
import type { myOrdersMachine } from '../../machines/my-orders.machine.ts';
import { clientSessionFor } from '../../machines/client-session.ts';
import { watchPhase, type SessionActorRef } from '../../machines/session.machine.ts';
import type { SessionPhase } from '../../protocol/enums.ts';
import { createConnection, type Connection } from '../../streams/connection.ts';
import { useConnection } from '../../streams/react.ts';
import { fetchAssets, fetchMarkets } from '../api/reference.ts';
import { orderReplies } from './order-replies.ts';
import { sessionRecording } from '../qa/session-recording.ts';
import { activeToken } from '../auth/session.ts';
import { useAuth } from '../auth/use-auth.ts';

/**
 * The realtime channel for the views: one STOMP connection (streams/connection.ts, through the hub)
 * while a user is signed in, and the connection machine (machines/connection.machine.ts) that mirrors
 * its state for the connection indicator. Signed out, there is no connection.
 */
export interface Realtime {
  connection: Connection;
  connectionActor: ActorRefFrom<typeof connectionMachine>;
  /** The user's orders: the order queue and the replies to the user's order calls, per order a lifecycle. */
  myOrders: ActorRefFrom<typeof myOrdersMachine>;
  /** The root of the session (machines/session.machine.ts): the two above and the phase actors. */
  session: SessionActorRef;
}

const RealtimeContext = createContext<Realtime | null>(null);

export const HEARTBEAT_MS = 10_000;

/** The session's reference data: the cached REST calls of src/api/reference.ts. */
export async function loadReference() {
  const [{ markets, rings }, assets] = await Promise.all([fetchMarkets(), fetchAssets()]);
  return { markets, rings, assets };
}

export function exchangeSocketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/session/ws`;
}

/** The app's connection: CONNECT carries the current token, fetched again before every attempt. */
export function createExchangeConnection(): Connection {
  return createConnection({
    url: exchangeSocketUrl(),
    getToken: () => activeToken() ?? Promise.reject(new Error('signed out')),
    heartbeatMs: HEARTBEAT_MS,
    backoff: { initialMs: 500, maxMs: 30_000, jitter: 0.5 },
    // The in-app session recording (src/qa/session-recording.ts) listens here while it records.
    taps: [sessionRecording.tapForNewConnection()],
  });
}

function SessionActor({ connection, onReady }: { connection: Connection; onReady: (value: Realtime | null) => void }) {
  // The one client session stack (machines/client-session.ts); its streams are made here first, so they carry the order replies.
  const machine = useMemo(() => clientSessionFor(connection, { orderReplies$: orderReplies, loadReference }).machine, [connection]);
  const session = useActorRef(machine);
  useEffect(() => {
    sessionRecording.sessionStarted(connection, session);
    onReady(realtimeOf(connection, session));
    return () => onReady(null);
  }, [connection, session, onReady]);
  return null;
}

const connectionKeys = new WeakMap<Connection, number>();
let nextConnectionKey = 1;
function connectionKey(connection: Connection): number {
  let key = connectionKeys.get(connection);
  if (key === undefined) connectionKeys.set(connection, (key = nextConnectionKey++));
  return key;
}

function ConnectionHolder({ create, onReady }: { create: () => Connection; onReady: (value: Realtime | null) => void }) {
  // Starting a recording makes a new live session (a new key, a new connection) recorded from its first byte.
  const generation = useSyncExternalStore(sessionRecording.subscribe, () => sessionRecording.generation);
  const connection = useConnection(generation === 0 ? 'exchange' : `exchange#${generation}`, create);
  // One session per connection: a new connection (a recording started) makes a new session actor.
  return connection ? <SessionActor key={connectionKey(connection)} connection={connection} onReady={onReady} /> : null;
}

export interface RealtimeProviderProps {
  children: ReactNode;
  /** False turns the channel off (component tests without a server). */
  enabled?: boolean;
  create?: () => Connection;
}

export function RealtimeProvider({ children, enabled = true, create = createExchangeConnection }: RealtimeProviderProps) {
  const { signedIn } = useAuth();
  const [realtime, setRealtime] = useState<Realtime | null>(null);
  return (
    <RealtimeContext.Provider value={signedIn ? realtime : null}>
      {enabled && signedIn && <ConnectionHolder create={create} onReady={setRealtime} />}
      {children}
    </RealtimeContext.Provider>
  );
}

/**
 * A session made elsewhere (the QA player's, on a recording) for the views below: they read it as they
 * read the live one.
 */
export function RealtimeScope({ value, children }: { value: Realtime; children: ReactNode }) {
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

/** The realtime value of a running session actor on its connection. */
export function realtimeOf(connection: Connection, session: SessionActorRef): Realtime {
  const { connection: connectionActor, myOrders } = session.getSnapshot().context;
  return { connection, connectionActor, myOrders, session };
}

export function useRealtime(): Realtime | null {
  return useContext(RealtimeContext);
}

/** Stands in when there is no connection, so hooks can always select from an actor. */
const idleConnectionActor = createActor(connectionMachine).start();

export type ConnectionIndicatorStatus = 'offline' | 'connecting' | 'connected' | 'reconnecting';

/** The connection machine's state, or null when there is no connection (signed out). */
export function useConnectionStatus(): ConnectionIndicatorStatus | null {
  const realtime = useRealtime();
  const status = useSelector(realtime?.connectionActor ?? idleConnectionActor, (snapshot) => snapshot.value as ConnectionIndicatorStatus);
  return realtime ? status : null;
}

function LivePhase({ session, marketId, render }: { session: SessionActorRef; marketId: string; render: (phase: SessionPhase | null) => ReactNode }) {
  const actor = useMemo(() => watchPhase(session, marketId), [session, marketId]);
  const phase = useSelector(actor, (snapshot) => snapshot.context.phase);
  return <>{render(phase)}</>;
}

/**
 * Renders a market's session phase from the session-phase machine fed by the phase topic (the server
 * sends the current phase on subscribe); null until it arrives or without a connection.
 */
export function MarketPhase({ marketId, children }: { marketId: string; children: (phase: SessionPhase | null) => ReactNode }) {
  const realtime = useRealtime();
  if (!realtime) return <>{children(null)}</>;
  return <LivePhase key={marketId} session={realtime.session} marketId={marketId} render={children} />;
}
