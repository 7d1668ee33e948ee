/**
 * The gateway's shared types: what the server gives createStompGateway (options, the principal of a
 * connection) and what it gets back. In their own file so connection.ts and stomp-gateway.ts both
 * import them without importing each other.
 */
import type { Server } from 'node:http';
import type { ErrorCode, ParsedDestination } from '../../protocol/index.ts';

export interface Principal {
  userId: string;
  username: string;
  roles: string[];
  clientCodes: string[];
  marketIds: string[];
  /** When the session's token expires, ms on the gateway's clock (`now`); the session ends then. */
  expiresAt?: number;
}

/**
 * How a session ended, for onSessionClosed. `graceful`: the client sent DISCONNECT. `reason`:
 * 'disconnect', 'shutdown' (the server closes), 'socketClosed' (the socket went away without a
 * frame), or the code of the ERROR frame that ended it (STOMP_HEARTBEAT_TIMEOUT, AUTH_TOKEN_EXPIRED…).
 */
export interface SessionEnd {
  graceful: boolean;
  reason: string;
  /** The CONNECT frame's headers, without the credentials (Authorization, passcode). */
  connectHeaders: Readonly<Record<string, string>>;
}

/** The session a SEND came on, for its hook. */
export interface SendSession {
  readonly id: string;
  /** To this session's own subscriptions of the private queue `destination` (none: nothing is sent). */
  reply(destination: string, body: unknown): void;
}

export interface StompGatewayOptions {
  /** Upgrades on `path` are taken; on other paths the socket is destroyed (unless another upgrade listener is attached). */
  server: Server;
  /** Default '/session/ws'. */
  path?: string;
  /** Resolves the bearer token of CONNECT; throws ExchangeError AUTH_TOKEN_EXPIRED / AUTH_TOKEN_INVALID. */
  authenticate(token: string): Promise<Principal>;
  /** Topic access. Private `/user/queue/*` destinations are always the principal's own and skip this. */
  authorize(principal: Principal, destination: ParsedDestination): boolean;
  /** Called after a subscription is registered; `reply` sends to that one subscription (a snapshot). */
  onSubscribe?(principal: Principal, destination: string, reply: (body: unknown, headers?: Record<string, string>) => void): void;
  /**
   * SEND to an application destination (`/app/...`); a thrown ExchangeError becomes an ERROR frame, then close.
   * A returned promise holds the session's next frames and its RECEIPT until it settles.
   */
  onSend?(principal: Principal, destination: string, body: string, headers: Record<string, string>, session: SendSession): Promise<void> | void;
  /**
   * Called after authentication, before CONNECTED, with the CONNECT headers (credentials removed):
   * a thrown ExchangeError refuses the CONNECT with its code (a header the server does not accept).
   */
  checkConnect?(principal: Principal, connectHeaders: Readonly<Record<string, string>>): void;
  /** A connection was authenticated (CONNECTED sent): presence. Exceptions are ignored. */
  onSessionOpened?(principal: Principal, sessionId: string, connectHeaders: Readonly<Record<string, string>>): void;
  /** An authenticated connection ended (DISCONNECT, refusal, drop, socket close, shutdown); once per opened session. */
  onSessionClosed?(principal: Principal, sessionId: string, end: SessionEnd): void;
  /**
   * A refusal that ends a connection with an ERROR frame (the audit keeps STOMP_DESTINATION_FORBIDDEN),
   * with the session's principal (undefined before CONNECT) and the socket's remote address. Exceptions are ignored.
   */
  onRefused?(refusal: { code: ErrorCode; params: Record<string, string | number> }, principal: Principal | undefined, remoteAddress: string | undefined): void;
  /** Heart-beat the server offers both ways, ms. Default 10000; 0 disables heart-beating. */
  heartbeatMs?: number;
  /** A socket without a successful CONNECT is closed after this, ms. Default 5000. */
  connectTimeoutMs?: number;
  /** Largest client frame, bytes. Default 64 KiB. */
  maxFrameBytes?: number;
  /** Most headers in a client frame. Default 32. */
  maxHeaders?: number;
  /** Per-connection outbound buffer; beyond it the connection is dropped (slow consumer). Default 4 MiB. */
  maxBufferedBytes?: number;
  /** Subscriptions one connection may hold; one more is refused with STOMP_TOO_MANY_SUBSCRIPTIONS. Default 500. */
  maxSubscriptionsPerConnection?: number;
  /** Subscriptions one user may hold over all its connections. Default 2000. */
  maxSubscriptionsPerUser?: number;
  /** Authenticated connections one user may hold; one more is refused with STOMP_TOO_MANY_CONNECTIONS. Default 100. */
  maxConnectionsPerUser?: number;
  /** WebSocket messages a socket may send before its CONNECT is answered (STOMP_TOO_MANY_FRAGMENTS). Default 256. */
  maxMessagesBeforeConnect?: number;
  /** The clock of `Principal.expiresAt`. Default Date.now. */
  now?: () => number;
  /** How often sessions are checked for an expired token, ms. Default 1000. */
  expiryCheckMs?: number;
}

export interface StompGateway {
  /**
   * To every subscriber of a topic. The body is JSON-serialised once and the frame's common bytes built
   * once; a connection gets one WebSocket message however many of its subscriptions match.
   */
  publish(destination: string, body: unknown, headers?: Record<string, string>): void;
  /** To the private queue `destination` of every connection of `userId` subscribed to it. */
  sendToUser(userId: string, destination: string, body: unknown): void;
  /** Subscriptions to `destination` (for a private queue: across all users). */
  subscriberCount(destination: string): number;
  /** Whether any connection subscribes to the topic `destination`: a body for nobody need not be built. */
  watched(destination: string): boolean;
  /** Whether any connection of `userId` subscribes to its private queue `destination`. */
  watchedBy(userId: string, destination: string): boolean;
  /** Open WebSocket connections, authenticated or not. */
  connectionCount(): number;
  /** The operator console's gateway figures: running totals since start (cheap to read). */
  stats(): GatewayStats;
  /** The open (authenticated) sessions: who, since when, with how many subscriptions. */
  sessions(): SessionInfo[];
  /** Ends every session of `userId` with an ERROR frame carrying `code` (a password change, a revoked token), then closes it. */
  endSessionsOf(userId: string, code: ErrorCode, params?: Record<string, string | number>): number;
  /** Stops taking upgrades and closes every connection (code 1001). */
  close(): Promise<void>;
}

export interface GatewayStats {
  /** Open WebSocket connections, authenticated or not. */
  connections: number;
  /** Subscriptions across all connections. */
  subscriptions: number;
  /** Connections closed as slow consumers since start. */
  slowConsumersDropped: number;
  /** WebSocket messages written to clients since start (a rate is the difference of two readings). */
  messagesSent: number;
}

export interface SessionInfo {
  principal: Principal;
  /** When CONNECTED was sent, ms on the gateway's clock. */
  since: number;
  subscriptions: number;
}

type OptionalHooks = 'onSubscribe' | 'onSend' | 'checkConnect' | 'onSessionOpened' | 'onSessionClosed' | 'onRefused';
/** The options with their defaults filled in; the hooks stay optional. */
export type ResolvedOptions = Required<Omit<StompGatewayOptions, OptionalHooks>> & Pick<StompGatewayOptions, OptionalHooks>;
