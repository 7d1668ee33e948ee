import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, type OrderUpdate } from '../../../protocol/index.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/**
 * Fault: a STOMP client stops reading (docs/reliability.md, "Faults"). The slow client is a raw TCP
 * socket that does the WebSocket handshake, CONNECTs and SUBSCRIBEs, then never reads again; the
 * other client is the app's own STOMP library over a real socket.
 */
const asset = 'GSPOT-DA';
const topic = destinations.trades(asset);

interface RawStompClient {
  socket: Socket;
  /** STOMP frames received, as text. */
  frames: string[];
  /** Resolves with the close: true once the server has ended the TCP connection. */
  ended: Promise<boolean>;
  send(text: string): void;
  waitFor(predicate: (frame: string) => boolean, timeoutMs?: number): Promise<string>;
}

/** A client frame: text, masked as RFC 6455 requires of clients. */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = randomBytes(4);
  const length = payload.length < 126 ? Buffer.from([0x80 | payload.length]) : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.alloc(payload.length);
  for (let i = 0; i < payload.length; i++) masked[i] = payload[i]! ^ mask[i % 4]!;
  return Buffer.concat([Buffer.from([0x81]), length, mask, masked]);
}

async function rawStompClient(port: number, token: string): Promise<RawStompClient> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const key = randomBytes(16).toString('base64');
  socket.write(
    `GET /session/ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: v12.stomp\r\n\r\n`,
  );
  const frames: string[] = [];
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (!upgraded) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!buffer.subarray(0, end).toString().startsWith('HTTP/1.1 101')) throw new Error(`no upgrade: ${buffer.toString()}`);
      upgraded = true;
      buffer = buffer.subarray(end + 4);
    }
    // Server frames are unmasked: [fin+opcode][length (126: 2 bytes, 127: 8 bytes)][payload]
    for (;;) {
      if (buffer.length < 2) return;
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (buffer.length < offset + length) return;
      const opcode = buffer[0]! & 0x0f;
      if (opcode === 1) frames.push(buffer.subarray(offset, offset + length).toString('utf8'));
      buffer = buffer.subarray(offset + length);
    }
  });
  const ended = new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));
  socket.on('error', () => {});
  const client: RawStompClient = {
    socket,
    frames,
    ended,
    send: (text) => void socket.write(maskedTextFrame(text)),
    async waitFor(predicate, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = frames.find(predicate);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`timed out; frames: ${frames.map((f) => f.slice(0, 80)).join(' | ')}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
  client.send(`CONNECT\naccept-version:1.2\nhost:127.0.0.1\nheart-beat:0,0\nAuthorization:Bearer ${token}\n\n\0`);
  await client.waitFor((frame) => frame.startsWith('CONNECTED'));
  return client;
}

let t: TestServer;
let healthy: CollectingClient;
let slow: RawStompClient;
let token1: string;

beforeAll(async () => {
  t = await startTestServer();
  token1 = await t.login('broker1');
  const token2 = await t.login('broker2');
  slow = await rawStompClient(t.server.port, token2);
  healthy = await connectCollector(t.server.port, token1);
});

afterAll(async () => {
  slow?.socket.destroy();
  await healthy?.close();
  await t?.server.close();
});

describe('the STOMP gateway under a slow consumer', () => {
  it('drops the client that stops reading; another client gets every message in order and orders go on', async () => {
    slow.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nreceipt:sub\n\n\0`);
    await slow.waitFor((frame) => frame.startsWith('RECEIPT') && frame.includes('receipt-id:sub'));
    await healthy.subscribe(topic);
    await healthy.subscribe(destinations.myOrders);
    expect(t.server.gateway.subscriberCount(topic)).toBe(2);

    // The slow client never reads again: the kernel's buffers fill, then the server's.
    slow.socket.pause();
    const pad = 'x'.repeat(64 * 1024);
    let published = 0;
    let longestPublishMs = 0;
    let orderAcks = 0;
    let round = 0;
    while (t.server.gateway.subscriberCount(topic) === 2 && published < 2_000) {
      const started = performance.now();
      for (let i = 0; i < 10; i++) t.server.gateway.publish(topic, { n: published++, pad });
      longestPublishMs = Math.max(longestPublishMs, performance.now() - started);
      // Orders keep being acknowledged meanwhile, and their updates reach the healthy client.
      if (++round % 3 === 0) {
        const reply = await t.post('/orders', { idempotencyKey: `slow-${String(published).padStart(6, '0')}`, assetId: asset, way: 'bid', price: 10_000, qty: 10, validityType: 'day', clientCode: 'RO-HIDRO' }, token1);
        expect(reply.status).toBe(201);
        orderAcks++;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(t.server.gateway.subscriberCount(topic)).toBe(1);

    t.server.gateway.publish(topic, { n: 'after' });
    const received = await healthy.waitFor<{ n: number | 'after' }>(topic, (messages) => messages.at(-1)?.n === 'after', 15_000);
    const numbers = received.slice(0, -1).map((message) => message.n);
    const inOrder = numbers.every((n, index) => n === index);
    const updates = await healthy.waitFor<OrderUpdate>(destinations.myOrders, (messages) => messages.length >= orderAcks);
    // The slow client reads again: it gets what the kernel held, then the server's close.
    slow.socket.resume();
    const ended = await Promise.race([slow.ended, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
    const errorFrame = slow.frames.find((frame) => frame.startsWith('ERROR'));
    const lost = published - numbers.length;
    const outOfOrder = numbers.filter((n, index) => n !== index).length;
    console.log(
      `slow-consumer: tried ${published} messages of 64 KB against a client that stopped reading: the other client lost ${lost}, out of order ${outOfOrder}, ` +
        `order updates lost ${orderAcks - updates.length}; longest publish of 10 ${longestPublishMs.toFixed(1)} ms; ` +
        `the slow client read ${slow.frames.filter((frame) => frame.startsWith('MESSAGE')).length} messages, then ${errorFrame ? `ERROR ${/code:(\w+)/.exec(errorFrame)?.[1]}` : 'no ERROR frame'} and the close`,
    );
    expect([lost, outOfOrder]).toEqual([0, 0]);
    expect(numbers).toHaveLength(published);
    expect(inOrder).toBe(true);
    expect(updates).toHaveLength(orderAcks);
    expect(longestPublishMs).toBeLessThan(250);
    expect(healthy.client.connected).toBe(true);
    // The server let go of the slow client's connection, and told it why in its last frame.
    expect(ended).toBe(true);
    expect(errorFrame).toMatch(/code:STOMP_SLOW_CONSUMER/);
    expect(slow.frames.at(-1)).toBe(errorFrame);
  }, 30_000);
});
