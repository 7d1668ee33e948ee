/**
 * The limits of one STOMP session (issue 13, items 2, 3 and 6): fragment floods, subscription caps,
 * connections per user, a long snapshot streamed without holding the event loop, and the end of a
 * session when its token expires. Real sockets; the figures are printed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { destinations } from '../../../protocol/index.ts';
import { jsonBody, REPLAY_CHUNK } from '../../../server/gateway/connection.ts';
import type { StompGatewayOptions } from '../../../server/gateway/stomp-gateway.ts';
import { authenticate, RawClient, signToken, sleep, startRig, until, type Rig, type ServerFrame } from './helpers.ts';

let rig: Rig | undefined;
const raws: RawClient[] = [];

async function setup(overrides: Partial<StompGatewayOptions> = {}): Promise<Rig> {
  rig = await startRig(overrides);
  return rig;
}

async function raw(): Promise<RawClient> {
  const client = await RawClient.open(rig!.url);
  raws.push(client);
  return client;
}

afterEach(async () => {
  for (const r of raws.splice(0)) r.terminate();
  await rig?.close();
  rig = undefined;
});

async function expectErrorThenClose(client: RawClient, code: string, timeoutMs = 3000): Promise<ServerFrame> {
  const frame = await client.waitForCommand('ERROR', timeoutMs);
  expect(frame.headers['code']).toBe(code);
  expect(JSON.parse(frame.body).code).toBe(code);
  await client.closed;
  return frame;
}

/** Sends `data` one byte per WebSocket message, yielding now and then so other sockets are served. */
async function sendByteByByte(ws: WebSocket, data: Buffer): Promise<void> {
  for (let i = 0; i < data.length; i++) {
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(data.subarray(i, i + 1));
    if (i % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Round trips of a SUBSCRIBE with a receipt on `client`, while `during` runs: the longest, ms. */
async function longestRoundTrip(client: RawClient, during: Promise<unknown>): Promise<number> {
  let longest = 0;
  let done = false;
  void during.finally(() => (done = true));
  for (let n = 0; !done; n++) {
    const started = performance.now();
    client.send(`SUBSCRIBE\nid:probe-${n}\ndestination:/topic/book.A1\nreceipt:probe-${n}\n\n\0UNSUBSCRIBE\nid:probe-${n}\n\n\0`);
    await client.waitFor((f) => f.headers['receipt-id'] === `probe-${n}`, 10_000);
    longest = Math.max(longest, performance.now() - started);
    await sleep(10);
  }
  return longest;
}

describe('fragments (item 3)', () => {
  it('a frame sent as one-byte messages costs time linear in its size, and others are served meanwhile', async () => {
    await setup({ maxFrameBytes: 128 * 1024 });
    const token = await signToken('alice');
    const other = await raw();
    await other.connect(token);

    const timeFrame = async (padBytes: number, receiptId: string): Promise<{ ms: number; longestOtherMs: number }> => {
      const flooder = await raw();
      await flooder.connect(token);
      const frame = Buffer.from(`SUBSCRIBE\nid:big\ndestination:/topic/book.A1\nreceipt:${receiptId}\npad:${'x'.repeat(padBytes)}\n\n\0`);
      const started = performance.now();
      const sent = sendByteByByte(flooder.ws, frame).then(() => flooder.waitFor((f) => f.headers['receipt-id'] === receiptId, 60_000));
      const longestOtherMs = await longestRoundTrip(other, sent);
      await sent;
      return { ms: performance.now() - started, longestOtherMs };
    };
    const small = await timeFrame(6_000, 'small');
    const large = await timeFrame(60_000, 'large');
    const ratio = large.ms / small.ms;
    console.log(
      `fragments: 6,000 one-byte messages ${small.ms.toFixed(0)} ms, 60,000 ${large.ms.toFixed(0)} ms, ratio ${ratio.toFixed(1)} ` +
        `(quadratic would be ~100); another client's longest round trip meanwhile ${large.longestOtherMs.toFixed(0)} ms`,
    );
    // Loose on purpose (a shared machine's timings): the parser's work is counted exactly in frame-codec.test.ts.
    expect(ratio).toBeLessThan(30);
    expect(large.longestOtherMs).toBeLessThan(500);
  }, 60_000);

  it('before CONNECT: a flood of one-byte messages is cut at the fragment cap with STOMP_TOO_MANY_FRAGMENTS', async () => {
    const { gateway } = await setup({ maxMessagesBeforeConnect: 256 });
    const flooder = await raw();
    const frame = Buffer.from(`CONNECT\naccept-version:1.2\npad:${'x'.repeat(60_000)}\n\n\0`);
    const sending = sendByteByByte(flooder.ws, frame);
    const error = await expectErrorThenClose(flooder, 'STOMP_TOO_MANY_FRAGMENTS');
    await sending;
    expect(JSON.parse(error.body).params).toEqual({ limit: 256 });
    console.log(`pre-CONNECT flood: tried ${frame.length} one-byte messages, refused after 256 with STOMP_TOO_MANY_FRAGMENTS`);
    await until(() => gateway.connectionCount() === 0);
    // A CONNECT sent in a handful of pieces still passes.
    const next = await raw();
    const connect = `CONNECT\naccept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${await signToken('alice')}\n\n\0`;
    for (let i = 0; i < connect.length; i += 16) next.send(connect.slice(i, i + 16));
    expect((await next.waitForCommand('CONNECTED')).command).toBe('CONNECTED');
  });

  it('before CONNECT: more bytes than twice the frame limit are refused with STOMP_FRAME_TOO_LARGE', async () => {
    await setup({ maxFrameBytes: 4096 });
    const client = await raw();
    for (let i = 0; i < 4; i++) client.send('\n'.repeat(3000)); // heart-beats only: no frame ever completes
    const error = await expectErrorThenClose(client, 'STOMP_FRAME_TOO_LARGE');
    expect(JSON.parse(error.body).params).toEqual({ limitBytes: 4096 });
  });
});

describe('subscription caps (item 2)', () => {
  it('10,000 SUBSCRIBE attempts on one connection: 500 taken, the next refused with STOMP_TOO_MANY_SUBSCRIPTIONS', async () => {
    const { gateway } = await setup();
    const client = await raw();
    await client.connect(await signToken('alice'));
    const topic = destinations.book('A1');
    const attempts = 10_000;
    let batch = '';
    for (let i = 0; i < attempts; i++) {
      batch += `SUBSCRIBE\nid:s${i}\ndestination:${topic}\n\n\0`;
      if (i % 1000 === 999) {
        if (client.ws.readyState === WebSocket.OPEN) client.send(batch);
        batch = '';
      }
    }
    const error = await expectErrorThenClose(client, 'STOMP_TOO_MANY_SUBSCRIPTIONS');
    expect(JSON.parse(error.body).params).toEqual({ limit: 500 });
    await until(() => gateway.subscriberCount(topic) === 0);
    console.log(`subscriptions: tried ${attempts} on one connection, accepted 500, then ERROR STOMP_TOO_MANY_SUBSCRIPTIONS {limit: 500}`);
  });

  it('the per-user cap counts the subscriptions of all its connections', async () => {
    const { gateway } = await setup({ maxSubscriptionsPerConnection: 20, maxSubscriptionsPerUser: 30 });
    const token = await signToken('alice');
    const first = await raw();
    await first.connect(token);
    let frames = '';
    for (let i = 0; i < 20; i++) frames += `SUBSCRIBE\nid:a${i}\ndestination:/topic/book.A1\n\n\0`;
    first.send(frames + 'SUBSCRIBE\nid:done\ndestination:/topic/trades.A1\nreceipt:r\n\n\0');
    await expectErrorThenClose(first, 'STOMP_TOO_MANY_SUBSCRIPTIONS'); // the 21st on this connection
    await until(() => gateway.subscriberCount('/topic/book.A1') === 0);

    const a = await raw();
    const b = await raw();
    await a.connect(token);
    await b.connect(token);
    const subscribe = (client: RawClient, prefix: string, n: number, destination = '/topic/book.A1') => {
      let text = '';
      for (let i = 0; i < n; i++) text += `SUBSCRIBE\nid:${prefix}${i}\ndestination:${destination}\nreceipt:${prefix}${i}\n\n\0`;
      client.send(text);
    };
    subscribe(a, 'a', 20);
    await a.waitFor((f) => f.headers['receipt-id'] === 'a19');
    subscribe(b, 'b', 11);
    const error = await expectErrorThenClose(b, 'STOMP_TOO_MANY_SUBSCRIPTIONS');
    expect(JSON.parse(error.body).params).toEqual({ limit: 30 });
    expect(b.frames.filter((f) => f.command === 'RECEIPT')).toHaveLength(10);
    await until(() => gateway.subscriberCount('/topic/book.A1') === 20);
    // Bob is another user: his own budget.
    const bob = await raw();
    await bob.connect(await signToken('bob'));
    subscribe(bob, 'x', 20, '/topic/book.B1');
    await bob.waitFor((f) => f.headers['receipt-id'] === 'x19');
  });
});

describe('connections per user', () => {
  it('one more than the cap is refused with STOMP_TOO_MANY_CONNECTIONS; a closed one frees its place', async () => {
    const { gateway } = await setup({ maxConnectionsPerUser: 3 });
    const token = await signToken('alice');
    const open: RawClient[] = [];
    for (let i = 0; i < 3; i++) {
      const client = await raw();
      expect((await client.connect(token)).command).toBe('CONNECTED');
      open.push(client);
    }
    const fourth = await raw();
    const error = await fourth.connect(token);
    expect(error.headers['code']).toBe('STOMP_TOO_MANY_CONNECTIONS');
    expect(JSON.parse(error.body).params).toEqual({ limit: 3 });
    await fourth.closed;
    // Another user is not counted against alice.
    expect((await (await raw()).connect(await signToken('bob'))).command).toBe('CONNECTED');
    open[0]!.terminate();
    await until(() => gateway.connectionCount() === 3);
    expect((await (await raw()).connect(token)).command).toBe('CONNECTED');
  });
});

describe('a long snapshot on SUBSCRIBE (item 2)', () => {
  it('streams in chunks: the event loop is never held for the whole replay, and live updates follow it in order', async () => {
    const replayed = 20_000;
    const orderBody = (i: number) => ({ seq: 1, order: { orderId: i, clientCode: 'C1', price: 12345, quantity: 10, state: 'created' } });
    const { gateway } = await setup({
      maxBufferedBytes: 64 * 1024 * 1024,
      onSubscribe(principal, destination, reply) {
        if (destination !== destinations.myOrders) return;
        for (let i = 0; i < replayed; i++) reply(orderBody(i));
        // A live update published right after the SUBSCRIBE: it must arrive after the whole replay.
        setImmediate(() => gateway.sendToUser(principal.userId, destinations.myOrders, { live: 1 }));
      },
    });
    // Baseline: what any replay must pay in one piece, building and serialising the bodies.
    const baselineMs = Math.min(
      ...[0, 1, 2].map(() => {
        const started = performance.now();
        for (let i = 0; i < replayed; i++) jsonBody(orderBody(i));
        return performance.now() - started;
      }),
    );
    const ws = new WebSocket(rig!.url, ['v12.stomp']);
    await new Promise((resolve) => ws.once('open', resolve));
    const bodies: string[] = [];
    let receiptAt = -1;
    let lastAt = 0;
    ws.on('message', (data: Buffer) => {
      // Each WebSocket message is one frame here; only the body is kept.
      const text = data.toString('utf8');
      if (text.startsWith('RECEIPT')) receiptAt = bodies.length;
      if (!text.startsWith('MESSAGE')) return;
      bodies.push(text.slice(text.indexOf('\n\n') + 2, text.length - 1));
      lastAt = performance.now();
    });
    ws.send(`CONNECT\naccept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${await signToken('alice')}\n\n\0`);
    await sleep(100);

    // Turns of the event loop, and the turn in which the server sent each MESSAGE (ws's send, server side).
    let turn = 0;
    let counting = true;
    const countTurn = (): void => {
      turn += 1;
      if (counting) setImmediate(countTurn);
    };
    setImmediate(countTurn);
    const sentInTurn = new Map<number, number>();
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, data: unknown, ...rest: unknown[]) {
      if (Buffer.isBuffer(data) && data.subarray(0, 7).toString('latin1') === 'MESSAGE') sentInTurn.set(turn, (sentInTurn.get(turn) ?? 0) + 1);
      return (send as (...args: unknown[]) => void).call(this, data, ...rest);
    } as typeof send;
    // Timer-drift probe: the longest gap between 1 ms ticks while the replay runs.
    let longestMs = 0;
    let lastTick = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      longestMs = Math.max(longestMs, now - lastTick);
      lastTick = now;
    }, 1);
    const started = performance.now();
    ws.send(`SUBSCRIBE\nid:orders\ndestination:${destinations.myOrders}\nreceipt:r\n\n\0`);
    try {
      await until(() => bodies.length === replayed + 1, 30_000, 'the replay and the live update');
    } finally {
      clearInterval(probe);
      counting = false;
      WebSocket.prototype.send = send;
    }
    const totalMs = lastAt - started;
    const mostInOneTurn = Math.max(...sentInTurn.values());
    console.log(
      `replay: ${replayed} messages in ${totalMs.toFixed(0)} ms, sent over ${sentInTurn.size} turns of the event loop (at most ${mostInOneTurn} in one); ` +
        `longest event-loop pause ${longestMs.toFixed(1)} ms; baseline (building and serialising the ${replayed} bodies) ${baselineMs.toFixed(1)} ms`,
    );
    expect(bodies.slice(0, replayed).map((body) => (JSON.parse(body) as { order: { orderId: number } }).order.orderId)).toEqual(
      Array.from({ length: replayed }, (_, i) => i),
    );
    expect(JSON.parse(bodies[replayed]!)).toEqual({ live: 1 });
    expect(receiptAt).toBe(replayed + 1); // the receipt after the snapshot and what was queued behind it
    // Sent REPLAY_CHUNK per turn (the former gateway sent all 20,000 in the SUBSCRIBE's one turn).
    expect(mostInOneTurn).toBeLessThanOrEqual(REPLAY_CHUNK);
    expect(sentInTurn.size).toBeGreaterThanOrEqual(Math.ceil(replayed / REPLAY_CHUNK));
    // Wall time on a shared machine is noisy; the pause must still be a fraction of the whole replay.
    expect(longestMs).toBeLessThan(Math.max(baselineMs * 3 + 50, totalMs / 3));
    ws.terminate();
  }, 60_000);
});

describe('token expiry (item 6)', () => {
  it('a session ends with AUTH_TOKEN_EXPIRED when its token expires, and nothing is taken after', async () => {
    let now = 1_000_000;
    const { gateway } = await setup({
      now: () => now,
      expiryCheckMs: 20,
      authenticate: async (token) => ({ ...(await authenticate(token)), expiresAt: 1_060_000 }),
    });
    const quiet = await raw();
    const active = await raw();
    await quiet.connect(await signToken('alice'));
    await active.connect(await signToken('bob'));
    active.send('SUBSCRIBE\nid:1\ndestination:/topic/book.B1\nreceipt:ok\n\n\0');
    await active.waitFor((f) => f.headers['receipt-id'] === 'ok');
    await sleep(60);
    expect(gateway.connectionCount()).toBe(2);

    now = 1_060_000; // the clock reaches the expiry: a SUBSCRIBE in the same turn is refused too
    active.send('SUBSCRIBE\nid:2\ndestination:/topic/trades.B1\nreceipt:late\n\n\0');
    await expectErrorThenClose(active, 'AUTH_TOKEN_EXPIRED');
    expect(active.frames.some((f) => f.command === 'RECEIPT' && f.headers['receipt-id'] === 'late')).toBe(false);
    await expectErrorThenClose(quiet, 'AUTH_TOKEN_EXPIRED');
    expect(gateway.subscriberCount('/topic/book.B1')).toBe(0);

    // A token that has already expired at CONNECT is refused at once.
    const late = await raw();
    expect((await late.connect(await signToken('alice'))).headers['code']).toBe('AUTH_TOKEN_EXPIRED');
  });

  it('endSessionsOf ends every session of one user with the code given, and no other', async () => {
    const { gateway } = await setup();
    const [a1, a2, b] = [await raw(), await raw(), await raw()];
    await a1.connect(await signToken('alice'));
    await a2.connect(await signToken('alice'));
    await b.connect(await signToken('bob'));
    expect(gateway.endSessionsOf('u-alice', 'AUTH_TOKEN_INVALID')).toBe(2);
    await expectErrorThenClose(a1, 'AUTH_TOKEN_INVALID');
    await expectErrorThenClose(a2, 'AUTH_TOKEN_INVALID');
    b.send('SUBSCRIBE\nid:1\ndestination:/topic/book.B1\nreceipt:still\n\n\0');
    await b.waitFor((f) => f.headers['receipt-id'] === 'still');
    expect(gateway.endSessionsOf('u-alice', 'AUTH_TOKEN_INVALID')).toBe(0);
  });
});
