/**
 * STOMP 1.2 over WebSocket for the exchange server. The HTTP server hands over upgrade requests on
 * `path`; every socket becomes a Connection; publish() and sendToUser() fan out prepared frames
 * without ever waiting for a client.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { Connection, encodeMessage, jsonBody } from './connection.ts';
import { privateKey, topicKey, SubscriptionRegistry } from './subscriptions.ts';
import type { ResolvedOptions, StompGateway, StompGatewayOptions } from './types.ts';

export type { Principal, StompGateway, StompGatewayOptions } from './types.ts';

export const STOMP_SUBPROTOCOL = 'v12.stomp';

export function createStompGateway(options: StompGatewayOptions): StompGateway {
  const resolved: ResolvedOptions = {
    server: options.server,
    path: options.path ?? '/session/ws',
    authenticate: options.authenticate,
    authorize: options.authorize,
    onSubscribe: options.onSubscribe,
    onSend: options.onSend,
    onSessionOpened: options.onSessionOpened,
    onSessionClosed: options.onSessionClosed,
    heartbeatMs: options.heartbeatMs ?? 10_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    maxFrameBytes: options.maxFrameBytes ?? 64 * 1024,
    maxHeaders: options.maxHeaders ?? 32,
    maxBufferedBytes: options.maxBufferedBytes ?? 4 * 1024 * 1024,
  };
  const registry = new SubscriptionRegistry();
  const connections = new Set<Connection>();
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
  };

  const onConnection = (ws: WebSocket): void => {
    if (closed) {
      ws.terminate();
      return;
    }
    const connection = new Connection(ws, context, `s${++connectionSeq}`);
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

  /** Fans one body out to the subscriptions under `key`; frame bytes are cached per subscription id. */
  const deliver = (key: string, destination: string, body: unknown, headers?: Record<string, string>): void => {
    const subscriptions = registry.get(key);
    if (!subscriptions || subscriptions.size === 0) return;
    const bodyBytes = jsonBody(body);
    const messageId = String(++messageSeq);
    const frames = new Map<string, Buffer>();
    // Deleting from a Set while iterating it is safe: a dropped slow consumer simply leaves.
    for (const subscription of subscriptions) {
      let frame = frames.get(subscription.id);
      if (!frame) {
        frame = encodeMessage(destination, subscription.id, messageId, bodyBytes, headers);
        frames.set(subscription.id, frame);
      }
      subscription.target.sendRaw(frame);
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
    connectionCount() {
      return connections.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      resolved.server.off('upgrade', onUpgrade);
      await Promise.all([...connections].map((connection) => connection.shutdown()));
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
