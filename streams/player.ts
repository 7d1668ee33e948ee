/**
 * Replays a recorded socket session into the real client stack: a mock-socket Server stands where
 * the exchange was, the real connection module and stompjs talk to it through mock-socket's
 * WebSocket (`player.webSocketFactory`).
 *
 * The player answers the client as the server did:
 * - a recorded CONNECTED is sent only once the client has sent CONNECT on the current socket
 *   (a CONNECT the recording has no answer for gets a synthetic CONNECTED);
 * - a recorded MESSAGE goes to the subscription the client made for that destination, mapped by
 *   order: the k-th SUBSCRIBE to a destination in the recording is the k-th SUBSCRIBE to it now.
 *   A MESSAGE waits until the client has made that subscription. A recorded subscription the client
 *   does not make (the recording's view left and opened again, or two views watched one topic; the
 *   replaying stack keeps one subscription) is played into the client's latest live subscription to
 *   the destination once the client has been quiet for `resubscribeGraceMs` (it would have made its own
 *   by then: its frames reach the player 4 ms after it sends them), and the later ordinals shift by one.
 *   While another recorded subscription to the destination that is mapped to the same client
 *   subscription is still open in the recording, the messages of the latter are copies: skipped;
 * - `@close` closes the client's socket (except the client's own close that ends the session);
 *   `@heartbeat` sends a heart-beat; RECEIPTs are answered
 *   live for every client frame that asks for one (DISCONNECT included, then the socket closes).
 *
 * Speed: 1 (as recorded), N (N times faster) or 'max' (as fast as the client takes them, one frame
 * per macrotask). pause(), play() and step() (deliver the next frame, waiting for its gate).
 * The same recording always gives the client the same frames in the same order, so the same
 * machine states and books at the same checkpoints.
 */
import { Server, WebSocket as MockWebSocket, type Client as MockSocket } from 'mock-socket';
import { BehaviorSubject, distinctUntilChanged, Subject, type Observable } from 'rxjs';
import type { IStompSocket } from '@stomp/stompjs';
import type { WebSocketFactory } from './connection.ts';
import { parseRecording, type RecordedFrame } from './recording.ts';
import { encodeStompFrame, STOMP_HEARTBEAT, StompFrameParser, type StompFrameData } from './stomp-frames.ts';

export type ReplaySpeed = number | 'max';

export interface PlayerOptions {
  /** The URL the mock server listens on; the client must use the same (unique per player). */
  url: string;
  recording: readonly RecordedFrame[] | string;
  /** Default 'max'. */
  speed?: ReplaySpeed;
  /** Start paused (step() or play() to go on). Default false. */
  paused?: boolean;
  /** 'off' answers CONNECT with heart-beat 0,0 and skips recorded heart-beats. Default 'recorded'. */
  heartbeats?: 'recorded' | 'off';
  /**
   * How long the client must have sent nothing before a recorded SUBSCRIBE it has not repeated is
   * mapped onto its live subscription to the same destination (see above). Default 200 ms.
   */
  resubscribeGraceMs?: number;
  now?: () => number;
}

const DEFAULT_RESUBSCRIBE_GRACE_MS = 200;

export interface DeliveredFrame {
  /** Index in the timeline (inbound frames the player sends or acts on). */
  index: number;
  frame: RecordedFrame;
}

export interface Player {
  readonly webSocketFactory: WebSocketFactory;
  /** Every frame delivered, right after the client got it (the client handles frames synchronously). */
  readonly delivered$: Observable<DeliveredFrame>;
  /** Resolves when every timeline frame has been delivered or skipped. */
  readonly done: Promise<void>;
  readonly position: number;
  readonly length: number;
  readonly paused: boolean;
  /** What the next frame waits for (CONNECT, a SUBSCRIBE...), or null. */
  readonly waitingFor: string | null;
  /** waitingFor as it changes (a wait starts or ends with no frame delivered), from its value now. */
  readonly waitingFor$: Observable<string | null>;
  /** Sockets the client opened so far. */
  readonly socketsOpened: number;
  play(): void;
  pause(): void;
  setSpeed(speed: ReplaySpeed): void;
  /** Delivers the next frame (waiting for its gate); null when the recording is over. */
  step(): Promise<DeliveredFrame | null>;
  /** Closes the client's sockets and removes the mock server. */
  close(): void;
}

interface TimelineEntry {
  frame: RecordedFrame;
  /** For MESSAGE: destination and the ordinal of its recorded subscription. */
  destination?: string;
  ordinal?: number;
  /** For MESSAGE: the ordinals of the other recorded subscriptions to the destination open on its socket then. */
  concurrent?: number[];
  /** A client-made close with nothing after it: skipped. */
  trailingClientClose?: boolean;
}

interface LiveSocket {
  n: number;
  socket: MockSocket;
  open: boolean;
  connectPending: boolean;
  stompConnected: boolean;
  parser: StompFrameParser;
}

type Gate = 'open' | 'skip' | string;

/** A subscription the replaying client made. */
interface ClientSubscription {
  id: string;
  socket: number;
  active: boolean;
}

/** Where a recorded MESSAGE goes now. */
type Route =
  | { kind: 'open'; index: number }
  /** Mapped onto a live client subscription (`alias` when that mapping is new). */
  | { kind: 'skip'; alias?: number }
  | { kind: 'wait'; what: string; graceEndsAt?: number };

/** Per destination: recorded ordinals played into a client subscription they were not made as. */
interface DestinationMapping {
  /** recorded ordinal -> index in the client's subscriptions to the destination */
  aliases: Map<number, number>;
}

class RecordingPlayer implements Player {
  private readonly server: Server;
  private readonly timeline: TimelineEntry[] = [];
  private readonly deliveredSubject = new Subject<DeliveredFrame>();
  private readonly waitingSubject = new BehaviorSubject<string | null>(null);
  private readonly now: () => number;
  private readonly heartbeats: 'recorded' | 'off';
  private readonly lastRecordedConnected: StompFrameData | undefined;
  /** destination -> client subscriptions, in the order the client made them. */
  private readonly clientSubscriptions = new Map<string, ClientSubscription[]>();
  private readonly mappings = new Map<string, DestinationMapping>();
  private readonly resubscribeGraceMs: number;
  /** When the client last sent a frame or opened a socket. */
  private lastClientActivity: number;
  /** The timeline index the player waits at, and since when. */
  private waitAt: { index: number; since: number } | undefined;
  private live: LiveSocket | undefined;
  private socketCount = 0;
  private index = 0;
  private speed: ReplaySpeed;
  private isPaused: boolean;
  private waiting: string | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pumping = false;
  private repump = false;
  private lastWall: number;
  private lastT: number;
  private stepWaiters: Array<(delivered: DeliveredFrame | null) => void> = [];
  private finished = false;
  private resolveDone!: () => void;

  readonly done: Promise<void>;
  readonly delivered$: Observable<DeliveredFrame>;
  readonly waitingFor$: Observable<string | null>;
  readonly webSocketFactory: WebSocketFactory;

  constructor(private readonly options: PlayerOptions) {
    this.now = options.now ?? Date.now;
    this.speed = options.speed ?? 'max';
    this.isPaused = options.paused ?? false;
    this.heartbeats = options.heartbeats ?? 'recorded';
    this.resubscribeGraceMs = options.resubscribeGraceMs ?? DEFAULT_RESUBSCRIBE_GRACE_MS;
    this.lastClientActivity = this.now();
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.delivered$ = this.deliveredSubject.asObservable();
    this.waitingFor$ = this.waitingSubject.pipe(distinctUntilChanged());
    const frames = typeof options.recording === 'string' ? parseRecording(options.recording) : [...options.recording];
    this.lastRecordedConnected = this.buildTimeline(frames);
    this.lastWall = this.now();
    this.lastT = this.timeline[0]?.frame.t ?? 0;
    this.server = new Server(options.url, { mock: false });
    this.server.on('connection', (socket) => this.onConnection(socket));
    this.webSocketFactory = (_url, protocols) => new MockWebSocket(options.url, protocols) as unknown as IStompSocket;
    if (this.timeline.length === 0) this.finish();
  }

  get position(): number {
    return this.index;
  }
  get length(): number {
    return this.timeline.length;
  }
  get paused(): boolean {
    return this.isPaused;
  }
  get waitingFor(): string | null {
    return this.waiting;
  }
  private setWaiting(what: string | null): void {
    this.waiting = what;
    this.waitingSubject.next(what);
  }
  get socketsOpened(): number {
    return this.socketCount;
  }

  /** Builds the timeline and the recorded subscription ordinals; returns the last CONNECTED. */
  private buildTimeline(frames: RecordedFrame[]): StompFrameData | undefined {
    const ordinalOf = new Map<string, { destination: string; ordinal: number }>();
    /** `socket|destination` -> ordinals of the recorded subscriptions open there. */
    const open = new Map<string, number[]>();
    const openOn = (socket: number, destination: string): number[] => {
      const key = `${socket}|${destination}`;
      let list = open.get(key);
      if (!list) open.set(key, (list = []));
      return list;
    };
    const countPerDestination = new Map<string, number>();
    const nextOrdinal = (destination: string): number => {
      const n = countPerDestination.get(destination) ?? 0;
      countPerDestination.set(destination, n + 1);
      return n;
    };
    let lastConnected: StompFrameData | undefined;
    for (const frame of frames) {
      if (frame.dir === 'out') {
        if (frame.command === 'SUBSCRIBE' && frame.headers['id'] !== undefined && frame.headers['destination'] !== undefined) {
          const key = `${frame.socket}|${frame.headers['id']}`;
          const mapped = { destination: frame.headers['destination'], ordinal: nextOrdinal(frame.headers['destination']) };
          ordinalOf.set(key, mapped);
          openOn(frame.socket, mapped.destination).push(mapped.ordinal);
        }
        if (frame.command === 'UNSUBSCRIBE' && frame.headers['id'] !== undefined) {
          const mapped = ordinalOf.get(`${frame.socket}|${frame.headers['id']}`);
          const list = mapped && openOn(frame.socket, mapped.destination);
          if (mapped && list?.includes(mapped.ordinal)) list.splice(list.indexOf(mapped.ordinal), 1);
        }
        continue;
      }
      switch (frame.command) {
        case '@open':
        case 'RECEIPT':
          continue;
        case 'CONNECTED':
          lastConnected = { command: frame.command, headers: frame.headers, body: frame.body };
          this.timeline.push({ frame });
          break;
        case 'MESSAGE': {
          const destination = frame.headers['destination'] ?? '';
          const key = `${frame.socket}|${frame.headers['subscription'] ?? ''}`;
          let mapped = ordinalOf.get(key);
          if (!mapped) {
            // A recording without the client's frames: the first message of a subscription stands for it.
            mapped = { destination, ordinal: nextOrdinal(destination) };
            ordinalOf.set(key, mapped);
          }
          const concurrent = (open.get(`${frame.socket}|${mapped.destination}`) ?? []).filter((ordinal) => ordinal !== mapped.ordinal);
          this.timeline.push({ frame, destination: mapped.destination, ordinal: mapped.ordinal, concurrent });
          break;
        }
        default:
          this.timeline.push({ frame });
      }
    }
    // A close the client made at the end of the session (DISCONNECT) is the client's to make
    // again; one it made mid-session (heart-beat lost) is reproduced by closing from here.
    let laterTraffic = false;
    for (let i = this.timeline.length - 1; i >= 0; i--) {
      const entry = this.timeline[i]!;
      if (entry.frame.command === '@close' && entry.frame.headers['initiator'] === 'client' && !laterTraffic) entry.trailingClientClose = true;
      if (entry.frame.command !== '@close' && entry.frame.command !== '@heartbeat') laterTraffic = true;
    }
    return lastConnected;
  }

  // ---- sockets and client frames ----

  private onConnection(socket: MockSocket): void {
    const live: LiveSocket = { n: ++this.socketCount, socket, open: true, connectPending: false, stompConnected: false, parser: new StompFrameParser() };
    this.live = live;
    this.lastClientActivity = this.now();
    socket.on('message', (data) => {
      for (const item of live.parser.push(data as string | ArrayBuffer)) if (item !== 'heartbeat') this.onClientFrame(live, item);
    });
    socket.on('close', () => {
      live.open = false;
      live.stompConnected = false;
      live.connectPending = false;
      if (this.live === live) this.live = undefined;
      for (const list of this.clientSubscriptions.values()) for (const subscription of list) if (subscription.socket === live.n) subscription.active = false;
      this.schedulePump();
    });
  }

  private send(live: LiveSocket, command: string, headers: Record<string, string>, body = ''): void {
    if (!live.open) return;
    live.socket.send(encodeStompFrame(command, headers, body));
  }

  private onClientFrame(live: LiveSocket, frame: StompFrameData): void {
    const receipt = frame.headers['receipt'];
    this.lastClientActivity = this.now();
    switch (frame.command) {
      case 'CONNECT':
      case 'STOMP': {
        live.connectPending = true;
        const next = this.nextRelevantEntry();
        if (!next || (next.frame.command !== 'CONNECTED' && next.frame.command !== 'ERROR')) this.sendConnected(live, this.lastRecordedConnected);
        break;
      }
      case 'SUBSCRIBE': {
        const destination = frame.headers['destination'];
        const id = frame.headers['id'];
        if (destination !== undefined && id !== undefined) {
          const list = this.clientSubscriptions.get(destination) ?? [];
          list.push({ id, socket: live.n, active: true });
          this.clientSubscriptions.set(destination, list);
        }
        break;
      }
      case 'UNSUBSCRIBE': {
        const id = frame.headers['id'];
        for (const list of this.clientSubscriptions.values()) for (const subscription of list) if (subscription.id === id && subscription.socket === live.n) subscription.active = false;
        break;
      }
      case 'DISCONNECT':
        if (receipt !== undefined) this.send(live, 'RECEIPT', { 'receipt-id': receipt });
        live.stompConnected = false;
        live.socket.close({ code: 1000, reason: 'disconnect', wasClean: true });
        this.schedulePump();
        return;
      default:
        break;
    }
    if (receipt !== undefined) this.send(live, 'RECEIPT', { 'receipt-id': receipt });
    this.schedulePump();
  }

  private sendConnected(live: LiveSocket, recorded: StompFrameData | undefined): void {
    const headers = { ...(recorded?.headers ?? { version: '1.2', server: 'replay' }) };
    headers['heart-beat'] = this.heartbeats === 'off' ? '0,0' : (headers['heart-beat'] ?? '0,0');
    live.connectPending = false;
    live.stompConnected = true;
    this.send(live, 'CONNECTED', headers);
  }

  // ---- the timeline ----

  /** Skips what can be skipped now and returns the next entry that needs delivering. */
  private nextRelevantEntry(): TimelineEntry | undefined {
    while (this.index < this.timeline.length) {
      const entry = this.timeline[this.index]!;
      if (this.gate(entry) !== 'skip') return entry;
      this.index += 1;
    }
    return undefined;
  }

  private mappingOf(destination: string): DestinationMapping {
    let mapping = this.mappings.get(destination);
    if (!mapping) this.mappings.set(destination, (mapping = { aliases: new Map() }));
    return mapping;
  }

  /** The client subscription index a recorded ordinal stands for, as far as known now. */
  private clientIndexOf(destination: string, ordinal: number): number {
    const { aliases } = this.mappingOf(destination);
    const alias = aliases.get(ordinal);
    if (alias !== undefined) return alias;
    // The recorded subscriptions played into another one take no subscription of the client's.
    let shift = 0;
    for (const aliased of aliases.keys()) if (aliased < ordinal) shift += 1;
    return ordinal - shift;
  }

  /** Where a recorded MESSAGE goes now (without side effects). */
  private route(entry: TimelineEntry): Route {
    const destination = entry.destination ?? '';
    const ordinal = entry.ordinal ?? 0;
    const list = this.clientSubscriptions.get(destination) ?? [];
    const index = this.clientIndexOf(destination, ordinal);
    const aliased = this.mappingOf(destination).aliases.has(ordinal);
    // Two recorded subscriptions open at once and played into one client subscription: the earlier
    // one's messages pass, the later one's are the same messages again.
    const copyOf = (target: number): boolean => (entry.concurrent ?? []).some((other) => other < ordinal && this.clientIndexOf(destination, other) === target);
    if (aliased) return copyOf(index) ? { kind: 'skip' } : { kind: 'open', index };
    if (list[index] !== undefined) return { kind: 'open', index };
    const what = `SUBSCRIBE #${index + 1} to ${destination}`;
    // The client has not made it: once it has been quiet for the grace, its live subscription to the
    // destination takes the recorded one's messages.
    const live = this.live;
    let latest = -1;
    for (const [i, subscription] of list.entries()) if (subscription.active && subscription.socket === live?.n) latest = i;
    if (latest < 0) return { kind: 'wait', what };
    const graceEndsAt = Math.max(this.lastClientActivity, this.waitAt?.index === this.index ? this.waitAt.since : this.now()) + this.resubscribeGraceMs;
    if (this.now() < graceEndsAt) return { kind: 'wait', what, graceEndsAt };
    return copyOf(latest) ? { kind: 'skip', alias: latest } : { kind: 'open', index: latest };
  }

  /** Keeps the mapping a route makes onto a client subscription the recorded one was not made as. */
  private commitRoute(entry: TimelineEntry, route: Route): void {
    const destination = entry.destination ?? '';
    const ordinal = entry.ordinal ?? 0;
    const { aliases } = this.mappingOf(destination);
    if (route.kind === 'skip' && route.alias !== undefined) aliases.set(ordinal, route.alias);
    if (route.kind === 'open' && !aliases.has(ordinal) && route.index !== this.clientIndexOf(destination, ordinal)) aliases.set(ordinal, route.index);
  }

  private gate(entry: TimelineEntry): Gate {
    const live = this.live;
    switch (entry.frame.command) {
      case 'CONNECTED':
        if (live?.open && live.stompConnected) return 'skip'; // already answered (synthetic)
        return live?.open && live.connectPending ? 'open' : 'CONNECT';
      case 'MESSAGE': {
        if (!live?.open || !live.stompConnected) return 'CONNECT';
        // A mapping found once the grace is over is kept at once: delivering may wait for the frame's time.
        const route = this.route(entry);
        this.commitRoute(entry, route);
        return route.kind === 'wait' ? route.what : route.kind;
      }
      case 'ERROR':
        return live?.open && (live.connectPending || live.stompConnected) ? 'open' : 'CONNECT';
      case '@heartbeat':
        return this.heartbeats === 'recorded' && live?.open && live.stompConnected ? 'open' : 'skip';
      case '@close':
        return live?.open && !entry.trailingClientClose ? 'open' : 'skip';
      default:
        return live?.open && live.stompConnected ? 'open' : 'skip';
    }
  }

  private deliver(entry: TimelineEntry): void {
    const live = this.live!;
    const { frame } = entry;
    switch (frame.command) {
      case 'CONNECTED':
        this.sendConnected(live, frame);
        return;
      case 'MESSAGE': {
        const route = this.route(entry);
        const subscription = route.kind === 'open' ? this.clientSubscriptions.get(entry.destination ?? '')?.[route.index] : undefined;
        if (subscription) this.send(live, 'MESSAGE', { ...frame.headers, subscription: subscription.id }, frame.body);
        return;
      }
      case '@heartbeat':
        if (live.open) live.socket.send(STOMP_HEARTBEAT);
        return;
      case '@close': {
        const code = Number(frame.headers['code']);
        live.stompConnected = false;
        live.socket.close({ code: Number.isFinite(code) && code >= 1000 ? code : 1000, reason: frame.headers['reason'] ?? '', wasClean: true });
        return;
      }
      default:
        this.send(live, frame.command, frame.headers, frame.body);
    }
  }

  private schedulePump(): void {
    if (this.finished) return;
    if (this.pumping) {
      this.repump = true;
      return;
    }
    this.pump();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private pump(): void {
    if (this.finished) return;
    this.pumping = true;
    try {
      do {
        this.repump = false;
        if (this.runTimeline()) return;
      } while (this.repump);
    } finally {
      this.pumping = false;
    }
  }

  /** Delivers what is due; returns true when it stopped on purpose (timer set, paused, finished). */
  private runTimeline(): boolean {
    this.clearTimer();
    while (this.index < this.timeline.length) {
      const stepping = this.stepWaiters.length > 0;
      if (this.isPaused && !stepping) return true;
      const entry = this.timeline[this.index]!;
      const gate = this.gate(entry);
      if (gate === 'skip') {
        this.index += 1;
        continue;
      }
      if (gate !== 'open') {
        this.setWaiting(gate);
        if (this.waitAt?.index !== this.index) this.waitAt = { index: this.index, since: this.now() };
        // A recorded SUBSCRIBE the client may not repeat: look again when the grace is over.
        const route = entry.frame.command === 'MESSAGE' ? this.route(entry) : undefined;
        if (route?.kind === 'wait' && route.graceEndsAt !== undefined) this.timer = setTimeout(() => this.schedulePump(), Math.max(0, route.graceEndsAt - this.now()));
        return false;
      }
      this.setWaiting(null);
      this.waitAt = undefined;
      if (!stepping && this.speed !== 'max') {
        const due = this.lastWall + (entry.frame.t - this.lastT) / this.speed;
        const wait = due - this.now();
        if (wait > 0) {
          this.timer = setTimeout(() => this.schedulePump(), wait);
          return true;
        }
      }
      const delivered: DeliveredFrame = { index: this.index, frame: entry.frame };
      this.deliver(entry);
      this.index += 1;
      this.lastWall = this.now();
      this.lastT = entry.frame.t;
      this.deliveredSubject.next(delivered);
      if (stepping) {
        this.stepWaiters.shift()?.(delivered);
        continue;
      }
      if (this.speed === 'max') {
        // One frame per macrotask: the client's answers (UNSUBSCRIBE, SUBSCRIBE) get their turn.
        this.timer = setTimeout(() => this.schedulePump(), 0);
        return true;
      }
    }
    this.finish();
    return true;
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.setWaiting(null);
    this.waitingSubject.complete();
    this.clearTimer();
    for (const waiter of this.stepWaiters.splice(0)) waiter(null);
    this.deliveredSubject.complete();
    this.resolveDone();
  }

  // ---- controls ----

  play(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    this.lastWall = this.now();
    this.schedulePump();
  }

  pause(): void {
    this.isPaused = true;
    this.clearTimer();
  }

  setSpeed(speed: ReplaySpeed): void {
    this.speed = speed;
    this.lastWall = this.now();
    this.schedulePump();
  }

  step(): Promise<DeliveredFrame | null> {
    if (this.finished) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.stepWaiters.push(resolve);
      this.schedulePump();
    });
  }

  close(): void {
    this.clearTimer();
    this.server.close();
    this.finish();
  }
}

export function createPlayer(options: PlayerOptions): Player {
  return new RecordingPlayer(options);
}
