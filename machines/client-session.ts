/**
 * The one client session stack (issue 16): per connection, the session streams of streams/session.ts
 * and the root session machine of session.machine.ts over them. The app (src/realtime/RealtimeProvider.tsx,
 * on the exchange's socket), the QA player (src/qa/, on a recording's player) and the recorded-session
 * replays (tests/streams/session-stack.ts) all build their session here.
 */
import type { Observable } from 'rxjs';
import type { OrderUpdate } from '../protocol/market-data.ts';
import type { Connection } from '../streams/connection.ts';
import type { FrameScheduler } from '../streams/frame.ts';
import { sessionStreams, type SessionStreams } from '../streams/session.ts';
import type { ReferenceData } from './reference.machine.ts';
import { sessionMachineFor } from './session.machine.ts';

export interface ClientSessionOptions {
  /** The replies to the user's own order calls (the app's orders API); none in a replay. */
  orderReplies$?: Observable<OrderUpdate>;
  /** When books and market watch tables are shown (default: once an animation frame). */
  frames?: FrameScheduler;
  /** The session's reference data (markets, rings, assets). */
  loadReference?: () => Promise<ReferenceData>;
}

export interface ClientSession {
  streams: SessionStreams;
  /** The root session machine on these streams; the caller runs it (createActor or useActorRef). */
  machine: ReturnType<typeof sessionMachineFor>;
}

/**
 * The session of a connection. Its streams are the connection's shared ones (sessionStreams): the
 * views that take their streams from the connection get these, made first here with the options.
 */
export function clientSessionFor(connection: Connection, options: ClientSessionOptions = {}): ClientSession {
  const streams = sessionStreams(connection, {
    ...(options.orderReplies$ ? { orderReplies$: options.orderReplies$ } : {}),
    ...(options.frames ? { frames: options.frames } : {}),
  });
  return { streams, machine: sessionMachineFor(connection, streams, options.loadReference) };
}
