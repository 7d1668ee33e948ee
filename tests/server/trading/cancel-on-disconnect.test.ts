/**
 * Cancel-on-disconnect over real sockets and the real server (PGlite): a session that asks for it in
 * its CONNECT and then drops has its user's orders cancelled after the grace; a DISCONNECT keeps
 * them; a reconnect with the header within the grace keeps them; with several armed sessions only
 * the last one's drop cancels them; a bad header refuses the CONNECT.
 * The gateway's part (how a session ended, the headers without the token) on the gateway rig.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { SessionEnd } from '../../../server/gateway/types.ts';
import { cancelGraceOf, MAX_CANCEL_GRACE_MS } from '../../../server/trading/cancel-on-disconnect.ts';
import { signToken, startRig } from '../gateway/helpers.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

interface RawSession {
  ws: WebSocket;
  /** The text of every frame received so far. */
  frames: string[];
  next(match: RegExp, timeoutMs?: number): Promise<string>;
}

/** A raw STOMP 1.2 session: CONNECT with `headers`, resolved on CONNECTED or ERROR (whichever comes). */
async function connect(port: number, token: string, headers: Record<string, string> = {}): Promise<RawSession> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/session/ws`, ['v12.stomp']);
  const frames: string[] = [];
  ws.on('message', (data) => frames.push(String(data)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const extra = Object.entries(headers).map(([name, value]) => `${name}:${value}\n`).join('');
  ws.send(`CONNECT\naccept-version:1.2\nhost:exchange\nheart-beat:0,0\nAuthorization:Bearer ${token}\n${extra}\n\0`);
  const session: RawSession = {
    ws,
    frames,
    async next(match, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = frames.find((frame) => match.test(frame));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no frame ${match}: ${JSON.stringify(frames)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
  await session.next(/^(CONNECTED|ERROR)\n/);
  return session;
}

async function disconnect(session: RawSession): Promise<void> {
  session.ws.send('DISCONNECT\nreceipt:bye\n\n\0');
  await session.next(/^RECEIPT\nreceipt-id:bye\n/);
  await new Promise<void>((resolve) => (session.ws.readyState === WebSocket.CLOSED ? resolve() : session.ws.once('close', () => resolve())));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cancel-on-disconnect on the real server', () => {
  let t: TestServer;
  let token: string;
  let serial = 0;
  beforeAll(async () => {
    t = await startTestServer();
    token = await t.login('broker1');
  });
  afterAll(async () => {
    await t?.server.close();
  });

  async function place(clientCode = 'RO-HIDRO'): Promise<string> {
    const answer = await t.post('/orders', { idempotencyKey: `cod-${String(++serial).padStart(6, '0')}`, assetId: 'GSPOT-DA', way: 'bid', price: 14_000, qty: 10, validityType: 'GTC', clientCode }, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.order.orderId as string;
  }
  async function live(): Promise<string[]> {
    return ((await t.get('/orders/mine', token)).body.items as Array<{ orderId: string }>).map((order) => order.orderId).sort();
  }
  async function waitUntilNoOrders(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await live()).length > 0) {
      if (Date.now() > deadline) throw new Error(`orders still live: ${JSON.stringify(await live())}`);
      await sleep(20);
    }
  }

  it('the socket killed: the orders stay during the grace, then are cancelled', async () => {
    const orders = [await place('RO-HIDRO'), await place('RO-GAZEST')].sort();
    // Graces long enough that a loaded machine's slow request cannot outlast them.
    const session = await connect(t.server.port, token, { 'cancel-on-disconnect': '1000' });
    expect(session.frames[0]).toMatch(/^CONNECTED\n/);
    const killedAt = Date.now();
    session.ws.terminate();
    await sleep(100);
    expect(await live()).toEqual(orders);
    await waitUntilNoOrders();
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(1000);
  });

  it('a DISCONNECT keeps the orders', async () => {
    const order = await place();
    const session = await connect(t.server.port, token, { 'cancel-on-disconnect': '50' });
    await disconnect(session);
    await sleep(400);
    expect(await live()).toEqual([order]);
    await t.post('/orders/cancel-all', {}, token);
  });

  it('a reconnect of the same user with the header within the grace keeps them; that session dropping cancels them', async () => {
    const order = await place();
    const first = await connect(t.server.port, token, { 'cancel-on-disconnect': '2500' });
    const killedAt = Date.now();
    first.ws.terminate();
    await sleep(50);
    const second = await connect(t.server.port, token, { 'cancel-on-disconnect': '100' });
    expect(second.frames[0]).toMatch(/^CONNECTED\n/);
    await sleep(Math.max(0, killedAt + 2800 - Date.now()));
    expect(await live()).toEqual([order]);
    second.ws.terminate();
    await waitUntilNoOrders();
  });

  it('a session without the header, or a reconnect without it, does not arm or disarm it', async () => {
    const order = await place();
    const plain = await connect(t.server.port, token);
    plain.ws.terminate();
    await sleep(300);
    expect(await live()).toEqual([order]);
    const armed = await connect(t.server.port, token, { 'cancel-on-disconnect': '200' });
    armed.ws.terminate();
    const screen = await connect(t.server.port, token);
    await waitUntilNoOrders();
    await disconnect(screen);
  });

  it('several armed sessions of one user: one dropping keeps the orders while another is open; the last dropping cancels them', async () => {
    const order = await place();
    const first = await connect(t.server.port, token, { 'cancel-on-disconnect': '100' });
    const second = await connect(t.server.port, token, { 'cancel-on-disconnect': '100' });
    expect([first.frames[0], second.frames[0]]).toEqual([expect.stringMatching(/^CONNECTED\n/), expect.stringMatching(/^CONNECTED\n/)]);
    first.ws.terminate();
    // well past the first session's grace: the second still watches the orders
    await sleep(600);
    expect(await live()).toEqual([order]);
    const killedAt = Date.now();
    second.ws.terminate();
    await waitUntilNoOrders();
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(100);
  });

  it('several armed sessions: when the last one ends with a DISCONNECT, an earlier drop cancels nothing', async () => {
    const order = await place();
    const first = await connect(t.server.port, token, { 'cancel-on-disconnect': '50' });
    const second = await connect(t.server.port, token, { 'cancel-on-disconnect': '50' });
    first.ws.terminate();
    await sleep(200);
    await disconnect(second);
    await sleep(400);
    expect(await live()).toEqual([order]);
    // a new armed session that drops alone cancels them as before
    const third = await connect(t.server.port, token, { 'cancel-on-disconnect': '50' });
    third.ws.terminate();
    await waitUntilNoOrders();
  });

  it('a grace that is not a whole number of ms in [0, 60000] refuses the CONNECT', async () => {
    for (const value of ['60001', 'soon', '-1', '1.5', '']) {
      const session = await connect(t.server.port, token, { 'cancel-on-disconnect': value });
      expect(session.frames[0]).toMatch(/^ERROR\n/);
      expect(session.frames[0]).toContain(`{"code":"STOMP_CANCEL_ON_DISCONNECT_INVALID","params":{"max":${MAX_CANCEL_GRACE_MS}}}`);
    }
    const admin = await connect(t.server.port, await t.login('admin'), { 'cancel-on-disconnect': '0' });
    expect(admin.frames[0]).toContain('"code":"FORBIDDEN"');
  });
});

describe('the grace header', () => {
  it('is absent, or a whole number of ms up to the maximum', () => {
    expect(cancelGraceOf({})).toBeNull();
    expect(cancelGraceOf({ 'cancel-on-disconnect': '0' })).toBe(0);
    expect(cancelGraceOf({ 'cancel-on-disconnect': ' 60000 ' })).toBe(60_000);
    expect(() => cancelGraceOf({ 'cancel-on-disconnect': '1e3' })).toThrow(/STOMP_CANCEL_ON_DISCONNECT_INVALID/);
  });
});

describe('the gateway reports how a session ended', () => {
  it('DISCONNECT is graceful, a dropped socket and an ERROR are not; the token is not handed to the hooks', async () => {
    const ends: SessionEnd[] = [];
    const opened: Array<Readonly<Record<string, string>>> = [];
    const rig = await startRig({ onSessionOpened: (_p, _id, headers) => opened.push(headers), onSessionClosed: (_p, _id, end) => ends.push(end) });
    try {
      const token = await signToken('alice');
      await disconnect(await connect(rig.port, token, { 'x-mine': 'a' }));
      const dropped = await connect(rig.port, token);
      dropped.ws.terminate();
      const refused = await connect(rig.port, token);
      refused.ws.send('SUBSCRIBE\nid:1\ndestination:/topic/nowhere\n\n\0');
      await refused.next(/^ERROR\n/);
      const deadline = Date.now() + 5000;
      while (ends.length < 3 && Date.now() < deadline) await sleep(10);
      expect(ends.map((end) => [end.graceful, end.reason])).toEqual([
        [true, 'disconnect'],
        [false, 'socketClosed'],
        [false, 'STOMP_DESTINATION_UNKNOWN'],
      ]);
      expect(opened[0]).toMatchObject({ 'x-mine': 'a', 'accept-version': '1.2' });
      expect(Object.keys(opened[0]!).some((name) => /authorization|passcode/i.test(name))).toBe(false);
      expect(ends[0]!.connectHeaders).toEqual(opened[0]);
    } finally {
      await rig.close();
    }
  });
});
