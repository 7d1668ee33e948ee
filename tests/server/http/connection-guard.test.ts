import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, defaultHttpTimeouts } from '../../../server/http/connection-guard.ts';
import { connectCollector } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const CAP = 50;
const timeouts = { connectionMs: 2_000, headersMs: 600, requestMs: 1_000, keepAliveMs: 300, checkIntervalMs: 100 };

/** GET a path from a given local address (the whole 127/8 is loopback: a second "client machine"). */
function getFrom(localAddress: string, port: number, path: string): Promise<{ status: number; body: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, ms: Date.now() - started }));
    });
    req.setTimeout(5_000, () => req.destroy(new Error('no answer in 5 s')));
    req.on('error', reject);
    req.end();
  });
}

/** Opens a socket that never sends a byte; resolves when connected, records when the server closes it. */
function silentSocket(port: number, closedAt: Map<Socket, number>): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.1' });
    socket.on('error', () => {});
    socket.resume(); // read to the end, so the server's close is seen
    socket.on('close', () => closedAt.set(socket, Date.now()));
    socket.on('connect', () => resolve(socket));
    socket.on('close', () => resolve(socket));
  });
}

const waitUntil = async (predicate: () => boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('idle connections and the per-address cap', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ httpTimeouts: timeouts, maxConnectionsPerAddress: CAP });
  });
  afterAll(async () => {
    await t?.server.close();
  });

  it('has sane defaults: every timeout set, the cap far above an office behind one NAT', () => {
    expect(defaultHttpTimeouts.connectionMs).toBeGreaterThan(0);
    expect(defaultHttpTimeouts.headersMs).toBeLessThanOrEqual(defaultHttpTimeouts.requestMs);
    expect(defaultHttpTimeouts.keepAliveMs).toBeGreaterThan(0);
    expect(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS).toBeGreaterThanOrEqual(256);
    const server = t.server.app.server;
    expect(server.headersTimeout).toBe(timeouts.headersMs);
    expect(server.requestTimeout).toBe(timeouts.requestMs);
    expect(server.keepAliveTimeout).toBe(timeouts.keepAliveMs);
    expect(server.timeout).toBe(timeouts.connectionMs);
  });

  it('1,100 silent connections from one address do not stop a new client; they are dropped at the header deadline', async () => {
    const port = t.server.port;
    const closedAt = new Map<Socket, number>();
    const opened = Date.now();
    let seen = 0;
    const countSeen = () => (seen += 1);
    t.server.app.server.on('connection', countSeen);
    const sockets: Socket[] = [];
    // In batches, as an attacker's loop would; each batch accepted by the server before the next.
    for (let batch = 0; batch < 11; batch += 1) {
      sockets.push(...(await Promise.all(Array.from({ length: 100 }, () => silentSocket(port, closedAt)))));
      await waitUntil(() => seen >= sockets.length, 5_000);
    }
    t.server.app.server.off('connection', countSeen);
    expect(sockets).toHaveLength(1_100);
    // Everything over the cap is closed at once by the server.
    await waitUntil(() => closedAt.size >= 1_100 - CAP, 5_000);
    const refusedAtOnce = closedAt.size;
    expect(refusedAtOnce).toBe(1_100 - CAP);
    expect(Date.now() - opened).toBeLessThan(timeouts.connectionMs);

    // Another machine is served at once.
    const other = await getFrom('127.0.0.2', port, '/session/api/health');
    expect(other.status).toBe(200);
    expect(other.ms).toBeLessThan(1_000);

    // The silent connections within the cap go at the header deadline (Node's header clock starts at
    // the connection), before the longer idle timeout, and not before the deadline.
    await waitUntil(() => closedAt.size === 1_100, timeouts.headersMs + 2_000);
    const lastClosed = Math.max(...closedAt.values());
    const firstDropped = Math.min(...[...closedAt.values()].sort((a, b) => a - b).slice(refusedAtOnce));
    expect(firstDropped - opened).toBeGreaterThanOrEqual(timeouts.headersMs - 50);
    expect(lastClosed - opened).toBeLessThan(timeouts.connectionMs);

    // And the address that held them is served again, once the server has seen the closes too (the
    // client sees its socket close before the server's 'close' event frees the slot).
    const server = t.server.app.server;
    const openOnServer = () => new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));
    let stillOpen = await openOnServer();
    for (const deadline = Date.now() + 5_000; stillOpen >= CAP && Date.now() < deadline; stillOpen = await openOnServer()) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(stillOpen).toBeLessThan(CAP);
    expect((await getFrom('127.0.0.1', port, '/session/api/health')).status).toBe(200);
    console.log(`connection-guard: silent=${sockets.length} cap=${CAP} refusedAtOnce=${refusedAtOnce} droppedAtHeaderDeadline=${closedAt.size - refusedAtOnce} lastClosedAfterMs=${lastClosed - opened} otherClientMs=${other.ms}`);
  }, 30_000);

  it('a slow-loris request (headers dribbled byte by byte) gets 408 REQUEST_TIMEOUT at the header deadline', async () => {
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(t.server.port, '127.0.0.1');
      const text = 'GET /session/api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'a'.repeat(200);
      let index = 0;
      // A byte every 50 ms keeps the socket busy, so only the header deadline can end it.
      const timer = setInterval(() => {
        if (index < text.length && socket.writable) socket.write(text[index++]!);
      }, 50);
      let received = '';
      socket.on('data', (chunk) => (received += chunk));
      socket.on('close', () => {
        clearInterval(timer);
        resolve(received);
      });
      socket.on('error', reject);
    });
    const elapsed = Date.now() - started;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body.error).toEqual({ code: 'REQUEST_TIMEOUT', params: { timeoutMs: timeouts.headersMs } });
    expect(elapsed).toBeGreaterThanOrEqual(timeouts.headersMs - 50);
    expect(elapsed).toBeLessThan(timeouts.requestMs + 1_000);
  });

  it('an upgraded STOMP socket outlives every HTTP timeout and keeps working', async () => {
    const token = await t.login('broker1');
    const stomp = await connectCollector(t.server.port, token);
    let closed = false;
    stomp.client.onWebSocketClose = () => (closed = true);
    // Silent well past the idle, header, request and keep-alive timeouts (no heart-beats either).
    await new Promise((resolve) => setTimeout(resolve, timeouts.connectionMs * 1.5));
    expect(closed).toBe(false);
    expect(stomp.client.connected).toBe(true);
    await stomp.subscribe('/user/queue/orders'); // resolves on the server's RECEIPT
    await stomp.close();
  }, 15_000);

  it('counts upgraded sockets against the cap too, and frees their slots when they close', async () => {
    const token = await t.login('broker2');
    const clients = await Promise.all(Array.from({ length: 5 }, () => connectCollector(t.server.port, token)));
    expect(t.server.gateway.connectionCount()).toBeGreaterThanOrEqual(5);
    await Promise.all(clients.map((client) => client.close()));
    await waitUntil(() => t.server.gateway.connectionCount() === 0, 5_000);
    // With the sockets gone, the address can open a full cap of connections again.
    const closedAt = new Map<Socket, number>();
    const sockets = await Promise.all(Array.from({ length: CAP }, () => silentSocket(t.server.port, closedAt)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closedAt.size).toBe(0);
    for (const socket of sockets) socket.destroy();
  });
});
