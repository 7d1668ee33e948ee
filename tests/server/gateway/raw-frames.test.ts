/** The gateway against raw `ws` clients: bad input, limits, timeouts, slow consumers. */
import { connect as netConnect } from 'node:net';
import type { Client, IMessage } from '@stomp/stompjs';
import { afterEach, describe, expect, it } from 'vitest';
import { destinations } from '../../../protocol/index.ts';
import type { StompGatewayOptions } from '../../../server/gateway/stomp-gateway.ts';
import { connect, RawClient, signToken, sleep, startRig, stompClient, until, type Rig, type ServerFrame } from './helpers.ts';

let rig: Rig | undefined;
const raws: RawClient[] = [];
const clients: Client[] = [];

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
  await Promise.all(clients.splice(0).map((c) => c.deactivate({ force: true })));
  await rig?.close();
  rig = undefined;
});

/** Expects an ERROR frame with `code`, then the socket closed by the server. */
async function expectErrorThenClose(client: RawClient, code: string): Promise<ServerFrame> {
  const frame = await client.waitForCommand('ERROR');
  expect(frame.headers['code']).toBe(code);
  expect(JSON.parse(frame.body).code).toBe(code);
  await client.closed;
  return frame;
}

describe('bad frames', () => {
  it('garbage bytes: STOMP_FRAME_MALFORMED, then close; the server keeps serving', async () => {
    const { gateway } = await setup();
    const client = await raw();
    client.send(Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0xff, 0x0a, 0x00]));
    await expectErrorThenClose(client, 'STOMP_FRAME_MALFORMED');
    await until(() => gateway.connectionCount() === 0);

    const next = await raw();
    expect((await next.connect(await signToken('alice'))).command).toBe('CONNECTED');
  });

  it('an undefined header escape after CONNECT is malformed', async () => {
    await setup();
    const client = await raw();
    await client.connect(await signToken('alice'));
    client.send('SUBSCRIBE\nid:\\x\ndestination:/topic/book.A1\n\n\0');
    await expectErrorThenClose(client, 'STOMP_FRAME_MALFORMED');
  });

  it('oversize frame: STOMP_FRAME_TOO_LARGE with the limit', async () => {
    await setup({ maxFrameBytes: 4096 });
    const client = await raw();
    await client.connect(await signToken('alice'));
    client.send(`SEND\ndestination:/app/chat\n\n${'x'.repeat(5000)}\0`);
    const frame = await expectErrorThenClose(client, 'STOMP_FRAME_TOO_LARGE');
    expect(JSON.parse(frame.body).params).toEqual({ limitBytes: 4096 });
  });

  it('oversize frame announced by content-length is refused before its body arrives', async () => {
    await setup({ maxFrameBytes: 4096 });
    const client = await raw();
    client.send('SEND\ndestination:/app/chat\ncontent-length:100000\n\n');
    await expectErrorThenClose(client, 'STOMP_FRAME_TOO_LARGE');
  });

  it('a WebSocket message far over the limit is refused by ws (1009)', async () => {
    await setup({ maxFrameBytes: 4096 });
    const client = await raw();
    client.send('x'.repeat(4096 * 2 + 1));
    expect((await client.closed).code).toBe(1009);
  });

  it('too many headers: STOMP_TOO_MANY_HEADERS with the limit', async () => {
    await setup({ maxHeaders: 4 });
    const client = await raw();
    client.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\nhost:x\na:1\nb:2\n\n\0');
    const frame = await expectErrorThenClose(client, 'STOMP_TOO_MANY_HEADERS');
    expect(JSON.parse(frame.body).params).toEqual({ limit: 4 });
  });

  it('a frame before CONNECT: STOMP_NOT_CONNECTED, with the receipt-id of that frame', async () => {
    await setup();
    const client = await raw();
    client.send('SUBSCRIBE\nid:0\ndestination:/topic/book.A1\nreceipt:early\n\n\0');
    const frame = await expectErrorThenClose(client, 'STOMP_NOT_CONNECTED');
    expect(frame.headers['receipt-id']).toBe('early');
  });

  it('transactions are refused', async () => {
    await setup();
    const client = await raw();
    await client.connect(await signToken('alice'));
    client.send('BEGIN\ntransaction:t1\n\n\0');
    await expectErrorThenClose(client, 'STOMP_FRAME_MALFORMED');
  });
});

describe('framing tolerance', () => {
  it('takes a CONNECT split over messages and several frames batched in one message', async () => {
    const { gateway } = await setup();
    const client = await raw();
    const token = await signToken('alice');
    const connectFrame = `CONNECT\r\naccept-version:1.1,1.2\r\nheart-beat:0,0\r\nAuthorization:Bearer ${token}\r\n\r\n\0`;
    for (let i = 0; i < connectFrame.length; i += 7) client.send(connectFrame.slice(i, i + 7));
    expect((await client.waitForCommand('CONNECTED')).headers['version']).toBe('1.2');

    client.send(
      '\n' +
        'SUBSCRIBE\nid:a\\cb\ndestination:/topic/book.A1\nreceipt:r1\n\n\0\n' +
        'SUBSCRIBE\nid:t\ndestination:/topic/trades.A1\nreceipt:r2\n\n\0',
    );
    await client.waitFor((f) => f.headers['receipt-id'] === 'r2');
    expect(client.frames.filter((f) => f.command === 'RECEIPT').map((f) => f.headers['receipt-id'])).toEqual(['r1', 'r2']);
    expect(gateway.subscriberCount('/topic/trades.A1')).toBe(1);

    gateway.publish('/topic/book.A1', { text: 'ă:\n' }, { note: 'a:b' });
    const message = await client.waitForCommand('MESSAGE');
    // The escaped id `a\cb` is `a:b`, sent back escaped and read back as `a:b`.
    expect(message.headers['subscription']).toBe('a:b');
    expect(message.headers['note']).toBe('a:b');
    expect(JSON.parse(message.body)).toEqual({ text: 'ă:\n' });
    expect(Number(message.headers['content-length'])).toBe(Buffer.byteLength(message.body));
  });

  it('SEND with content-length may carry NUL in its body', async () => {
    const bodies: string[] = [];
    await setup({ onSend: (_p, _d, body) => void bodies.push(body) });
    const client = await raw();
    await client.connect(await signToken('alice'));
    client.send(Buffer.concat([Buffer.from('SEND\ndestination:/app/chat\ncontent-length:3\nreceipt:s\n\n'), Buffer.from([0x61, 0, 0x62, 0])]));
    await client.waitFor((f) => f.headers['receipt-id'] === 's');
    expect(bodies).toEqual(['a\0b']);
  });

  it('handles frames in order while an asynchronous onSend is pending', async () => {
    await setup({ onSend: () => sleep(60) });
    const client = await raw();
    await client.connect(await signToken('alice'));
    client.send('SEND\ndestination:/app/chat\nreceipt:first\n\n{}\0SUBSCRIBE\nid:1\ndestination:/topic/book.A1\nreceipt:second\n\n\0');
    await client.waitFor((f) => f.headers['receipt-id'] === 'second');
    expect(client.frames.filter((f) => f.command === 'RECEIPT').map((f) => f.headers['receipt-id'])).toEqual(['first', 'second']);
  });

  it('close() closes every connection with 1001 and takes no more upgrades', async () => {
    const { gateway, url } = await setup();
    const connected = await raw();
    await connected.connect(await signToken('alice'));
    const anonymous = await raw();
    expect(gateway.connectionCount()).toBe(2);
    await gateway.close();
    expect((await connected.closed).code).toBe(1001);
    expect((await anonymous.closed).code).toBe(1001);
    expect(gateway.connectionCount()).toBe(0);
    const late = new RawClient(url);
    raws.push(late);
    await expect(late.opened).rejects.toThrow();
  });

  it('destroys upgrades on other paths', async () => {
    const { port } = await setup();
    const response = await new Promise<string>((resolve) => {
      const socket = netConnect(port, '127.0.0.1', () => {
        socket.write(
          'GET /other HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        );
      });
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', () => {});
    });
    expect(response).toBe('');
  });
});

describe('timeouts', () => {
  it('closes a socket that does not CONNECT in time with STOMP_CONNECT_TIMEOUT', async () => {
    const { gateway } = await setup({ connectTimeoutMs: 150 });
    const started = Date.now();
    const client = await raw();
    const frame = await expectErrorThenClose(client, 'STOMP_CONNECT_TIMEOUT');
    expect(JSON.parse(frame.body).params).toEqual({ timeoutMs: 150 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await until(() => gateway.connectionCount() === 0);
  });

  it('closes a silent client after twice the negotiated heart-beat with STOMP_HEARTBEAT_TIMEOUT', async () => {
    await setup({ heartbeatMs: 100 });
    const client = await raw();
    // The client promises a heart-beat every 150 ms and wants none: incoming = max(150, 100).
    const connected = await client.connect(await signToken('alice'), '150,0');
    expect(connected.headers['heart-beat']).toBe('100,100');
    const started = Date.now();
    const frame = await expectErrorThenClose(client, 'STOMP_HEARTBEAT_TIMEOUT');
    expect(JSON.parse(frame.body).params).toEqual({ timeoutMs: 300 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(client.heartbeats).toBe(0); // it asked for none
  });

  it('keeps a client that heart-beats, and sends it heart-beats at max(sx, cy)', async () => {
    const { gateway } = await setup({ heartbeatMs: 50 });
    const client = await raw();
    await client.connect(await signToken('alice'), '50,100');
    const timer = setInterval(() => client.send('\n'), 40);
    await sleep(520);
    clearInterval(timer);
    expect(gateway.connectionCount()).toBe(1);
    expect(client.frames.some((f) => f.command === 'ERROR')).toBe(false);
    // Every 100 ms at most: about 5 in 520 ms, never one per 50 ms.
    expect(client.heartbeats).toBeGreaterThanOrEqual(3);
    expect(client.heartbeats).toBeLessThanOrEqual(7);
  });
});

describe('slow consumer', () => {
  it('drops a client that stops reading while another keeps receiving; publish never waits', async () => {
    const { gateway } = await setup({ maxBufferedBytes: 256 * 1024, maxFrameBytes: 1024 * 1024 });
    const topic = destinations.book('A1');
    const slow = await raw();
    await slow.connect(await signToken('alice'));
    slow.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nreceipt:ok\n\n\0`);
    await slow.waitFor((f) => f.headers['receipt-id'] === 'ok');

    const healthy = stompClient(rig!.url, await signToken('alice'));
    clients.push(healthy);
    await connect(healthy);
    const received: IMessage[] = [];
    const ready = new Promise<void>((resolve) => healthy.watchForReceipt('h', () => resolve()));
    healthy.subscribe(topic, (m) => received.push(m), { receipt: 'h' });
    await ready;
    expect(gateway.subscriberCount(topic)).toBe(2);

    // The slow client stops reading its socket; the kernel buffers fill, then ws.bufferedAmount grows.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const pad = 'x'.repeat(64 * 1024);
    let published = 0;
    let longestPublishMs = 0;
    while (gateway.subscriberCount(topic) === 2 && published < 2000) {
      const started = performance.now();
      for (let i = 0; i < 10; i++) gateway.publish(topic, { n: published++, pad });
      longestPublishMs = Math.max(longestPublishMs, performance.now() - started);
      await sleep(1);
    }
    expect(gateway.subscriberCount(topic)).toBe(1);
    // The operator console's counter: one slow consumer dropped since the gateway started.
    expect(gateway.stats().slowConsumersDropped).toBe(1);
    expect(longestPublishMs).toBeLessThan(250);
    // Gone after the slow consumer's grace for reading its ERROR frame (5 s), as it never reads.
    await until(() => gateway.connectionCount() === 1, 8000, 'slow consumer gone');

    gateway.publish(topic, { n: 'after' });
    await until(() => received.some((m) => JSON.parse(m.body).n === 'after'), 10_000, 'healthy client to get everything');
    expect(received).toHaveLength(published + 1);
    expect(healthy.connected).toBe(true);

    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect((await slow.closed).code).toBe(1006); // terminated, no close handshake
  });
});
