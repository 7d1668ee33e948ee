/**
 * The one transport module: a single @stomp/stompjs Client per connection, its state as a stream,
 * typed `watch$` streams whose subscriptions survive reconnects, and a silence detector.
 *
 * Reconnects are ours, not stompjs's (its `reconnectDelay` is 0): after a socket closes we wait an
 * exponential backoff with jitter, publish `reconnecting {attempt, nextDelayMs}`, and activate the
 * client again; `beforeConnect` fetches a fresh token for every attempt. On every CONNECTED all
 * live watchers are subscribed again, in the order they were created.
 */
import { Client, Versions, type IFrame, type IMessage, type IStompSocket, type StompSubscription } from '@stomp/stompjs';
import { BehaviorSubject, Observable, Subject, distinctUntilChanged, map } from 'rxjs';
import type { z } from 'zod';
import { atFrameBoundaryAfter, readSingleMessageFrame, socketDataToText } from './stomp-frames.ts';

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

export type ConnectionState =
  /** Opening a socket and waiting for CONNECTED; `attempt` 0 is the first try after connect(). */
  | { status: 'connecting'; attempt: number }
  /** CONNECTED received; `generation` counts successful connects of this connection. */
  | { status: 'connected'; generation: number; heartbeatIncomingMs: number; server: string | null }
  /** The socket closed; the next attempt starts after `nextDelayMs`. */
  | { status: 'reconnecting'; attempt: number; nextDelayMs: number }
  /** Not trying: before connect(), after disconnect(), or after `backoff.maxAttempts` failures. */
  | { status: 'offline'; reason: 'idle' | 'disconnected' | 'gaveUp' };

export type ConnectionStatus = ConnectionState['status'];

/** Everything that goes wrong without breaking a stream. */
export type StreamError =
  /** A MESSAGE body that is not JSON or does not match its schema; the payload was dropped. */
  | { kind: 'payload'; destination: string; reason: 'json' | 'schema'; issues: string[]; body: string }
  /** An ERROR frame from the server (it closes the socket after it). */
  | { kind: 'stomp'; code: string; params: Record<string, string | number>; message: string }
  /** getToken() failed; the attempt was abandoned and another one scheduled. */
  | { kind: 'token'; message: string }
  /** The socket reported an error. */
  | { kind: 'socket'; message: string };

export interface BackoffOptions {
  /** Delay before the first reconnect attempt, ms. */
  initialMs: number;
  /** Ceiling of the delay, ms. */
  maxMs: number;
  /** Growth per attempt; default 2. */
  factor?: number;
  /** 0..1: the delay is drawn from [base × (1 − jitter), base]; default 0.5. */
  jitter?: number;
  /** After this many failed attempts in a row the connection goes offline ('gaveUp'); default no limit. */
  maxAttempts?: number;
  /** Source of randomness for the jitter (tests pass a fixed one); default Math.random. */
  random?: () => number;
}

/** Observes the raw socket traffic (the recorder is one). Every callback is optional. */
export interface SocketTap {
  opened?(socketId: number, url: string): void;
  /** A WebSocket message from the server, as text (may hold several frames or heart-beats). */
  inbound?(socketId: number, data: string): void;
  /** A WebSocket message the client sent, as text. */
  outbound?(socketId: number, data: string): void;
  closed?(socketId: number, info: { code: number; reason: string; initiator: 'client' | 'server' }): void;
}

export type WebSocketFactory = (url: string, protocols: string[]) => IStompSocket;

export interface ConnectionOptions {
  /** ws(s)://host/session/ws */
  url: string;
  /** The current bearer token; called before every connect attempt. */
  getToken: () => Promise<string> | string;
  /** Default: the global WebSocket. Tests pass mock-socket's. */
  webSocketFactory?: WebSocketFactory;
  /** Heart-beat asked for in both directions, ms; 0 disables heart-beating and silence detection. */
  heartbeatMs: number;
  backoff: BackoffOptions;
  /**
   * Extra time beyond the negotiated incoming heart-beat before `silence$` fires; default a quarter
   * of the heart-beat (the server may beat a little late).
   */
  silenceGraceMs?: number;
  /** A socket that has not reached CONNECTED after this is dropped and retried; default 10 s. */
  connectTimeoutMs?: number;
  taps?: SocketTap[];
  /** Clock for the silence detector; default Date.now. */
  now?: () => number;
  debug?: (message: string) => void;
}

export interface SilenceEvent {
  /** Time without any inbound byte (frame or heart-beat), ms. */
  silentMs: number;
  thresholdMs: number;
}

export interface DisconnectResult {
  /** The server acknowledged DISCONNECT with a RECEIPT before the socket closed. */
  receipt: boolean;
}

export interface Connection {
  /** Current state first, then every change (BehaviorSubject). */
  readonly connectionState$: Observable<ConnectionState>;
  readonly state: ConnectionState;
  /** Only the status, without repeats. */
  readonly status$: Observable<ConnectionStatus>;
  readonly errors$: Observable<StreamError>;
  /** Fires once per episode of inbound silence longer than the heart-beat (plus grace) while connected. */
  readonly silence$: Observable<SilenceEvent>;
  /**
   * Parsed payloads of a destination. One STOMP subscription per Rx subscriber, made when connected
   * and made again after every reconnect; a payload that fails `schema` goes to errors$ and is dropped.
   */
  watch$<S extends z.ZodType>(destination: string, schema: S): Observable<z.output<S>>;
  /** SEND to an application destination; false when not connected (nothing is queued). */
  publish(destination: string, body: unknown, headers?: Record<string, string>): boolean;
  /** Starts connecting (idempotent). */
  connect(): void;
  /** DISCONNECT, wait for the RECEIPT and the socket to close (or `timeoutMs`, then drop it). */
  disconnect(options?: { timeoutMs?: number }): Promise<DisconnectResult>;
  /** Counters for diagnostics and tests. */
  readonly stats: Readonly<{ socketsOpened: number; connects: number; subscribes: number }>;
}

// ---------------------------------------------------------------------------------------------
// Backoff
// ---------------------------------------------------------------------------------------------

/** Delay before reconnect attempt `attempt` (1-based): exponential, capped, with jitter. */
export function computeBackoffDelay(attempt: number, backoff: BackoffOptions): number {
  const factor = backoff.factor ?? 2;
  const base = Math.min(backoff.maxMs, backoff.initialMs * factor ** Math.max(0, attempt - 1));
  const jitter = Math.min(1, Math.max(0, backoff.jitter ?? 0.5));
  const random = backoff.random ?? Math.random;
  return Math.max(0, Math.round(base * (1 - jitter * random())));
}

/** Negotiated interval at which the server sends to us (STOMP 1.2 heart-beat rules); 0 when none. */
export function negotiatedIncomingMs(connectedHeartBeat: string | undefined, askedMs: number): number {
  if (!connectedHeartBeat || askedMs <= 0) return 0;
  const serverSends = Number.parseInt(connectedHeartBeat.split(',')[0] ?? '0', 10);
  if (!Number.isFinite(serverSends) || serverSends <= 0) return 0;
  return Math.max(serverSends, askedMs);
}

// ---------------------------------------------------------------------------------------------
// Socket wrapper: taps every byte in and out, and discards a socket at once when asked
// ---------------------------------------------------------------------------------------------

interface TappedSocket extends IStompSocket {
  readonly socketId: number;
  discarded: boolean;
}

function defaultWebSocketFactory(url: string, protocols: string[]): IStompSocket {
  if (typeof WebSocket === 'undefined') throw new Error('No global WebSocket: pass webSocketFactory');
  return new WebSocket(url, protocols) as unknown as IStompSocket;
}

type EventHandler = ((event: any) => any) | null | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- the handler type of @stomp/stompjs's IStompSocket

interface SocketHooks {
  inbound(socket: TappedSocket, data: unknown): void;
  /** Takes a message off the slow path (true: delivered, stompjs need not parse it). */
  message(socket: TappedSocket, data: unknown): boolean;
  outbound(socket: TappedSocket, data: unknown): void;
  opened(socket: TappedSocket): void;
  closed(socket: TappedSocket, code: number, reason: string, initiator: 'client' | 'server'): void;
}

/** stompjs is fed an EOL at most this often for the frames it does not see, so its heart-beat watchdog sees activity. */
const STOMPJS_ACTIVITY_MS = 1000;

function tapSocket(raw: IStompSocket, socketId: number, hooks: SocketHooks): TappedSocket {
  let clientClosed = false;
  // The fast path only takes a message when stompjs's parser is between frames.
  let stompjsAtBoundary = true;
  let stompjsFedAt = 0;
  let closedNotified = false;
  const notifyClosed = (code: number, reason: string): void => {
    if (closedNotified) return;
    closedNotified = true;
    hooks.closed(wrapper, code, reason, clientClosed ? 'client' : 'server');
  };
  const wrapper: TappedSocket = {
    socketId,
    discarded: false,
    get url() {
      return raw.url;
    },
    get readyState() {
      return raw.readyState;
    },
    get binaryType() {
      return raw.binaryType;
    },
    set binaryType(value: string | undefined) {
      if (value !== undefined) raw.binaryType = value;
    },
    onopen: null as EventHandler,
    onclose: null as EventHandler,
    onerror: null as EventHandler,
    onmessage: null as EventHandler,
    send(data) {
      if (wrapper.discarded) return;
      hooks.outbound(wrapper, data);
      raw.send(data);
    },
    close() {
      clientClosed = true;
      raw.close();
    },
    /**
     * stompjs calls this when a heart-beat is lost or the connect times out: the browser may take
     * long to finish a close handshake on a dead network, so we report the close at once.
     */
    terminate() {
      if (wrapper.discarded) return;
      wrapper.discarded = true;
      clientClosed = true;
      const onclose = wrapper.onclose;
      wrapper.onopen = wrapper.onmessage = wrapper.onerror = wrapper.onclose = null;
      try {
        raw.close();
      } catch {
        // already closing
      }
      notifyClosed(4001, 'discarded');
      onclose?.({ code: 4001, reason: 'discarded', wasClean: false });
    },
  };
  raw.onopen = (event?: unknown) => {
    if (wrapper.discarded) return;
    hooks.opened(wrapper);
    wrapper.onopen?.(event);
  };
  raw.onmessage = (event: { data?: unknown }) => {
    if (wrapper.discarded) return;
    hooks.inbound(wrapper, event.data);
    if (stompjsAtBoundary && hooks.message(wrapper, event.data)) {
      const now = Date.now();
      if (now - stompjsFedAt >= STOMPJS_ACTIVITY_MS) {
        stompjsFedAt = now;
        wrapper.onmessage?.({ data: '\n' });
      }
      return;
    }
    stompjsFedAt = Date.now();
    stompjsAtBoundary = atFrameBoundaryAfter(event.data, stompjsAtBoundary);
    wrapper.onmessage?.(event);
  };
  raw.onclose = (event?: { code?: number; reason?: string }) => {
    // A socket closes once: a second close event (mock sockets send one per side) must not reach
    // stompjs, which would take it for the close of the socket it opened since.
    if (wrapper.discarded || closedNotified) return;
    notifyClosed(event?.code ?? 1006, event?.reason ?? '');
    wrapper.onclose?.(event);
  };
  raw.onerror = (event: unknown) => {
    if (wrapper.discarded) return;
    wrapper.onerror?.(event);
  };
  return wrapper;
}

// ---------------------------------------------------------------------------------------------
// The connection
// ---------------------------------------------------------------------------------------------

interface Watcher {
  destination: string;
  /** The frame's body (text), from the fast path or from stompjs. */
  deliver(body: string): void;
  subscription: StompSubscription | undefined;
}

const bodyOf = (message: IMessage): string => (message.isBinaryBody ? socketDataToText(message.binaryBody) : message.body);

/** Clients created by createConnection in this process (diagnostics: "exactly one client"). */
let clientsCreated = 0;
export function createdClientCount(): number {
  return clientsCreated;
}

const MAX_REPORTED_BODY = 2000;

function readStompError(frame: IFrame): StreamError {
  let code = frame.headers['code'] ?? 'UNKNOWN_ERROR';
  let params: Record<string, string | number> = {};
  try {
    const body = JSON.parse(frame.body) as { code?: unknown; params?: unknown };
    if (typeof body.code === 'string') code = body.code;
    if (body.params && typeof body.params === 'object') params = body.params as Record<string, string | number>;
  } catch {
    // not JSON: keep the header
  }
  return { kind: 'stomp', code, params, message: frame.headers['message'] ?? code };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string') return (error as { code: string }).code;
  return String(error);
}

class StompConnection implements Connection {
  private readonly stateSubject = new BehaviorSubject<ConnectionState>({ status: 'offline', reason: 'idle' });
  private readonly errorSubject = new Subject<StreamError>();
  private readonly silenceSubject = new Subject<SilenceEvent>();
  private readonly watchers = new Set<Watcher>();
  /** Live watchers by the id of their subscription on the current socket (the fast path's lookup). */
  private readonly bySubscription = new Map<string, Watcher>();
  private readonly client: Client;
  private readonly now: () => number;
  private readonly taps: SocketTap[];

  private intended: 'active' | 'inactive' = 'inactive';
  /** Bumped by connect() and disconnect(): a token fetch of an older epoch is ignored. */
  private epoch = 0;
  private attempt = 0;
  private generation = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pendingDisconnect: Promise<DisconnectResult> | undefined;
  private receiptSeen = false;
  private nextSocketId = 1;
  private current: TappedSocket | undefined;
  private connectedNow = false;

  // silence detection
  private incomingMs = 0;
  private lastInboundAt = 0;
  private silenceTimer: ReturnType<typeof setTimeout> | undefined;
  private silent = false;

  private readonly counters = { socketsOpened: 0, connects: 0, subscribes: 0 };

  readonly connectionState$: Observable<ConnectionState>;
  readonly status$: Observable<ConnectionStatus>;
  readonly errors$: Observable<StreamError>;
  readonly silence$: Observable<SilenceEvent>;

  constructor(private readonly options: ConnectionOptions) {
    this.now = options.now ?? Date.now;
    this.taps = options.taps ?? [];
    this.connectionState$ = this.stateSubject.asObservable();
    this.status$ = this.stateSubject.pipe(
      map((s) => s.status),
      distinctUntilChanged(),
    );
    this.errors$ = this.errorSubject.asObservable();
    this.silence$ = this.silenceSubject.asObservable();
    const factory = options.webSocketFactory ?? defaultWebSocketFactory;
    const hooks: SocketHooks = {
      opened: (socket) => {
        this.counters.socketsOpened += 1;
        for (const tap of this.taps) tap.opened?.(socket.socketId, socket.url);
      },
      inbound: (socket, data) => this.onInbound(socket, data),
      message: (socket, data) => this.onFastMessage(socket, data),
      outbound: (socket, data) => {
        if (this.taps.length === 0) return;
        const text = socketDataToText(data);
        for (const tap of this.taps) tap.outbound?.(socket.socketId, text);
      },
      closed: (socket, code, reason, initiator) => {
        for (const tap of this.taps) tap.closed?.(socket.socketId, { code, reason, initiator });
      },
    };
    clientsCreated += 1;
    this.client = new Client({
      webSocketFactory: () => {
        const socket = tapSocket(factory(options.url, Versions.default.protocolVersions()), this.nextSocketId++, hooks);
        this.current = socket;
        return socket;
      },
      reconnectDelay: 0,
      heartbeatIncoming: options.heartbeatMs,
      heartbeatOutgoing: options.heartbeatMs,
      connectionTimeout: options.connectTimeoutMs ?? 10_000,
      discardWebsocketOnCommFailure: true,
      debug: options.debug ?? (() => {}),
      beforeConnect: (client) => this.beforeConnect(client),
      onConnect: (frame) => this.onConnect(frame),
      onDisconnect: () => {
        this.receiptSeen = true;
      },
      onStompError: (frame) => this.errorSubject.next(readStompError(frame)),
      onWebSocketClose: () => this.onSocketClosed(),
      onWebSocketError: (event: unknown) => {
        const message = event && typeof event === 'object' && 'message' in event ? String((event as { message: unknown }).message) : 'socket error';
        this.errorSubject.next({ kind: 'socket', message });
      },
    });
  }

  get state(): ConnectionState {
    return this.stateSubject.value;
  }

  get stats(): Readonly<{ socketsOpened: number; connects: number; subscribes: number }> {
    return { ...this.counters };
  }

  // ---- lifecycle ----

  connect(): void {
    if (this.intended === 'active') return;
    this.intended = 'active';
    this.epoch += 1;
    this.attempt = 0;
    const start = (): void => {
      if (this.intended !== 'active' || this.client.active) return;
      this.setState({ status: 'connecting', attempt: 0 });
      this.client.activate();
    };
    if (this.pendingDisconnect) void this.pendingDisconnect.then(start);
    else start();
  }

  disconnect(options: { timeoutMs?: number } = {}): Promise<DisconnectResult> {
    if (this.pendingDisconnect) return this.pendingDisconnect;
    this.intended = 'inactive';
    this.epoch += 1;
    this.clearReconnectTimer();
    this.receiptSeen = false;
    const timeoutMs = options.timeoutMs ?? 5_000;
    const run = async (): Promise<DisconnectResult> => {
      const done = this.client.deactivate();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const outcome = await Promise.race([done.then(() => 'done' as const), timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout') await this.client.deactivate({ force: true });
      this.afterSocketGone();
      this.setState({ status: 'offline', reason: 'disconnected' });
      return { receipt: this.receiptSeen };
    };
    this.pendingDisconnect = run().finally(() => {
      this.pendingDisconnect = undefined;
    });
    return this.pendingDisconnect;
  }

  private async beforeConnect(client: Client): Promise<void> {
    const epoch = this.epoch;
    try {
      const token = await this.options.getToken();
      if (epoch !== this.epoch) return;
      client.connectHeaders = { Authorization: `Bearer ${token}` };
    } catch (error) {
      if (epoch !== this.epoch) return;
      this.errorSubject.next({ kind: 'token', message: messageOf(error) });
      // Abandon this attempt: an inactive client skips opening the socket.
      await client.deactivate();
      if (this.intended === 'active' && epoch === this.epoch) this.scheduleReconnect();
    }
  }

  private onConnect(frame: IFrame): void {
    this.attempt = 0;
    this.generation += 1;
    this.counters.connects += 1;
    this.connectedNow = true;
    this.incomingMs = negotiatedIncomingMs(frame.headers['heart-beat'], this.options.heartbeatMs);
    this.lastInboundAt = this.now();
    this.silent = false;
    this.armSilenceTimer();
    for (const watcher of this.watchers) this.attach(watcher);
    this.setState({
      status: 'connected',
      generation: this.generation,
      heartbeatIncomingMs: this.incomingMs,
      server: frame.headers['server'] ?? null,
    });
  }

  private onSocketClosed(): void {
    this.afterSocketGone();
    if (this.intended !== 'active' || this.pendingDisconnect) return;
    // The client stays ACTIVE after a close with reconnectDelay 0; make it INACTIVE so that our
    // timer can activate it again (deactivate is synchronous when there is no socket).
    void this.client.deactivate();
    this.scheduleReconnect();
  }

  private afterSocketGone(): void {
    this.connectedNow = false;
    this.current = undefined;
    this.clearSilenceTimer();
    for (const watcher of this.watchers) watcher.subscription = undefined;
    this.bySubscription.clear();
  }

  private scheduleReconnect(): void {
    this.clearReconnectTimer();
    this.attempt += 1;
    const { backoff } = this.options;
    if (backoff.maxAttempts !== undefined && this.attempt > backoff.maxAttempts) {
      this.intended = 'inactive';
      this.setState({ status: 'offline', reason: 'gaveUp' });
      return;
    }
    const delay = computeBackoffDelay(this.attempt, backoff);
    const attempt = this.attempt;
    this.setState({ status: 'reconnecting', attempt, nextDelayMs: delay });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.intended !== 'active' || this.client.active) return;
      this.setState({ status: 'connecting', attempt });
      this.client.activate();
    }, delay);
  }

  private clearReconnectTimer(): void {
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
  }

  private setState(next: ConnectionState): void {
    this.stateSubject.next(next);
  }

  // ---- inbound bytes and silence ----

  private onInbound(socket: TappedSocket, data: unknown): void {
    if (socket !== this.current) return;
    this.lastInboundAt = this.now();
    if (this.silent) {
      this.silent = false;
    }
    if (this.silenceTimer === undefined) this.armSilenceTimer();
    if (this.taps.length > 0) {
      const text = socketDataToText(data);
      for (const tap of this.taps) tap.inbound?.(socket.socketId, text);
    }
  }

  /**
   * MESSAGE frames of our subscriptions, read without stompjs: its parser walks every byte and its
   * debug line serialises every frame again, which at thousands of book deltas a second was a quarter
   * of the page's time. Anything else (or any doubt) goes to stompjs.
   */
  private onFastMessage(socket: TappedSocket, data: unknown): boolean {
    if (socket !== this.current || !this.connectedNow || typeof data !== 'string') return false;
    const frame = readSingleMessageFrame(data);
    const id = frame?.headers['subscription'];
    const watcher = id === undefined ? undefined : this.bySubscription.get(id);
    if (!frame || !watcher) return false;
    watcher.deliver(frame.body);
    return true;
  }

  private get silenceThresholdMs(): number {
    if (this.incomingMs <= 0) return 0;
    return this.incomingMs + (this.options.silenceGraceMs ?? Math.ceil(this.incomingMs / 4));
  }

  private armSilenceTimer(delay = this.silenceThresholdMs): void {
    this.clearSilenceTimer();
    if (!this.connectedNow || this.silenceThresholdMs <= 0) return;
    this.silenceTimer = setTimeout(() => this.checkSilence(), Math.max(1, delay));
  }

  private checkSilence(): void {
    this.silenceTimer = undefined;
    if (!this.connectedNow) return;
    const threshold = this.silenceThresholdMs;
    const silentMs = this.now() - this.lastInboundAt;
    if (silentMs >= threshold) {
      if (!this.silent) {
        this.silent = true;
        this.silenceSubject.next({ silentMs, thresholdMs: threshold });
      }
      // Re-armed by the next inbound byte.
      return;
    }
    this.armSilenceTimer(threshold - silentMs);
  }

  private clearSilenceTimer(): void {
    if (this.silenceTimer !== undefined) clearTimeout(this.silenceTimer);
    this.silenceTimer = undefined;
  }

  // ---- subscriptions ----

  private attach(watcher: Watcher): void {
    try {
      const subscription = this.client.subscribe(watcher.destination, (message) => watcher.deliver(bodyOf(message)));
      watcher.subscription = subscription;
      this.bySubscription.set(subscription.id, watcher);
      this.counters.subscribes += 1;
    } catch {
      watcher.subscription = undefined; // the socket went away in between; restored on CONNECTED
    }
  }

  private detach(watcher: Watcher): void {
    const subscription = watcher.subscription;
    watcher.subscription = undefined;
    if (subscription && this.bySubscription.get(subscription.id) === watcher) this.bySubscription.delete(subscription.id);
    if (subscription && this.connectedNow) {
      try {
        subscription.unsubscribe();
      } catch {
        // socket already gone
      }
    }
  }

  watch$<S extends z.ZodType>(destination: string, schema: S): Observable<z.output<S>> {
    return new Observable<z.output<S>>((subscriber) => {
      const watcher: Watcher = {
        destination,
        subscription: undefined,
        deliver: (body) => {
          let json: unknown;
          try {
            json = JSON.parse(body);
          } catch (error) {
            this.errorSubject.next({ kind: 'payload', destination, reason: 'json', issues: [messageOf(error)], body: body.slice(0, MAX_REPORTED_BODY) });
            return;
          }
          const parsed = schema.safeParse(json);
          if (!parsed.success) {
            const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
            this.errorSubject.next({ kind: 'payload', destination, reason: 'schema', issues, body: body.slice(0, MAX_REPORTED_BODY) });
            return;
          }
          subscriber.next(parsed.data);
        },
      };
      this.watchers.add(watcher);
      if (this.connectedNow) this.attach(watcher);
      return () => {
        this.watchers.delete(watcher);
        this.detach(watcher);
      };
    });
  }

  publish(destination: string, body: unknown, headers: Record<string, string> = {}): boolean {
    if (!this.connectedNow) return false;
    try {
      this.client.publish({ destination, body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
      return true;
    } catch {
      return false;
    }
  }
}

export function createConnection(options: ConnectionOptions): Connection {
  return new StompConnection(options);
}

// ---------------------------------------------------------------------------------------------
// Exactly one client: a ref-counted hub
// ---------------------------------------------------------------------------------------------

export interface ConnectionLease {
  readonly connection: Connection;
  /** Gives the lease back (idempotent). The last release disconnects after `releaseDelayMs`. */
  release(): void;
}

export interface ConnectionHub {
  /**
   * The connection for `key`, created with `create` and connected on first use; every call adds a
   * reference. A release that brings the count to 0 disconnects only after `releaseDelayMs`, so an
   * acquire that follows at once (React StrictMode mounts, unmounts and mounts again) reuses it.
   */
  acquire(key: string, create: () => Connection): ConnectionLease;
  /** The live connection for `key`, if any (no reference taken). */
  peek(key: string): Connection | undefined;
  references(key: string): number;
  size(): number;
}

export function createConnectionHub(options: { releaseDelayMs?: number } = {}): ConnectionHub {
  const releaseDelayMs = options.releaseDelayMs ?? 0;
  const entries = new Map<string, { connection: Connection; refs: number; timer: ReturnType<typeof setTimeout> | undefined }>();
  return {
    acquire(key, create) {
      let entry = entries.get(key);
      if (!entry) {
        entry = { connection: create(), refs: 0, timer: undefined };
        entries.set(key, entry);
        entry.connection.connect();
      }
      if (entry.timer !== undefined) {
        clearTimeout(entry.timer);
        entry.timer = undefined;
      }
      entry.refs += 1;
      const held = entry;
      let released = false;
      return {
        connection: held.connection,
        release() {
          if (released) return;
          released = true;
          held.refs -= 1;
          if (held.refs > 0) return;
          held.timer = setTimeout(() => {
            held.timer = undefined;
            if (held.refs > 0 || entries.get(key) !== held) return;
            entries.delete(key);
            void held.connection.disconnect();
          }, releaseDelayMs);
        },
      };
    },
    peek: (key) => entries.get(key)?.connection,
    references: (key) => entries.get(key)?.refs ?? 0,
    size: () => entries.size,
  };
}

/** The process-wide hub the app uses (module-level singleton). */
export const connectionHub: ConnectionHub = createConnectionHub();
