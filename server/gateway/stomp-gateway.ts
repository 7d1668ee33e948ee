/**
 * STOMP 1.2 over WebSocket for the exchange server. The HTTP server hands over upgrade requests on
 * `path`; every socket becomes a Connection; publish() and sendToUser() fan out prepared frames
 * without ever waiting for a client.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { Connection, jsonBody, PreparedMessage } from './connection.ts';
import { privateKey, topicKey, SubscriptionRegistry } from './subscriptions.ts';
import type { ResolvedOptions, SessionInfo, StompGateway, StompGatewayOptions } from './types.ts';

export type { GatewayStats, Principal, SendSession, SessionInfo, StompGateway, StompGatewayOptions } from './types.ts';

export const STOMP_SUBPROTOCOL = 'v12.stomp';

export function createStompGateway(options: StompGatewayOptions): StompGateway {
  const resolved: ResolvedOptions = {
    server: options.server,
    path: options.path ?? '/session/ws',
    authenticate: options.authenticate,
    authorize: options.authorize,
    onSubscribe: options.onSubscribe,
    onSend: options.onSend,
    checkConnect: options.checkConnect,
    onSessionOpened: options.onSessionOpened,
    onSessionClosed: options.onSessionClosed,
    onRefused: options.onRefused,
    heartbeatMs: options.heartbeatMs ?? 10_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    maxFrameBytes: options.maxFrameBytes ?? 64 * 1024,
    maxHeaders: options.maxHeaders ?? 32,
    maxBufferedBytes: options.maxBufferedBytes ?? 4 * 1024 * 1024,
    maxSubscriptionsPerConnection: options.maxSubscriptionsPerConnection ?? 500,
    maxSubscriptionsPerUser: options.maxSubscriptionsPerUser ?? 2000,
    maxConnectionsPerUser: options.maxConnectionsPerUser ?? 100,
    maxMessagesBeforeConnect: options.maxMessagesBeforeConnect ?? 256,
    now: options.now ?? Date.now,
    expiryCheckMs: options.expiryCheckMs ?? 1000,
  };
  const registry = new SubscriptionRegistry();
  const connections = new Set<Connection>();
  /** Authenticated connections per user: the per-user cap, endSessionsOf and the expiry sweep. */
  const sessionsByUser = new Map<string, Set<Connection>>();
  let messageSeq = 0;
  let connectionSeq = 0;
  let closed = false;

  const wss = new WebSocketServer({
    noServer: true,
    // One WebSocket message may batch several frames; one frame over the limit gets a STOMP
    // ERROR frame, a message over twice the limit is refused by ws itself (close code 1009).
    maxPayload: resolved.maxFrameBytes * 2,
    perMessageDeflate: false,
    clientTracking: false,
    handleProtocols: (protocols) => {
      if (protocols.has(STOMP_SUBPROTOCOL)) return STOMP_SUBPROTOCOL;
      const first = protocols.values().next();
      return first.done ? false : first.value;
    },
  });

  const context = {
    options: resolved,
    registry,
    nextMessageId: () => String(++messageSeq),
    onClosed: (connection: Connection) => {
      connections.delete(connection);
    },
    openSession: (connection: Connection): boolean => {
      const userId = connection.principal!.userId;
      let sessions = sessionsByUser.get(userId);
      if (!sessions) sessionsByUser.set(userId, (sessions = new Set()));
      if (sessions.size >= resolved.maxConnectionsPerUser) return false;
      sessions.add(connection);
      return true;
    },
    closeSession: (connection: Connection): void => {
      const userId = connection.principal?.userId;
      const sessions = userId === undefined ? undefined : sessionsByUser.get(userId);
      if (!sessions?.delete(connection) || sessions.size > 0) return;
      sessionsByUser.delete(userId!);
    },
    userSubscriptions: new Map<string, number>(),
    counters: { messagesSent: 0, slowConsumersDropped: 0 },
  };

  // A session ends when its token expires, even if the client sends nothing more.
  const expirySweep = setInterval(() => {
    for (const sessions of sessionsByUser.values()) {
      for (const connection of [...sessions]) if (connection.expired) connection.end('AUTH_TOKEN_EXPIRED');
    }
  }, resolved.expiryCheckMs);
  expirySweep.unref();

  const onConnection = (ws: WebSocket, request: IncomingMessage): void => {
    if (closed) {
      ws.terminate();
      return;
    }
    const connection = new Connection(ws, context, `s${++connectionSeq}`, request.socket.remoteAddress);
    connections.add(connection);
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
      let pathname: string;
    try {
      pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    } catch {
      pathname = '';
    }
    if (pathname !== resolved.path) {
      // Another upgrade listener may own that path; otherwise nobody will answer it.
      if (resolved.server.listenerCount('upgrade') <= 1) socket.destroy();
      return;
    }
    if (closed) {
      socket.destroy();
      return;
    }
    socket.on('error', () => socket.destroy());
    wss.handleUpgrade(request, socket, head, onConnection);
  };
  resolved.server.on('upgrade', onUpgrade);

  /**
   * Fans one body out to the subscriptions under `key`: the JSON and the frame's common bytes are built
   * once, then each connection gets one WebSocket message holding a frame per subscription id of its
   * own; connections with the same ids (stompjs numbers them alike) share those bytes.
   */
  const deliver = (key: string, destination: string, body: unknown, headers?: Record<string, string>): void => {
    const groups = registry.get(key);
    if (!groups || groups.size === 0) return;
    const message = new PreparedMessage(destination, String(++messageSeq), jsonBody(body), headers);
    const frames = new Map<string, Buffer>();
    // Deleting from the map while iterating it is safe: a dropped slow consumer simply leaves.
    for (const group of groups.values()) {
      let frame = frames.get(group.idsKey);
      if (!frame) {
        frame = message.framesFor(group.idBytes);
        frames.set(group.idsKey, frame);
      }
      group.target.sendRaw(frame);
    }
  };

  return {
    publish(destination, body, headers) {
      deliver(topicKey(destination), destination, body, headers);
    },
    sendToUser(userId, destination, body) {
      deliver(privateKey(userId, destination), destination, body);
    },
    subscriberCount(destination) {
      return registry.count(destination);
    },
    watched(destination) {
      return (registry.get(topicKey(destination))?.size ?? 0) > 0;
    },
    watchedBy(userId, destination) {
      return (registry.get(privateKey(userId, destination))?.size ?? 0) > 0;
    },
    connectionCount() {
      return connections.size;
    },
    stats() {
      return {
        connections: connections.size,
        subscriptions: registry.total,
        slowConsumersDropped: context.counters.slowConsumersDropped,
        messagesSent: context.counters.messagesSent,
      };
    },
    sessions() {
      const out: SessionInfo[] = [];
      for (const sessions of sessionsByUser.values()) {
        for (const connection of sessions) {
          if (connection.principal) out.push({ principal: connection.principal, since: connection.connectedAt, subscriptions: connection.subscriptionCount });
        }
      }
      return out;
    },
    endSessionsOf(userId, code, params = {}) {
      const sessions = [...(sessionsByUser.get(userId) ?? [])];
      for (const connection of sessions) connection.end(code, params);
      return sessions.length;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(expirySweep);
      resolved.server.off('upgrade', onUpgrade);
      await Promise.all([...connections].map((connection) => connection.shutdown()));
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
