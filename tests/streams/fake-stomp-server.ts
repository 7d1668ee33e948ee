/**
 * A fake STOMP 1.2 server on mock-socket for the client-core tests: parses the client's frames,
 * answers CONNECT (or refuses it with an ERROR frame), keeps subscriptions, publishes MESSAGEs,
 * sends heart-beats on demand and drops sockets. Plus a reference order book that produces
 * snapshots and contiguous deltas.
 */
import { Server, WebSocket as MockWebSocket, type Client as MockSocket } from 'mock-socket';
import type { IStompSocket } from '@stomp/stompjs';
import type { BookDelta, BookLevel, BookLevelChange, BookSnapshot } from '../../protocol/market-data.ts';
import { encodeStompFrame, StompFrameParser, type StompFrameData } from '../../streams/stomp-frames.ts';
import type { WebSocketFactory } from '../../streams/connection.ts';

export interface FakeConnection {
  n: number;
  socket: MockSocket;
  open: boolean;
  connected: boolean;
  connectFrame: StompFrameData | undefined;
  /** Subscription id -> destination, live ones only. */
  subscriptions: Map<string, string>;
  received: StompFrameData[];
}

export interface FakeServerOptions {
  /** heart-beat header of CONNECTED; default '0,0'. */
  heartbeat?: string;
  /** Return a refusal to answer CONNECT with ERROR + close. */
  refuseConnect?: (frame: StompFrameData) => { code: string; params?: Record<string, string | number> } | null;
  /** Called after a SUBSCRIBE is registered (send a snapshot here). */
  onSubscribe?: (connection: FakeConnection, id: string, destination: string) => void;
}

let serial = 0;
/** A URL no other test uses (mock-socket allows one server per URL). */
export function uniqueUrl(name = 'stomp'): string {
  serial += 1;
  return `ws://fake-${name}-${serial}.test/session/ws`;
}

export class FakeStompServer {
  readonly server: Server;
  readonly connections: FakeConnection[] = [];
  readonly webSocketFactory: WebSocketFactory;
  private messageId = 0;

  constructor(
    readonly url: string,
    readonly options: FakeServerOptions = {},
  ) {
    this.server = new Server(url, { mock: false });
    this.server.on('connection', (socket) => this.onConnection(socket));
    this.webSocketFactory = (_url, protocols) => new MockWebSocket(url, protocols) as unknown as IStompSocket;
  }

  private onConnection(socket: MockSocket): void {
    const connection: FakeConnection = {
      n: this.connections.length + 1,
      socket,
      open: true,
      connected: false,
      connectFrame: undefined,
      subscriptions: new Map(),
      received: [],
    };
    this.connections.push(connection);
    const parser = new StompFrameParser();
    socket.on('message', (data) => {
      for (const item of parser.push(data as string)) if (item !== 'heartbeat') this.onFrame(connection, item);
    });
    socket.on('close', () => {
      connection.open = false;
      connection.connected = false;
      connection.subscriptions.clear();
    });
  }

  private send(connection: FakeConnection, command: string, headers: Record<string, string>, body = ''): void {
    if (connection.open) connection.socket.send(encodeStompFrame(command, headers, body));
  }

  private onFrame(connection: FakeConnection, frame: StompFrameData): void {
    connection.received.push(frame);
    const receipt = frame.headers['receipt'];
    switch (frame.command) {
      case 'CONNECT':
      case 'STOMP': {
        connection.connectFrame = frame;
        const refusal = this.options.refuseConnect?.(frame) ?? null;
        if (refusal) {
          this.send(connection, 'ERROR', { message: refusal.code, code: refusal.code, 'content-type': 'application/json' }, JSON.stringify({ code: refusal.code, params: refusal.params ?? {} }));
          connection.socket.close({ code: 1008, reason: refusal.code, wasClean: true });
          return;
        }
        connection.connected = true;
        this.send(connection, 'CONNECTED', { version: '1.2', 'heart-beat': this.options.heartbeat ?? '0,0', server: 'fake/1', session: `s${connection.n}` });
        return;
      }
      case 'SUBSCRIBE': {
        const id = frame.headers['id']!;
        const destination = frame.headers['destination']!;
        connection.subscriptions.set(id, destination);
        if (receipt !== undefined) this.send(connection, 'RECEIPT', { 'receipt-id': receipt });
        this.options.onSubscribe?.(connection, id, destination);
        return;
      }
      case 'UNSUBSCRIBE':
        connection.subscriptions.delete(frame.headers['id']!);
        break;
      case 'DISCONNECT':
        if (receipt !== undefined) this.send(connection, 'RECEIPT', { 'receipt-id': receipt });
        connection.connected = false;
        connection.socket.close({ code: 1000, reason: 'disconnect', wasClean: true });
        return;
      default:
        break;
    }
    if (receipt !== undefined) this.send(connection, 'RECEIPT', { 'receipt-id': receipt });
  }

  /** The newest open connection. */
  get current(): FakeConnection | undefined {
    for (let i = this.connections.length - 1; i >= 0; i--) if (this.connections[i]!.open) return this.connections[i];
    return undefined;
  }

  /** A MESSAGE to one subscription; the body is sent as given when it is a string. */
  sendTo(connection: FakeConnection, subscriptionId: string, body: unknown): void {
    const destination = connection.subscriptions.get(subscriptionId);
    if (destination === undefined) throw new Error(`no subscription ${subscriptionId}`);
    this.messageId += 1;
    this.send(
      connection,
      'MESSAGE',
      { destination, subscription: subscriptionId, 'message-id': String(this.messageId), 'content-type': 'application/json' },
      typeof body === 'string' ? body : JSON.stringify(body),
    );
  }

  /** A MESSAGE to every live subscription of `destination`. */
  publish(destination: string, body: unknown): number {
    let sent = 0;
    for (const connection of this.connections) {
      if (!connection.open) continue;
      for (const [id, d] of connection.subscriptions) {
        if (d !== destination) continue;
        this.sendTo(connection, id, body);
        sent += 1;
      }
    }
    return sent;
  }

  heartbeat(): void {
    const connection = this.current;
    if (connection) connection.socket.send('\n');
  }

  /** Closes the socket from the server side (as a network drop would). */
  drop(connection = this.current, code = 1006): void {
    if (connection?.open) connection.socket.close({ code, reason: 'dropped', wasClean: false });
  }

  /** Every SUBSCRIBE the server received for `destination`, across connections. */
  subscribeCount(destination: string): number {
    return this.connections.reduce((n, c) => n + c.received.filter((f) => f.command === 'SUBSCRIBE' && f.headers['destination'] === destination).length, 0);
  }

  frames(command: string): StompFrameData[] {
    return this.connections.flatMap((c) => c.received.filter((f) => f.command === command));
  }

  close(): void {
    this.server.stop();
  }
}

/** The server's true book: applies changes, numbers them, and produces snapshots and deltas. */
export class ReferenceBook {
  seq: number;
  private readonly bids = new Map<number, BookLevel>();
  private readonly asks = new Map<number, BookLevel>();

  constructor(
    readonly assetId: string,
    startSeq = 100,
  ) {
    this.seq = startSeq;
  }

  private static sorted(levels: Map<number, BookLevel>, descending: boolean): BookLevel[] {
    return [...levels.values()].sort((a, b) => (descending ? b.price - a.price : a.price - b.price)).map((l) => ({ ...l }));
  }

  snapshot(): BookSnapshot {
    return {
      type: 'snapshot',
      assetId: this.assetId,
      seq: this.seq,
      bids: ReferenceBook.sorted(this.bids, true),
      asks: ReferenceBook.sorted(this.asks, false),
      at: new Date(Date.UTC(2026, 0, 1) + this.seq * 1000).toISOString(),
    };
  }

  /** Applies the changes and returns the delta that carries them. */
  change(changes: BookLevelChange[]): BookDelta {
    for (const change of changes) {
      const side = change.side === 'bid' ? this.bids : this.asks;
      if (change.qty === 0) side.delete(change.price);
      else side.set(change.price, { price: change.price, qty: change.qty, orders: change.orders });
    }
    this.seq += 1;
    return { type: 'delta', assetId: this.assetId, seq: this.seq, changes, at: new Date(Date.UTC(2026, 0, 1) + this.seq * 1000).toISOString() };
  }

  /** Levels as the client keeps them, for comparisons. */
  levels(): { seq: number; bids: BookLevel[]; asks: BookLevel[] } {
    return { seq: this.seq, bids: ReferenceBook.sorted(this.bids, true), asks: ReferenceBook.sorted(this.asks, false) };
  }
}

/** A small deterministic PRNG (mulberry32) for generated order flow. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random level change around a mid price: new level, changed level or removal. */
export function randomChange(random: () => number, book: ReferenceBook): BookLevelChange {
  const side = random() < 0.5 ? 'bid' : 'ask';
  const price = side === 'bid' ? 9_000 + Math.floor(random() * 20) * 5 : 10_005 + Math.floor(random() * 20) * 5;
  const existing = book.levels()[side === 'bid' ? 'bids' : 'asks'].some((l) => l.price === price);
  const remove = existing && random() < 0.3;
  return { side, price, qty: remove ? 0 : 1 + Math.floor(random() * 50) * 10, orders: remove ? 0 : 1 + Math.floor(random() * 4) };
}
