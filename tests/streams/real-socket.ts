/**
 * Real sockets for the client stack against the real exchange server (soak test, recording script):
 * a `ws` WebSocket behind the connection module's `webSocketFactory`, which the test can kill from
 * the client side (`terminate()`: no close handshake, like a dead network) and which can lose one
 * inbound book delta on purpose (a frame lost on the way: the client must see a sequence gap).
 * Plus a handle on the server side of the same sockets, to make the server drop them.
 */
import type { Duplex } from 'node:stream';
import type { Server } from 'node:http';
import type { IStompSocket } from '@stomp/stompjs';
import { WebSocket } from 'ws';
import type { WebSocketFactory } from '../../streams/connection.ts';

type Handler = ((event: any) => any) | null | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- the handler type of @stomp/stompjs's IStompSocket

/** A ws WebSocket seen through the IStompSocket interface, with an inbound filter. */
export class RealSocket implements IStompSocket {
  readonly ws: WebSocket;
  onopen: Handler = null;
  onclose: Handler = null;
  onerror: Handler = null;
  onmessage: Handler = null;

  constructor(
    url: string,
    protocols: string[],
    /** Returns true for an inbound WebSocket message that must be lost. */
    private readonly lose: (text: string) => boolean,
  ) {
    this.ws = new WebSocket(url, protocols);
    this.ws.onopen = (event) => this.onopen?.(event);
    this.ws.onmessage = (event) => {
      const text = typeof event.data === 'string' ? event.data : Buffer.from(event.data as ArrayBuffer).toString('utf8');
      if (this.lose(text)) return;
      this.onmessage?.({ data: text });
    };
    this.ws.onclose = (event) => this.onclose?.({ code: event.code, reason: event.reason, wasClean: event.wasClean });
    this.ws.onerror = (event) => this.onerror?.({ message: event.message });
  }

  get url(): string {
    return this.ws.url;
  }
  get readyState(): number {
    return this.ws.readyState;
  }
  get binaryType(): string {
    return this.ws.binaryType;
  }
  set binaryType(value: string) {
    if (value === 'arraybuffer' || value === 'nodebuffer' || value === 'fragments') this.ws.binaryType = value;
  }
  send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
    this.ws.send(data as string);
  }
  close(): void {
    this.ws.close();
  }
}

export interface RealSocketFactory {
  readonly webSocketFactory: WebSocketFactory;
  /** The socket made last (the connection's current one). */
  readonly current: RealSocket | undefined;
  readonly created: number;
  /** Loses the next inbound book delta of `destination` (a MESSAGE whose body is a delta). */
  loseNextDelta(destination: string): void;
  /** Book deltas lost so far. */
  readonly lost: number;
  /** Kills the current socket from the client side: no close handshake (ws terminate). */
  killFromClient(): boolean;
}

export function realSocketFactory(): RealSocketFactory {
  let current: RealSocket | undefined;
  let created = 0;
  let lost = 0;
  let armed: string | null = null;
  const lose = (text: string): boolean => {
    if (armed === null) return false;
    if (!text.startsWith('MESSAGE') || !text.includes(`\ndestination:${armed}\n`) || !text.includes('"type":"delta"')) return false;
    armed = null;
    lost += 1;
    return true;
  };
  return {
    webSocketFactory: (url, protocols) => {
      created += 1;
      current = new RealSocket(url, protocols, lose);
      return current;
    },
    get current() {
      return current;
    },
    get created() {
      return created;
    },
    get lost() {
      return lost;
    },
    loseNextDelta(destination) {
      armed = destination;
    },
    killFromClient() {
      if (!current || current.readyState !== WebSocket.OPEN) return false;
      current.ws.terminate();
      return true;
    },
  };
}

/**
 * The server's ends of the WebSocket connections of an HTTP server (taken at the upgrade, without
 * touching the gateway): `dropLatest()` destroys the newest one, as if the server or a proxy in
 * front of it dropped the connection.
 */
export function serverSockets(server: Server): { dropLatest(): boolean; readonly count: number; stop(): void } {
  const sockets: Duplex[] = [];
  const onUpgrade = (_request: unknown, socket: Duplex): void => {
    sockets.push(socket);
  };
  server.on('upgrade', onUpgrade);
  return {
    dropLatest() {
      const socket = sockets.at(-1);
      if (!socket || socket.destroyed) return false;
      socket.destroy();
      return true;
    },
    get count() {
      return sockets.length;
    },
    stop() {
      server.off('upgrade', onUpgrade);
    },
  };
}
