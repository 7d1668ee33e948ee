/** Test rig for the gateway: a plain node http server, jose HS256 tokens, stompjs and raw ws clients. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, type IFrame, type StompConfig } from '@stomp/stompjs';
import { errors, jwtVerify, SignJWT } from 'jose';
import { WebSocket } from 'ws';
import { apiError, ExchangeError } from '../../../protocol/index.ts';
import { createStompGateway, type Principal, type StompGateway, type StompGatewayOptions } from '../../../server/gateway/stomp-gateway.ts';

export const SECRET = new TextEncoder().encode('gateway-test-secret-0123456789abcdef');
const FORGER_SECRET = new TextEncoder().encode('someone-else-secret-0123456789abcdef');

export const principals: Record<string, Principal> = {
  alice: { userId: 'u-alice', username: 'alice', roles: ['client'], clientCodes: ['C1'], marketIds: ['M1'] },
  bob: { userId: 'u-bob', username: 'bob', roles: ['client'], clientCodes: ['C2'], marketIds: ['M2'] },
  operator: { userId: 'u-operator', username: 'operator', roles: ['administrator'], clientCodes: [], marketIds: ['M1', 'M2'] },
};
/** Asset -> market, for topic authorisation. */
const assetMarket: Record<string, string> = { A1: 'M1', B1: 'M2' };

export async function signToken(username: string, options: { expired?: boolean; forged?: boolean } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ username })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(username)
    .setIssuedAt(options.expired ? now - 3600 : now)
    .setExpirationTime(options.expired ? now - 1800 : now + 600)
    .sign(options.forged ? FORGER_SECRET : SECRET);
}

export async function authenticate(token: string): Promise<Principal> {
  try {
    const { payload } = await jwtVerify(token, SECRET, { algorithms: ['HS256'] });
    const principal = principals[String(payload.sub)];
    if (!principal) throw new ExchangeError(apiError('AUTH_TOKEN_INVALID'));
    return principal;
  } catch (error) {
    if (error instanceof ExchangeError) throw error;
    if (error instanceof errors.JWTExpired) throw new ExchangeError(apiError('AUTH_TOKEN_EXPIRED'));
    throw new ExchangeError(apiError('AUTH_TOKEN_INVALID'));
  }
}

export const authorize: StompGatewayOptions['authorize'] = (principal, destination) => {
  if (!('id' in destination)) return false;
  const market = destination.kind === 'marketWatch' || destination.kind === 'phase' ? destination.id : assetMarket[destination.id];
  return market !== undefined && principal.marketIds.includes(market);
};

export interface Rig {
  server: Server;
  gateway: StompGateway;
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startRig(overrides: Partial<StompGatewayOptions> = {}): Promise<Rig> {
  const server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  const gateway = createStompGateway({ server, authenticate, authorize, ...overrides });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    gateway,
    port,
    url: `ws://127.0.0.1:${port}${overrides.path ?? '/session/ws'}`,
    async close() {
      await gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- @stomp/stompjs ----

export function stompClient(url: string, token: string | undefined, config: StompConfig = {}): Client {
  return new Client({
    webSocketFactory: () => new WebSocket(url, ['v10.stomp', 'v11.stomp', 'v12.stomp']),
    connectHeaders: token === undefined ? {} : { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
    debug: () => {},
    ...config,
  });
}

/** Activates and resolves with CONNECTED; rejects with the ERROR frame or on close. */
export function connect(client: Client): Promise<IFrame> {
  return new Promise((resolve, reject) => {
    client.onConnect = resolve;
    client.onStompError = (frame) => reject(Object.assign(new Error('STOMP ERROR'), { frame }));
    client.onWebSocketClose = (event) => reject(new Error(`closed ${String((event as { code?: number }).code)}`));
    client.activate();
  });
}

/** Activates and resolves with the ERROR frame the server answers with. */
export function connectExpectingError(client: Client): Promise<{ frame: IFrame; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let closedResolve!: () => void;
    const closed = new Promise<void>((r) => (closedResolve = r));
    client.onConnect = () => reject(new Error('unexpectedly connected'));
    client.onStompError = (frame) => resolve({ frame, closed });
    client.onWebSocketClose = () => closedResolve();
    client.activate();
  });
}

/** Waits for the next ERROR frame of a connected client. */
export function nextStompError(client: Client): Promise<IFrame> {
  return new Promise((resolve) => {
    client.onStompError = resolve;
  });
}

export function receipt(client: Client, id: string): Promise<IFrame> {
  return new Promise((resolve) => client.watchForReceipt(id, resolve));
}

// ---- raw ws ----

export interface ServerFrame {
  command: string;
  headers: Record<string, string>;
  body: string;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 'c' ? ':' : c));
}

/** Splits received bytes into server frames (heart-beats dropped). */
export function parseServerFrames(data: Buffer): ServerFrame[] {
  const frames: ServerFrame[] = [];
  let pos = 0;
  while (pos < data.length) {
    while (pos < data.length && (data[pos] === 0x0a || data[pos] === 0x0d)) pos += 1;
    if (pos >= data.length) break;
    const headerEnd = data.indexOf('\n\n', pos);
    if (headerEnd < 0) throw new Error(`unterminated header block: ${data.toString()}`);
    const [command = '', ...lines] = data.toString('utf8', pos, headerEnd).split('\n');
    const escaped = command !== 'CONNECTED';
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = escaped ? unescape(line.slice(0, colon)) : line.slice(0, colon);
      if (!(name in headers)) headers[name] = escaped ? unescape(line.slice(colon + 1)) : line.slice(colon + 1);
    }
    const bodyStart = headerEnd + 2;
    const length = headers['content-length'];
    const bodyEnd = length !== undefined ? bodyStart + Number(length) : data.indexOf(0, bodyStart);
    if (bodyEnd < 0 || data[bodyEnd] !== 0) throw new Error(`frame not NUL-terminated: ${data.toString()}`);
    frames.push({ command, headers, body: data.toString('utf8', bodyStart, bodyEnd) });
    pos = bodyEnd + 1;
  }
  return frames;
}

export class RawClient {
  readonly ws: WebSocket;
  readonly frames: ServerFrame[] = [];
  heartbeats = 0;
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number }>;
  private waiters: Array<() => void> = [];

  constructor(url: string, protocols: string[] = ['v12.stomp']) {
    this.ws = new WebSocket(url, protocols);
    this.ws.on('error', () => {});
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('close', () => reject(new Error('closed before open')));
    });
    this.opened.catch(() => {});
    this.closed = new Promise((resolve) => this.ws.once('close', (code) => resolve({ code })));
    this.ws.on('message', (data: Buffer) => {
      if (/^(\r?\n)+$/.test(data.toString('latin1'))) this.heartbeats += 1;
      else this.frames.push(...parseServerFrames(data));
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(url: string): Promise<RawClient> {
    const client = new RawClient(url);
    await client.opened;
    return client;
  }

  send(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** Waits for the first frame matching `predicate` (default: any ERROR). */
  async waitFor(predicate: (frame: ServerFrame) => boolean, timeoutMs = 3000): Promise<ServerFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching frame; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitForCommand(command: string, timeoutMs?: number): Promise<ServerFrame> {
    return this.waitFor((f) => f.command === command, timeoutMs);
  }

  async connect(token: string, heartBeat = '0,0'): Promise<ServerFrame> {
    this.send(`CONNECT\naccept-version:1.2\nhost:localhost\nheart-beat:${heartBeat}\nAuthorization:Bearer ${token}\n\n\0`);
    return this.waitFor((f) => f.command === 'CONNECTED' || f.command === 'ERROR');
  }

  terminate(): void {
    this.ws.terminate();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` holds. */
export async function until(check: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}
