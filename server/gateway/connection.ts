/**
 * One STOMP session over one WebSocket: CONNECT and authentication, heart-beats, SUBSCRIBE,
 * UNSUBSCRIBE, SEND, receipts, DISCONNECT, and the ERROR-then-close path for every refusal.
 */
import type { WebSocket, RawData } from 'ws';
import { ExchangeError, isErrorCode, parseDestination, type ErrorCode } from '../../protocol/index.ts';
import { encodeFrame, escapeHeader, FrameError, FrameParser, HEARTBEAT, type HeaderList, type StompFrame } from './frame-codec.ts';
import { idBytesOf, privateKey, topicKey, type DeliveryTarget, type Subscription, type SubscriptionRegistry } from './subscriptions.ts';
import type { Principal, ResolvedOptions } from './types.ts';

export const SERVER_NAME = 'energy-exchange-gateway/0.1';
const SUPPORTED_VERSION = '1.2';
/** Frames queued behind an unfinished asynchronous step before the socket stops being read. */
const MAX_QUEUED_FRAMES = 64;
/** After an ERROR frame the peer gets this long to finish the close handshake. */
const CLOSE_GRACE_MS = 1000;
/** A dropped slow consumer gets longer to read its ERROR frame behind its backlog (at most maxBufferedBytes held). */
const SLOW_CONSUMER_GRACE_MS = 5000;
/** Replayed messages sent per turn of the event loop: a replay of thousands of orders never holds the server. */
export const REPLAY_CHUNK = 64;

export interface ConnectionContext {
  options: ResolvedOptions;
  registry: SubscriptionRegistry;
  nextMessageId(): string;
  onClosed(connection: Connection): void;
  /** An authenticated session starts; false when its user already has the most sessions allowed. */
  openSession(connection: Connection): boolean;
  closeSession(connection: Connection): void;
  /** Subscriptions of a user over all its connections. */
  userSubscriptions: Map<string, number>;
  /** The operator console's counters: plain increments on the hot path. */
  counters: GatewayCounters;
}

/** Running totals since the gateway started (the operator console samples them). */
export interface GatewayCounters {
  /** WebSocket messages written to clients. */
  messagesSent: number;
  /** Connections closed as slow consumers (STOMP_SLOW_CONSUMER). */
  slowConsumersDropped: number;
}

type State = 'awaiting-connect' | 'authenticating' | 'connected' | 'closing' | 'closed';

interface Refusal {
  code: ErrorCode;
  params: Record<string, string | number>;
  message?: string;
}

/** Reads an error as a catalogue refusal; anything else becomes UNKNOWN_ERROR (no stack on the wire). */
function toRefusal(error: unknown): Refusal {
  if (error instanceof FrameError || error instanceof GatewayRefusal) return { code: error.code, params: error.params, message: error.message };
  if (error instanceof ExchangeError) return { code: error.code, params: error.params as Record<string, string | number> };
  if (error && typeof error === 'object' && isErrorCode((error as { code?: unknown }).code)) {
    const params = (error as { params?: unknown }).params;
    return {
      code: (error as { code: ErrorCode }).code,
      params: params && typeof params === 'object' ? (params as Record<string, string | number>) : {},
    };
  }
  return { code: 'UNKNOWN_ERROR', params: {} };
}

/** A refusal raised inside the gateway; `message` goes to the ERROR frame's message header. */
class GatewayRefusal extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number>,
    message: string,
  ) {
    super(message);
  }
}

function refuse(code: ErrorCode, params: Record<string, string | number> = {}, message?: string): never {
  throw new GatewayRefusal(code, params, message ?? code);
}

function parseHeartBeat(value: string | undefined): [number, number] {
  if (value === undefined) return [0, 0];
  const match = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(value);
  if (!match) refuse('STOMP_FRAME_MALFORMED', {}, 'invalid heart-beat header');
  return [Number(match[1]), Number(match[2])];
}

/** The CONNECT headers a hook may see: the token stays inside the gateway. */
function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!/^(authorization|passcode|login)$/i.test(name)) out[name] = value;
  return out;
}

function tokenFrom(headers: Record<string, string>): string {
  const authorization = headers['Authorization'] ?? headers['authorization'];
  if (authorization !== undefined && authorization.trim() !== '') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim());
    if (!match?.[1]) refuse('AUTH_TOKEN_INVALID');
    return match[1];
  }
  const passcode = headers['passcode'];
  if (passcode !== undefined && passcode.trim() !== '') return passcode.trim();
  refuse('AUTH_TOKEN_MISSING');
}

export class Connection implements DeliveryTarget {
  readonly id: string;
  private state: State = 'awaiting-connect';
  private principalValue: Principal | undefined;
  private readonly parser: FrameParser;
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly queue: StompFrame[] = [];
  private busy = false;
  private paused = false;
  private sessionAnnounced = false;
  /** CONNECT's headers without the credentials, for the session hooks. */
  private connectHeaders: Readonly<Record<string, string>> = {};
  /** Why the session ends, set by the path that ends it (the socket's own close when none did). */
  private endReason: string | undefined;
  private lastReceivedAt = Date.now();
  private lastSentAt = Date.now();
  private connectTimer: NodeJS.Timeout | undefined;
  private outgoingTimer: NodeJS.Timeout | undefined;
  private incomingTimer: NodeJS.Timeout | undefined;
  private closeTimer: NodeJS.Timeout | undefined;
  /** WebSocket messages and bytes received before CONNECT was answered. */
  private messagesBeforeConnect = 0;
  private bytesBeforeConnect = 0;
  /** While a replay streams: everything else sent meanwhile waits behind it, in order. */
  private outbox: Array<Buffer | (() => Buffer)> | undefined;
  private outboxBytes = 0;
  private readonly closedPromise: Promise<void>;
  private resolveClosed!: () => void;
  /** When CONNECTED was sent (ms on the gateway's clock); 0 before. */
  private connectedAtValue = 0;

  constructor(
    private readonly ws: WebSocket,
    private readonly ctx: ConnectionContext,
    id: string,
    /** The socket's remote address, for the refusal hook (the audit of forbidden destinations). */
    private readonly remoteAddress?: string,
  ) {
    this.id = id;
    this.closedPromise = new Promise((resolve) => (this.resolveClosed = resolve));
    const { options } = ctx;
    this.parser = new FrameParser({ maxFrameBytes: options.maxFrameBytes, maxHeaders: options.maxHeaders });
    ws.binaryType = 'nodebuffer';
    ws.on('message', (data) => this.onData(data));
    ws.on('close', () => this.finish());
    // ws emits 'error' (bad WebSocket framing, payload over maxPayload, socket reset) and then 'close'.
    ws.on('error', () => this.release());
    this.connectTimer = setTimeout(() => {
      if (this.state === 'awaiting-connect' || this.state === 'authenticating') {
        this.fail({ code: 'STOMP_CONNECT_TIMEOUT', params: { timeoutMs: options.connectTimeoutMs } });
      }
    }, options.connectTimeoutMs);
    this.connectTimer.unref();
  }

  get principal(): Principal | undefined {
    return this.principalValue;
  }

  /** When the session was opened (ms on the gateway's clock); 0 before CONNECTED. */
  get connectedAt(): number {
    return this.connectedAtValue;
  }

  /** Subscriptions this session holds. */
  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  get isOpen(): boolean {
    return this.state !== 'closing' && this.state !== 'closed';
  }

  /** Resolves once the socket is closed. */
  get closed(): Promise<void> {
    return this.closedPromise;
  }

  /**
   * Sends prepared bytes. Checks the outbound buffer first: a client that does not read is dropped
   * (STOMP_SLOW_CONSUMER) rather than let the server buffer without bound. Never waits.
   */
  sendRaw(frame: Buffer): boolean {
    if (this.outbox && this.state !== 'closed') {
      this.outboxBytes += frame.length;
      if (this.outboxBytes + this.ws.bufferedAmount > this.ctx.options.maxBufferedBytes) {
        this.drop();
        return false;
      }
      this.outbox.push(frame);
      return true;
    }
    return this.write(frame);
  }

  /** Ends the session: an ERROR frame with `code`, then close (token expired, credentials changed). */
  end(code: ErrorCode, params: Record<string, string | number> = {}): void {
    this.fail({ code, params });
  }

  /** The session's token has expired on the gateway's clock. */
  get expired(): boolean {
    const expiresAt = this.principalValue?.expiresAt;
    return expiresAt !== undefined && this.ctx.options.now() >= expiresAt;
  }

  private write(frame: Buffer): boolean {
    if (this.state === 'closed' || this.ws.readyState !== this.ws.OPEN) return false;
    if (this.ws.bufferedAmount > this.ctx.options.maxBufferedBytes) {
      this.drop();
      return false;
    }
    this.ws.send(frame, { binary: false });
    this.lastSentAt = Date.now();
    this.ctx.counters.messagesSent++;
    return true;
  }

  /** Server shutdown: close politely, terminate if the peer does not answer. */
  shutdown(): Promise<void> {
    if (this.state !== 'closed') {
      this.endReason ??= 'shutdown';
      this.release();
      this.state = 'closing';
      try {
        this.ws.close(1001, 'server shutting down');
      } catch {
        this.ws.terminate();
      }
      this.armCloseTimer();
    }
    return this.closedPromise;
  }

  // ---- inbound ----

  private onData(data: RawData): void {
    this.lastReceivedAt = Date.now();
    if (!this.isOpen) return;
    const chunk = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (this.state === 'awaiting-connect' || this.state === 'authenticating') {
      // Before a token is checked a socket may cost little: a CONNECT comes in one message or a few.
      const { maxMessagesBeforeConnect, maxFrameBytes } = this.ctx.options;
      this.messagesBeforeConnect += 1;
      this.bytesBeforeConnect += chunk.length;
      if (this.messagesBeforeConnect > maxMessagesBeforeConnect) {
        this.fail({ code: 'STOMP_TOO_MANY_FRAGMENTS', params: { limit: maxMessagesBeforeConnect } });
        return;
      }
      if (this.bytesBeforeConnect > 2 * maxFrameBytes) {
        this.fail({ code: 'STOMP_FRAME_TOO_LARGE', params: { limitBytes: maxFrameBytes } });
        return;
      }
    }
    let items;
    try {
      items = this.parser.push(chunk);
    } catch (error) {
      this.fail(toRefusal(error));
      return;
    }
    for (const item of items) if (item !== 'heartbeat') this.queue.push(item);
    this.pump();
  }

  /** Handles queued frames in order; an asynchronous step (authenticate, onSend) holds the rest back. */
  private pump(): void {
    while (!this.busy && this.queue.length > 0 && this.isOpen) {
      const frame = this.queue.shift()!;
      let result: void | Promise<void>;
      try {
        result = this.handle(frame);
      } catch (error) {
        this.fail(toRefusal(error), frame.headers['receipt']);
        return;
      }
      if (result) {
        this.busy = true;
        result
          .catch((error: unknown) => {
            if (this.isOpen) this.fail(toRefusal(error), frame.headers['receipt']);
          })
          .finally(() => {
            this.busy = false;
            this.pump();
          });
      }
    }
    // Back-pressure: stop reading while frames pile up behind an asynchronous step.
    if (this.queue.length >= MAX_QUEUED_FRAMES && !this.paused && this.isOpen) {
      this.paused = true;
      this.ws.pause();
    } else if (this.paused && this.queue.length < MAX_QUEUED_FRAMES / 2) {
      this.paused = false;
      this.lastReceivedAt = Date.now();
      if (this.isOpen) this.ws.resume();
    }
  }

  private handle(frame: StompFrame): void | Promise<void> {
    if (this.state === 'awaiting-connect') {
      if (frame.command === 'CONNECT' || frame.command === 'STOMP') return this.handleConnect(frame);
      refuse('STOMP_NOT_CONNECTED', {}, `${frame.command} before CONNECT`);
    }
    const receipt = frame.headers['receipt'];
    // Checked on every frame as well as by the gateway's sweep: nothing is taken on an expired token.
    if (frame.command !== 'DISCONNECT' && this.expired) refuse('AUTH_TOKEN_EXPIRED');
    switch (frame.command) {
      case 'CONNECT':
      case 'STOMP':
        return refuse('STOMP_FRAME_MALFORMED', {}, 'already connected');
      case 'SUBSCRIBE': {
        const replay = this.handleSubscribe(frame);
        if (replay) return replay.then(() => this.sendReceipt(receipt));
        break;
      }
      case 'UNSUBSCRIBE':
        this.handleUnsubscribe(frame);
        break;
      case 'SEND': {
        const result = this.handleSend(frame);
        if (result) return result.then(() => this.sendReceipt(receipt));
        break;
      }
      case 'ACK':
      case 'NACK':
        // Every subscription is ack:auto; acknowledgements are accepted and have no effect.
        if (frame.headers['id'] === undefined) refuse('STOMP_FRAME_MALFORMED', {}, `${frame.command} without id`);
        break;
      case 'BEGIN':
      case 'COMMIT':
      case 'ABORT':
        return refuse('STOMP_FRAME_MALFORMED', {}, 'transactions are not supported');
      case 'DISCONNECT':
        this.handleDisconnect(receipt);
        return;
    }
    this.sendReceipt(receipt);
  }

  private handleConnect(frame: StompFrame): Promise<void> {
    const { headers } = frame;
    const versions = (headers['accept-version'] ?? '').split(',').map((v) => v.trim());
    if (!versions.includes(SUPPORTED_VERSION)) {
      refuse('STOMP_VERSION_UNSUPPORTED', { supported: SUPPORTED_VERSION }, 'accept-version must include 1.2');
    }
    const [clientSends, clientWants] = parseHeartBeat(headers['heart-beat']);
    const token = tokenFrom(headers);
    this.state = 'authenticating';
    return Promise.resolve()
      .then(() => this.ctx.options.authenticate(token))
      .then((principal) => {
        if (this.state !== 'authenticating') return;
        this.principalValue = principal;
        if (this.expired) refuse('AUTH_TOKEN_EXPIRED');
        this.connectHeaders = withoutCredentials(headers);
        this.ctx.options.checkConnect?.(principal, this.connectHeaders);
        if (!this.ctx.openSession(this)) refuse('STOMP_TOO_MANY_CONNECTIONS', { limit: this.ctx.options.maxConnectionsPerUser });
        this.state = 'connected';
        this.connectedAtValue = this.ctx.options.now();
        clearTimeout(this.connectTimer);
        this.connectTimer = undefined;
        const offer = Math.max(0, Math.floor(this.ctx.options.heartbeatMs));
        this.sendFrame('CONNECTED', [
          ['version', SUPPORTED_VERSION],
          ['heart-beat', `${offer},${offer}`],
          ['server', SERVER_NAME],
          ['session', this.id],
          ['user-name', principal.username],
        ]);
        this.startHeartbeats(offer, clientSends, clientWants);
        if (this.isOpen) this.announceSession(true);
      });
  }

  /**
   * Heart-beat negotiation (STOMP 1.2): the server sends every max(sx, cy) ms unless either is 0,
   * and expects the client every max(cx, sy) ms unless either is 0. Silence longer than twice
   * that closes the connection with STOMP_HEARTBEAT_TIMEOUT.
   */
  private startHeartbeats(offer: number, clientSends: number, clientWants: number): void {
    const outgoing = offer > 0 && clientWants > 0 ? Math.max(offer, clientWants) : 0;
    const incoming = offer > 0 && clientSends > 0 ? Math.max(offer, clientSends) : 0;
    // Lazy deadlines: one timer each, re-armed for what is left instead of reset on every frame.
    if (outgoing > 0) {
      const beat = (): void => {
        const idle = Date.now() - this.lastSentAt;
        if (idle >= outgoing - 1) this.sendRaw(HEARTBEAT);
        if (!this.isOpen) return;
        this.outgoingTimer = setTimeout(beat, Math.max(1, outgoing - (Date.now() - this.lastSentAt)));
        this.outgoingTimer.unref();
      };
      this.outgoingTimer = setTimeout(beat, outgoing);
      this.outgoingTimer.unref();
    }
    if (incoming > 0) {
      const timeoutMs = incoming * 2;
      this.lastReceivedAt = Date.now();
      const watch = (): void => {
        if (!this.isOpen) return;
        const silent = Date.now() - this.lastReceivedAt;
        if (silent > timeoutMs && !this.paused) {
          this.fail({ code: 'STOMP_HEARTBEAT_TIMEOUT', params: { timeoutMs } });
          return;
        }
        this.incomingTimer = setTimeout(watch, this.paused ? timeoutMs : Math.max(1, timeoutMs - silent + 1));
        this.incomingTimer.unref();
      };
      this.incomingTimer = setTimeout(watch, timeoutMs + 1);
      this.incomingTimer.unref();
    }
  }

  /** Returns a promise when the snapshot streams over several turns (or to yield after a hook): the next frame waits for it. */
  private handleSubscribe(frame: StompFrame): Promise<void> | undefined {
    const principal = this.principalValue!;
    const { options } = this.ctx;
    const id = frame.headers['id'];
    const destination = frame.headers['destination'];
    if (id === undefined || id === '') refuse('STOMP_FRAME_MALFORMED', {}, 'SUBSCRIBE without id');
    if (destination === undefined) refuse('STOMP_FRAME_MALFORMED', {}, 'SUBSCRIBE without destination');
    if (this.subscriptions.has(id)) refuse('STOMP_SUBSCRIPTION_DUPLICATE', { id });
    // Caps far above any terminal's needs: each subscription costs memory and a frame per message.
    if (this.subscriptions.size >= options.maxSubscriptionsPerConnection) {
      refuse('STOMP_TOO_MANY_SUBSCRIPTIONS', { limit: options.maxSubscriptionsPerConnection });
    }
    const userCount = this.ctx.userSubscriptions.get(principal.userId) ?? 0;
    if (userCount >= options.maxSubscriptionsPerUser) refuse('STOMP_TOO_MANY_SUBSCRIPTIONS', { limit: options.maxSubscriptionsPerUser });
    const parsed = parseDestination(destination);
    if (!parsed || parsed.kind === 'chatSend' || parsed.kind === 'orderEntry') refuse('STOMP_DESTINATION_UNKNOWN', { destination });
    const isPrivate = !('id' in parsed);
    if (!isPrivate && !options.authorize(principal, parsed)) {
      refuse('STOMP_DESTINATION_FORBIDDEN', { destination });
    }
    // The approval queues carry every workflow change, and the console the whole exchange: the operator's alone.
    if ((parsed.kind === 'workflowApprovals' || parsed.kind === 'operator') && !principal.roles.includes('administrator')) {
      refuse('STOMP_DESTINATION_FORBIDDEN', { destination });
    }
    const subscription: Subscription = {
      id,
      destination,
      key: isPrivate ? privateKey(principal.userId, destination) : topicKey(destination),
      target: this,
    };
    this.subscriptions.set(id, subscription);
    this.ctx.userSubscriptions.set(principal.userId, userCount + 1);
    this.ctx.registry.add(subscription);
    const onSubscribe = options.onSubscribe;
    if (!onSubscribe) return undefined;
    // The hook's replies are serialised at once (the state as of now) and sent after it returns.
    const replies: Array<() => Buffer> = [];
    let collecting = true;
    const reply = (body: unknown, headers?: Record<string, string>): void => {
      if (this.subscriptions.get(id) !== subscription || !this.isOpen) return;
      // The JSON now (the state as of the SUBSCRIBE); its bytes and the frame when it is sent.
      const json = JSON.stringify(body) ?? 'null';
      const messageId = this.ctx.nextMessageId();
      const encode = (): Buffer => encodeMessage(destination, id, messageId, Buffer.from(json, 'utf8'), headers);
      if (collecting) replies.push(encode);
      else this.sendRaw(encode());
    };
    try {
      onSubscribe(principal, destination, reply);
    } finally {
      collecting = false;
    }
    if (replies.length > REPLAY_CHUNK) return this.streamReplay(replies);
    for (const encode of replies) this.sendRaw(encode());
    // One SUBSCRIBE with a snapshot per turn: a burst of them cannot hold the event loop.
    return new Promise((resolve) => setImmediate(resolve));
  }

  /**
   * Sends a long snapshot REPLAY_CHUNK messages per turn of the event loop. Messages published to
   * this connection meanwhile queue behind it, so the client sees the snapshot, then the updates, in order.
   */
  private streamReplay(replies: Array<() => Buffer>): Promise<void> {
    const outbox: Array<Buffer | (() => Buffer)> = (this.outbox ??= []);
    outbox.push(...replies);
    let next = 0;
    return new Promise((resolve) => {
      const drain = (): void => {
        if (this.outbox !== outbox || !this.isOpen) {
          resolve();
          return;
        }
        for (let sent = 0; sent < REPLAY_CHUNK && next < outbox.length; sent++) {
          const item = outbox[next]!;
          outbox[next++] = EMPTY_FRAME; // let the bytes go
          if (Buffer.isBuffer(item)) this.outboxBytes -= item.length;
          if (!this.write(Buffer.isBuffer(item) ? item : item())) break;
        }
        if (next >= outbox.length || !this.isOpen) {
          this.outbox = undefined;
          this.outboxBytes = 0;
          resolve();
          return;
        }
        setImmediate(drain);
      };
      drain();
    });
  }

  private handleUnsubscribe(frame: StompFrame): void {
    const id = frame.headers['id'];
    if (id === undefined || id === '') refuse('STOMP_FRAME_MALFORMED', {}, 'UNSUBSCRIBE without id');
    const subscription = this.subscriptions.get(id);
    if (!subscription) refuse('STOMP_SUBSCRIPTION_UNKNOWN', { id });
    this.subscriptions.delete(id);
    this.forget(subscription);
  }

  private forget(subscription: Subscription): void {
    this.ctx.registry.remove(subscription);
    const userId = this.principalValue?.userId;
    if (userId === undefined) return;
    const left = (this.ctx.userSubscriptions.get(userId) ?? 1) - 1;
    if (left <= 0) this.ctx.userSubscriptions.delete(userId);
    else this.ctx.userSubscriptions.set(userId, left);
  }

  private handleSend(frame: StompFrame): void | Promise<void> {
    const destination = frame.headers['destination'];
    if (destination === undefined) refuse('STOMP_FRAME_MALFORMED', {}, 'SEND without destination');
    if (frame.headers['transaction'] !== undefined) refuse('STOMP_FRAME_MALFORMED', {}, 'transactions are not supported');
    const parsed = parseDestination(destination);
    if (!parsed) refuse('STOMP_DESTINATION_UNKNOWN', { destination });
    // Clients send only to application destinations; topics and queues are written by the server.
    const onSend = this.ctx.options.onSend;
    if ((parsed.kind !== 'chatSend' && parsed.kind !== 'orderEntry') || !onSend) refuse('STOMP_DESTINATION_FORBIDDEN', { destination });
    const session = { id: this.id, reply: (queue: string, body: unknown) => this.sendToOwnQueue(queue, body) };
    const result = onSend(this.principalValue!, destination, frame.body.toString('utf8'), { ...frame.headers }, session);
    return result instanceof Promise ? result : undefined;
  }

  /** A message to this connection's own subscriptions of a private queue (a reply to one of its SENDs). */
  private sendToOwnQueue(destination: string, body: unknown): void {
    if (!this.isOpen || !destination.startsWith('/user/queue/')) return;
    const ids: Buffer[] = [];
    for (const subscription of this.subscriptions.values()) if (subscription.destination === destination) ids.push(idBytesOf(subscription.id));
    if (ids.length > 0) this.sendRaw(new PreparedMessage(destination, this.ctx.nextMessageId(), jsonBody(body)).framesFor(ids));
  }

  private handleDisconnect(receipt: string | undefined): void {
    this.endReason ??= 'disconnect';
    this.sendReceipt(receipt);
    this.release();
    this.state = 'closing';
    this.ws.close(1000, 'disconnect');
    this.armCloseTimer();
  }

  // ---- outbound ----

  private sendFrame(command: string, headers: HeaderList, body?: Buffer | string): boolean {
    return this.sendRaw(encodeFrame(command, headers, body));
  }

  private sendReceipt(receipt: string | undefined): void {
    if (receipt !== undefined) this.sendFrame('RECEIPT', [['receipt-id', receipt]]);
  }

  /** ERROR frame with the code header and a `{code, params}` JSON body, then close (STOMP 1.2). */
  private fail(refusal: Refusal, receipt?: string): void {
    if (!this.isOpen) return;
    this.endReason ??= refusal.code;
    try {
      this.ctx.options.onRefused?.({ code: refusal.code, params: refusal.params }, this.principalValue, this.remoteAddress);
    } catch {
      // the hook's trouble is not the connection's
    }
    const headers: Array<[string, string]> = [
      ['message', refusal.message ?? refusal.code],
      ['code', refusal.code],
      ['content-type', 'application/json'],
    ];
    if (receipt !== undefined) headers.push(['receipt-id', receipt]);
    // Straight to the socket: a streaming replay's backlog is abandoned, the ERROR goes first.
    this.outbox = undefined;
    this.write(encodeFrame('ERROR', headers, JSON.stringify({ code: refusal.code, params: refusal.params })));
    if (!this.isOpen) return; // dropped as a slow consumer while sending
    this.release();
    this.state = 'closing';
    this.ws.close(1008, refusal.code);
    this.armCloseTimer();
  }

  /**
   * Slow consumer: its subscriptions go first so no publish touches it again; an ERROR frame
   * STOMP_SLOW_CONSUMER goes behind what is already buffered (a client that reads again learns why it
   * was cut), then the close. One that never reads is terminated after the close grace.
   */
  private drop(): void {
    if (this.state === 'closed' || this.state === 'closing') return;
    this.endReason ??= 'STOMP_SLOW_CONSUMER';
    this.ctx.counters.slowConsumersDropped++;
    this.release();
    this.state = 'closing';
    this.outbox = undefined;
    const limitBytes = this.ctx.options.maxBufferedBytes;
    try {
      const headers: Array<[string, string]> = [['message', 'STOMP_SLOW_CONSUMER'], ['code', 'STOMP_SLOW_CONSUMER'], ['content-type', 'application/json']];
      this.ws.send(encodeFrame('ERROR', headers, JSON.stringify({ code: 'STOMP_SLOW_CONSUMER', params: { limitBytes } })), { binary: false });
      this.ws.close(1008, 'STOMP_SLOW_CONSUMER');
    } catch {
      this.ws.terminate();
      return;
    }
    this.armCloseTimer(SLOW_CONSUMER_GRACE_MS);
  }

  private armCloseTimer(graceMs = CLOSE_GRACE_MS): void {
    if (this.closeTimer) return;
    this.closeTimer = setTimeout(() => this.ws.terminate(), graceMs);
    this.closeTimer.unref();
  }

  /** Session hooks (presence): opened once after CONNECTED, closed once when the session ends. */
  private announceSession(open: boolean): void {
    if (this.sessionAnnounced === open || !this.principalValue) return;
    this.sessionAnnounced = open;
    const { onSessionOpened, onSessionClosed } = this.ctx.options;
    try {
      if (open) onSessionOpened?.(this.principalValue, this.id, this.connectHeaders);
      else {
        const reason = this.endReason ?? 'socketClosed';
        onSessionClosed?.(this.principalValue, this.id, { graceful: reason === 'disconnect', reason, connectHeaders: this.connectHeaders });
      }
    } catch {
      // A listener's failure must not break the connection.
    }
  }

  /** Frees subscriptions and timers; idempotent. */
  private release(): void {
    this.announceSession(false);
    for (const subscription of this.subscriptions.values()) this.forget(subscription);
    this.subscriptions.clear();
    this.ctx.closeSession(this);
    this.outbox = undefined;
    this.queue.length = 0;
    clearTimeout(this.connectTimer);
    clearTimeout(this.outgoingTimer);
    clearTimeout(this.incomingTimer);
    this.connectTimer = this.outgoingTimer = this.incomingTimer = undefined;
  }

  private finish(): void {
    this.release();
    clearTimeout(this.closeTimer);
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.ctx.onClosed(this);
    this.resolveClosed();
  }
}

const EMPTY_FRAME = Buffer.alloc(0);

const reservedMessageHeaders: ReadonlySet<string> = new Set([
  'destination',
  'subscription',
  'message-id',
  'content-type',
  'content-length',
  'ack',
]);

/** Serialises a JSON body once. */
export function jsonBody(body: unknown): Buffer {
  return Buffer.from(JSON.stringify(body) ?? 'null', 'utf8');
}

/**
 * A MESSAGE frame built once per publish: the bytes before and after the subscription id, so each
 * connection costs one copy per id and one WebSocket message, not one encoding per subscription.
 * Header order and escaping are those of encodeFrame.
 */
export class PreparedMessage {
  private readonly head: Buffer;
  private readonly tail: Buffer;

  constructor(destination: string, messageId: string, body: Buffer, extra?: Record<string, string>) {
    this.head = Buffer.from(`MESSAGE\ndestination:${escapeHeader(destination)}\nsubscription:`, 'utf8');
    let rest = `\nmessage-id:${escapeHeader(messageId)}\ncontent-type:application/json\n`;
    if (extra) {
      for (const [name, value] of Object.entries(extra)) {
        if (!reservedMessageHeaders.has(name) && name !== '') rest += `${escapeHeader(name)}:${escapeHeader(String(value))}\n`;
      }
    }
    if (body.length > 0) rest += `content-length:${body.length}\n`;
    rest += '\n';
    const restBytes = Buffer.from(rest, 'utf8');
    this.tail = Buffer.allocUnsafe(restBytes.length + body.length + 1);
    restBytes.copy(this.tail, 0);
    body.copy(this.tail, restBytes.length);
    this.tail[this.tail.length - 1] = 0;
  }

  /** One frame per subscription id (escaped bytes: `idBytesOf`), back to back: the bytes of one WebSocket message. */
  framesFor(escapedIds: readonly Buffer[]): Buffer {
    let length = 0;
    for (const id of escapedIds) length += this.head.length + id.length + this.tail.length;
    const out = Buffer.allocUnsafe(length);
    let at = 0;
    for (const id of escapedIds) {
      at += this.head.copy(out, at);
      at += id.copy(out, at);
      at += this.tail.copy(out, at);
    }
    return out;
  }
}

/** Builds a MESSAGE frame; extra headers cannot override the reserved ones. */
export function encodeMessage(
  destination: string,
  subscriptionId: string,
  messageId: string,
  body: Buffer,
  extra?: Record<string, string>,
): Buffer {
  return new PreparedMessage(destination, messageId, body, extra).framesFor([idBytesOf(subscriptionId)]);
}
