/** Fan-out of the gateway (issue 13, item 2): a message is built once, and a connection gets one WebSocket message. */
import type { IMessage } from '@stomp/stompjs';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { destinations } from '../../../protocol/index.ts';
import { encodeMessage, jsonBody } from '../../../server/gateway/connection.ts';
import { connect, signToken, sleep, startRig, stompClient, until, type Rig } from './helpers.ts';

let rig: Rig | undefined;
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await rig?.close();
  rig = undefined;
});

/** A raw socket subscribed `ids` times to `destination`; counts WebSocket messages and MESSAGE frames. */
async function subscriber(url: string, destination: string, ids: number) {
  const ws = new WebSocket(url, ['v12.stomp']);
  sockets.push(ws);
  await new Promise((resolve) => ws.once('open', resolve));
  const counts = { messages: 0, frames: 0, receipts: 0 };
  ws.on('message', (data: Buffer) => {
    const text = data.toString('latin1');
    if (text.startsWith('RECEIPT')) counts.receipts += 1;
    if (!text.startsWith('MESSAGE')) return;
    counts.messages += 1;
    counts.frames += text.split('MESSAGE\n').length - 1;
  });
  ws.send(`CONNECT\naccept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${await signToken('alice')}\n\n\0`);
  let frames = '';
  for (let i = 0; i < ids; i++) frames += `SUBSCRIBE\nid:sub-${i}\ndestination:${destination}\n\n\0`;
  ws.send(frames + `SUBSCRIBE\nid:last\ndestination:/topic/phase.M1\nreceipt:ready\n\n\0`);
  await until(() => counts.receipts === 1, 5000, 'subscriptions');
  return counts;
}

describe('fan-out', () => {
  it('duplicate subscriptions of one connection cost a copy each, not an encoding and a send: one WebSocket message per publish', async () => {
    rig = await startRig({ maxBufferedBytes: 256 * 1024 * 1024, maxSubscriptionsPerConnection: 1000 });
    const { gateway } = rig;
    const publishes = 200;
    const body = { assetId: 'A1', seq: 1, bids: [{ price: 12345, qty: 10, orders: 1 }], asks: [] };
    const timePublishes = (topic: string): number => {
      const started = performance.now();
      for (let i = 0; i < publishes; i++) gateway.publish(topic, { ...body, seq: i });
      return performance.now() - started;
    };

    const single = await subscriber(rig.url, destinations.book('A1'), 1);
    const duplicated = await subscriber(rig.url, destinations.trades('A1'), 500);
    expect(gateway.subscriberCount(destinations.trades('A1'))).toBe(500);
    // Warm both paths, then take the best of three.
    timePublishes(destinations.book('A1'));
    timePublishes(destinations.trades('A1'));
    const singleMs = Math.min(...[0, 1, 2].map(() => timePublishes(destinations.book('A1'))));
    const duplicatedMs = Math.min(...[0, 1, 2].map(() => timePublishes(destinations.trades('A1'))));
    // What the former fan-out did before its sends: one encoding per subscription id.
    const encodingsMs = Math.min(
      ...[0, 1, 2].map(() => {
        const started = performance.now();
        for (let i = 0; i < publishes; i++) {
          const bytes = jsonBody({ ...body, seq: i });
          for (let id = 0; id < 500; id++) encodeMessage(destinations.trades('A1'), `sub-${id}`, String(i), bytes);
        }
        return performance.now() - started;
      }),
    );
    const total = publishes * 4;
    await until(() => single.messages === total && duplicated.messages === total, 20_000, 'every message');
    await sleep(50);
    console.log(
      `fan-out: ${publishes} publishes to 1 subscription ${singleMs.toFixed(1)} ms, to 500 subscriptions of one connection ` +
        `${duplicatedMs.toFixed(1)} ms; 500 encodings per publish alone (the former way, sends not counted) ${encodingsMs.toFixed(1)} ms`,
    );
    // One WebSocket message per publish and connection, holding one frame per subscription id.
    expect(single.messages).toBe(total);
    expect(single.frames).toBe(total);
    expect(duplicated.messages).toBe(total);
    expect(duplicated.frames).toBe(total * 500);
    // 500 frames of bytes are still copied per publish; what no longer happens is 500 encodings and 500 sends.
    expect(duplicatedMs).toBeLessThan(encodingsMs / 2);
  }, 60_000);

  it('a stompjs client with two subscriptions to one destination gets the message in both', async () => {
    rig = await startRig();
    const client = stompClient(rig.url, await signToken('alice'));
    await connect(client);
    const first: IMessage[] = [];
    const second: IMessage[] = [];
    const ready = new Promise<void>((resolve) => client.watchForReceipt('r', () => resolve()));
    client.subscribe(destinations.book('A1'), (m) => first.push(m));
    client.subscribe(destinations.book('A1'), (m) => second.push(m), { receipt: 'r' });
    await ready;
    rig.gateway.publish(destinations.book('A1'), { n: 1 }, { seq: '1' });
    await until(() => first.length === 1 && second.length === 1);
    expect(first[0]!.headers['subscription']).not.toBe(second[0]!.headers['subscription']);
    expect(first[0]!.headers['message-id']).toBe(second[0]!.headers['message-id']);
    expect(JSON.parse(second[0]!.body)).toEqual({ n: 1 });
    expect(second[0]!.headers['seq']).toBe('1');
    await client.deactivate();
  });

  it("counts for the operator console: connections, subscriptions, messages sent, and each user's sessions since their CONNECTED", async () => {
    rig = await startRig({ now: () => Date.parse('2026-11-27T10:00:00Z') });
    const { gateway } = rig;
    expect(gateway.stats()).toEqual({ connections: 0, subscriptions: 0, slowConsumersDropped: 0, messagesSent: 0 });
    const clients = [stompClient(rig.url, await signToken('alice')), stompClient(rig.url, await signToken('alice')), stompClient(rig.url, await signToken('bob'))];
    for (const client of clients) await connect(client);
    const received: IMessage[] = [];
    const ready = new Promise<void>((resolve) => clients[0]!.watchForReceipt('r', () => resolve()));
    clients[0]!.subscribe(destinations.book('A1'), () => {});
    clients[0]!.subscribe(destinations.book('A1'), (m) => received.push(m), { receipt: 'r' });
    await ready;
    const before = gateway.stats();
    // Three CONNECTED frames and one RECEIPT so far.
    expect(before).toEqual({ connections: 3, subscriptions: 2, slowConsumersDropped: 0, messagesSent: 4 });
    gateway.publish(destinations.book('A1'), { n: 1 });
    await until(() => received.length === 1);
    // Two subscriptions of one connection: one WebSocket message.
    expect(gateway.stats().messagesSent).toBe(before.messagesSent + 1);
    const sessions = gateway.sessions().map((session) => ({ user: session.principal.username, since: session.since, subscriptions: session.subscriptions }));
    expect(sessions.sort((a, b) => a.user.localeCompare(b.user) || b.subscriptions - a.subscriptions)).toEqual([
      { user: 'alice', since: Date.parse('2026-11-27T10:00:00Z'), subscriptions: 2 },
      { user: 'alice', since: Date.parse('2026-11-27T10:00:00Z'), subscriptions: 0 },
      { user: 'bob', since: Date.parse('2026-11-27T10:00:00Z'), subscriptions: 0 },
    ]);
    await clients[0]!.deactivate();
    await until(() => gateway.stats().connections === 2);
    expect(gateway.stats().subscriptions).toBe(0);
    expect(gateway.sessions()).toHaveLength(2);
    for (const client of clients.slice(1)) await client.deactivate();
  });
});
