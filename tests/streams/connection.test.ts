/** The transport module against a fake STOMP server on mock-socket, with fake timers. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  computeBackoffDelay,
  createConnection,
  createConnectionHub,
  createdClientCount,
  negotiatedIncomingMs,
  type Connection,
  type ConnectionOptions,
  type ConnectionState,
  type StreamError,
} from '../../streams/connection.ts';
import { FakeStompServer, uniqueUrl, type FakeServerOptions } from './fake-stomp-server.ts';

const tick = async (ms = 20): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};

interface Rig {
  server: FakeStompServer;
  connection: Connection;
  states: ConnectionState[];
  errors: StreamError[];
  getToken: ReturnType<typeof vi.fn<() => Promise<string>>>;
}

const cleanups: Array<() => Promise<void> | void> = [];

function rig(serverOptions: FakeServerOptions = {}, overrides: Partial<ConnectionOptions> = {}): Rig {
  const url = uniqueUrl('conn');
  const server = new FakeStompServer(url, serverOptions);
  let n = 0;
  const getToken = vi.fn(async () => `token-${++n}`);
  const connection = createConnection({
    url,
    getToken,
    webSocketFactory: server.webSocketFactory,
    heartbeatMs: 0,
    backoff: { initialMs: 100, maxMs: 1_000, jitter: 0.5, random: () => 0 },
    ...overrides,
  });
  const states: ConnectionState[] = [];
  const errors: StreamError[] = [];
  const subs = [connection.connectionState$.subscribe((s) => states.push(s)), connection.errors$.subscribe((e) => errors.push(e))];
  cleanups.push(async () => {
    subs.forEach((s) => s.unsubscribe());
    const done = connection.disconnect({ timeoutMs: 100 });
    await tick(200);
    await done;
    server.close();
  });
  return { server, connection, states, errors, getToken };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  vi.useRealTimers();
});

const payloadSchema = z.strictObject({ n: z.number().int() });

describe('backoff and heart-beat arithmetic', () => {
  it('grows exponentially, caps at maxMs and draws the jitter below the base', () => {
    const base = { initialMs: 100, maxMs: 1_000, jitter: 0.5 };
    expect([1, 2, 3, 4, 5, 6].map((a) => computeBackoffDelay(a, { ...base, random: () => 0 }))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(computeBackoffDelay(3, { ...base, random: () => 1 })).toBe(200);
    expect(computeBackoffDelay(3, { ...base, random: () => 0.5 })).toBe(300);
    expect(computeBackoffDelay(2, { ...base, factor: 3, jitter: 0, random: () => 0.9 })).toBe(300);
  });

  it('negotiates the incoming heart-beat as STOMP 1.2 says', () => {
    expect(negotiatedIncomingMs('10000,10000', 1_000)).toBe(10_000);
    expect(negotiatedIncomingMs('500,0', 1_000)).toBe(1_000);
    expect(negotiatedIncomingMs('0,10000', 1_000)).toBe(0);
    expect(negotiatedIncomingMs('10000,10000', 0)).toBe(0);
    expect(negotiatedIncomingMs(undefined, 1_000)).toBe(0);
  });
});

describe('connect', () => {
  it('connects with the current token as a bearer header and asks for heart-beats both ways', async () => {
    const { server, connection, states } = rig({ heartbeat: '2000,2000' }, { heartbeatMs: 1_500 });
    expect(connection.state).toEqual({ status: 'offline', reason: 'idle' });
    connection.connect();
    expect(connection.state).toEqual({ status: 'connecting', attempt: 0 });
    await tick();
    const connect = server.frames('CONNECT')[0]!;
    expect(connect.headers['Authorization']).toBe('Bearer token-1');
    expect(connect.headers['heart-beat']).toBe('1500,1500');
    expect(connect.headers['accept-version']).toContain('1.2');
    expect(states.map((s) => s.status)).toEqual(['offline', 'connecting', 'connected']);
    expect(connection.state).toEqual({ status: 'connected', generation: 1, heartbeatIncomingMs: 2_000, server: 'fake/1' });
  });

  it('connect() twice opens one socket', async () => {
    const { server, connection } = rig();
    connection.connect();
    connection.connect();
    await tick(50);
    expect(server.connections).toHaveLength(1);
    expect(connection.stats.socketsOpened).toBe(1);
  });
});

describe('watch$', () => {
  it('parses payloads with the schema; a bad payload is reported on errors$, dropped, and the stream goes on', async () => {
    const { server, connection, errors } = rig();
    connection.connect();
    await tick();
    const got: Array<{ n: number }> = [];
    let failed = false;
    let completed = false;
    connection.watch$('/topic/stats.A1', payloadSchema).subscribe({ next: (v) => got.push(v), error: () => (failed = true), complete: () => (completed = true) });
    await tick();
    server.publish('/topic/stats.A1', { n: 1 });
    server.publish('/topic/stats.A1', { n: 'two' });
    server.publish('/topic/stats.A1', '{not json');
    server.publish('/topic/stats.A1', { n: 3, extra: true });
    server.publish('/topic/stats.A1', { n: 4 });
    expect(got).toEqual([{ n: 1 }, { n: 4 }]);
    expect(failed).toBe(false);
    expect(completed).toBe(false);
    const payloadErrors = errors.filter((e) => e.kind === 'payload');
    expect(payloadErrors).toHaveLength(3);
    expect(payloadErrors.map((e) => e.kind === 'payload' && e.reason)).toEqual(['schema', 'json', 'schema']);
    expect(payloadErrors[0]).toMatchObject({ destination: '/topic/stats.A1', body: '{"n":"two"}' });
  });

  it('subscribes when connected, once per subscriber, and unsubscribes on teardown', async () => {
    const { server, connection } = rig();
    const a = connection.watch$('/topic/trades.A1', payloadSchema).subscribe();
    const b = connection.watch$('/topic/trades.A1', payloadSchema).subscribe();
    expect(server.connections).toHaveLength(0);
    connection.connect();
    await tick();
    expect(server.subscribeCount('/topic/trades.A1')).toBe(2);
    a.unsubscribe();
    await tick();
    expect(server.frames('UNSUBSCRIBE')).toHaveLength(1);
    expect([...server.current!.subscriptions.values()]).toEqual(['/topic/trades.A1']);
    b.unsubscribe();
  });
});

describe('reconnect', () => {
  it('after a drop: reconnecting with attempt and delay, a fresh token, every subscription restored', async () => {
    const { server, connection, states, getToken } = rig();
    const got: number[] = [];
    connection.watch$('/topic/stats.A1', payloadSchema).subscribe((v) => got.push(v.n));
    connection.watch$('/user/queue/orders', payloadSchema).subscribe();
    connection.connect();
    await tick();
    server.publish('/topic/stats.A1', { n: 1 });
    server.drop();
    await tick(10);
    expect(connection.state).toEqual({ status: 'reconnecting', attempt: 1, nextDelayMs: 100 });
    await tick(90);
    expect(connection.state.status).toBe('reconnecting');
    await tick(40);
    expect(connection.state).toMatchObject({ status: 'connected', generation: 2 });
    expect(getToken).toHaveBeenCalledTimes(2);
    expect(server.connections).toHaveLength(2);
    expect(server.connections[1]!.connectFrame!.headers['Authorization']).toBe('Bearer token-2');
    expect([...server.current!.subscriptions.values()].sort()).toEqual(['/topic/stats.A1', '/user/queue/orders']);
    server.publish('/topic/stats.A1', { n: 2 });
    expect(got).toEqual([1, 2]);
    expect(states.map((s) => s.status)).toEqual(['offline', 'connecting', 'connected', 'reconnecting', 'connecting', 'connected']);
  });

  it('backs off exponentially while the server refuses, reports the ERROR code, then recovers', async () => {
    let refuse = 3;
    const { server, connection, states, errors } = rig({
      refuseConnect: () => (refuse-- > 0 ? { code: 'AUTH_TOKEN_EXPIRED' } : null),
    });
    connection.connect();
    await tick(2_000);
    expect(connection.state).toMatchObject({ status: 'connected', generation: 1 });
    const waits = states.filter((s) => s.status === 'reconnecting');
    expect(waits).toEqual([
      { status: 'reconnecting', attempt: 1, nextDelayMs: 100 },
      { status: 'reconnecting', attempt: 2, nextDelayMs: 200 },
      { status: 'reconnecting', attempt: 3, nextDelayMs: 400 },
    ]);
    expect(errors.filter((e) => e.kind === 'stomp')).toEqual([
      { kind: 'stomp', code: 'AUTH_TOKEN_EXPIRED', params: {}, message: 'AUTH_TOKEN_EXPIRED' },
      { kind: 'stomp', code: 'AUTH_TOKEN_EXPIRED', params: {}, message: 'AUTH_TOKEN_EXPIRED' },
      { kind: 'stomp', code: 'AUTH_TOKEN_EXPIRED', params: {}, message: 'AUTH_TOKEN_EXPIRED' },
    ]);
    expect(server.connections.map((c) => c.connectFrame?.headers['Authorization'])).toEqual(['Bearer token-1', 'Bearer token-2', 'Bearer token-3', 'Bearer token-4']);
  });

  it('attempts reset after a successful connect', async () => {
    const { server, connection, states } = rig();
    connection.connect();
    await tick();
    server.drop();
    await tick(200);
    server.drop();
    await tick(10);
    expect(states.filter((s) => s.status === 'reconnecting')).toEqual([
      { status: 'reconnecting', attempt: 1, nextDelayMs: 100 },
      { status: 'reconnecting', attempt: 1, nextDelayMs: 100 },
    ]);
  });

  it('goes offline (gaveUp) after maxAttempts failures', async () => {
    const { connection } = rig({ refuseConnect: () => ({ code: 'AUTH_TOKEN_INVALID' }) }, { backoff: { initialMs: 50, maxMs: 50, maxAttempts: 2, random: () => 0 } });
    connection.connect();
    await tick(1_000);
    expect(connection.state).toEqual({ status: 'offline', reason: 'gaveUp' });
  });

  it('a failing getToken is reported and the attempt retried with backoff', async () => {
    const { server, connection, errors } = rig();
    let calls = 0;
    const failing = createConnection({
      url: server.url,
      getToken: () => {
        calls += 1;
        if (calls === 1) throw new Error('session expired');
        return 'fresh';
      },
      webSocketFactory: server.webSocketFactory,
      heartbeatMs: 0,
      backoff: { initialMs: 100, maxMs: 100, random: () => 0 },
    });
    const failingErrors: StreamError[] = [];
    failing.errors$.subscribe((e) => failingErrors.push(e));
    failing.connect();
    await tick(10);
    expect(failingErrors).toEqual([{ kind: 'token', message: 'session expired' }]);
    expect(failing.state).toEqual({ status: 'reconnecting', attempt: 1, nextDelayMs: 100 });
    expect(server.connections).toHaveLength(0);
    await tick(150);
    expect(failing.state.status).toBe('connected');
    expect(server.connections[0]!.connectFrame!.headers['Authorization']).toBe('Bearer fresh');
    const done = failing.disconnect();
    await tick(50);
    await done;
    expect(connection.state.status).toBe('offline');
    expect(errors).toEqual([]);
  });
});

describe('heart-beat silence', () => {
  it('fires silence$ once when nothing arrives for longer than the heart-beat, and again after new silence', async () => {
    const { server, connection } = rig({ heartbeat: '1000,1000' }, { heartbeatMs: 1_000, silenceGraceMs: 200 });
    const silences: number[] = [];
    connection.silence$.subscribe((s) => silences.push(s.thresholdMs));
    connection.connect();
    await tick();
    // Heart-beats every 900 ms keep it quiet.
    for (let i = 0; i < 5; i++) {
      await tick(900);
      server.heartbeat();
    }
    expect(silences).toEqual([]);
    await tick(1_250);
    expect(silences).toEqual([1_200]);
    await tick(500);
    expect(silences).toHaveLength(1);
    server.heartbeat();
    await tick(1_250);
    expect(silences).toEqual([1_200, 1_200]);
  });
});

describe('heart-beat loss', () => {
  it('drops a socket whose server stays silent for two heart-beats and reconnects, with silence$ first', async () => {
    const { server, connection, states } = rig({ heartbeat: '1000,1000' }, { heartbeatMs: 1_000, silenceGraceMs: 250 });
    const silences: number[] = [];
    connection.silence$.subscribe(() => silences.push(Date.now()));
    connection.connect();
    await tick();
    const connectedAt = Date.now();
    await tick(1_300);
    expect(silences).toHaveLength(1);
    expect(connection.state.status).toBe('connected');
    await tick(1_800);
    expect(states.map((s) => s.status)).toContain('reconnecting');
    expect(silences[0]! - connectedAt).toBeLessThan(1_300);
    await tick(200);
    expect(server.connections.length).toBeGreaterThanOrEqual(2);
    expect(server.connections[0]!.received.some((f) => f.command === 'CONNECT')).toBe(true);
  });
});

describe('disconnect', () => {
  it('sends DISCONNECT, resolves on the RECEIPT and goes offline', async () => {
    const { server, connection, states } = rig();
    connection.connect();
    await tick();
    const done = connection.disconnect();
    await tick(50);
    await expect(done).resolves.toEqual({ receipt: true });
    expect(server.frames('DISCONNECT')).toHaveLength(1);
    expect(server.frames('DISCONNECT')[0]!.headers['receipt']).toBeTruthy();
    expect(connection.state).toEqual({ status: 'offline', reason: 'disconnected' });
    await tick(1_000);
    expect(server.connections).toHaveLength(1);
    expect(states.at(-1)).toEqual({ status: 'offline', reason: 'disconnected' });
  });

  it('stops a pending reconnect', async () => {
    const { server, connection } = rig();
    connection.connect();
    await tick();
    server.drop();
    await tick(10);
    expect(connection.state.status).toBe('reconnecting');
    const done = connection.disconnect();
    await tick(10);
    await expect(done).resolves.toEqual({ receipt: false });
    await tick(1_000);
    expect(server.connections).toHaveLength(1);
    expect(connection.state).toEqual({ status: 'offline', reason: 'disconnected' });
  });

  it('can connect again after a disconnect', async () => {
    const { server, connection } = rig();
    connection.connect();
    await tick();
    void connection.disconnect();
    connection.connect();
    await tick(100);
    expect(connection.state.status).toBe('connected');
    expect(server.connections).toHaveLength(2);
  });
});

describe('exactly one client', () => {
  it('a hub hands out one connection under repeated acquire/release and disconnects after the last release', async () => {
    const url = uniqueUrl('hub');
    const server = new FakeStompServer(url);
    cleanups.push(() => server.close());
    const hub = createConnectionHub();
    const before = createdClientCount();
    const create = vi.fn(() =>
      createConnection({ url, getToken: () => 't', webSocketFactory: server.webSocketFactory, heartbeatMs: 0, backoff: { initialMs: 10, maxMs: 10 } }),
    );
    // StrictMode-like: mount, unmount, mount, repeatedly, in the same task.
    const leases = [];
    for (let i = 0; i < 10; i++) {
      const lease = hub.acquire('main', create);
      lease.release();
      leases.push(hub.acquire('main', create));
    }
    expect(new Set(leases.map((l) => l.connection)).size).toBe(1);
    expect(hub.references('main')).toBe(10);
    await tick(50);
    for (const lease of leases.slice(1)) lease.release();
    leases[1]!.release(); // idempotent
    await tick(50);
    expect(hub.references('main')).toBe(1);
    expect(create).toHaveBeenCalledTimes(1);
    expect(createdClientCount() - before).toBe(1);
    expect(server.connections).toHaveLength(1);
    expect(leases[0]!.connection.state.status).toBe('connected');
    leases[0]!.release();
    await tick(50);
    expect(hub.size()).toBe(0);
    expect(server.frames('DISCONNECT')).toHaveLength(1);
    expect(leases[0]!.connection.state).toEqual({ status: 'offline', reason: 'disconnected' });
    // A later acquire makes a new one.
    const again = hub.acquire('main', create);
    expect(again.connection).not.toBe(leases[0]!.connection);
    again.release();
    await tick(50);
  });
});
