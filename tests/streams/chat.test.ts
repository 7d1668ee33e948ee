/** The chat stream: one schema for the four kinds of event, bad payloads dropped, SENDs to /app/chat. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatEvent } from '../../protocol/chat.ts';
import { destinations } from '../../protocol/destinations.ts';
import { chatEvents$, sendChatMessage } from '../../streams/chat.ts';
import { createConnection, type Connection, type StreamError } from '../../streams/connection.ts';
import { FakeStompServer, uniqueUrl } from './fake-stomp-server.ts';

const tick = async (ms = 20): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};

let server: FakeStompServer;
let connection: Connection;
let errors: StreamError[];

beforeEach(() => {
  vi.useFakeTimers();
  const url = uniqueUrl('chat');
  server = new FakeStompServer(url);
  connection = createConnection({ url, getToken: () => 't', webSocketFactory: server.webSocketFactory, heartbeatMs: 0, backoff: { initialMs: 10, maxMs: 10 } });
  errors = [];
  connection.errors$.subscribe((e) => errors.push(e));
  connection.connect();
});

afterEach(async () => {
  const done = connection.disconnect({ timeoutMs: 50 });
  await tick(100);
  await done;
  server.close();
  vi.useRealTimers();
});

describe('chat stream', () => {
  it('parses messages, presence, read marks and refusals from /user/queue/chat and drops what fails the schema', async () => {
    const got: ChatEvent[] = [];
    const subscription = chatEvents$(connection).subscribe((event) => got.push(event));
    await tick();
    expect(server.subscribeCount(destinations.chat)).toBe(1);
    const message = { id: '7', from: 'U-002', to: 'U-003', text: 'salut', at: '2026-11-22T09:00:00.000Z' };
    const events: ChatEvent[] = [
      { type: 'message', message, clientId: 'c-1' },
      { type: 'presence', userId: 'U-003', online: true },
      { type: 'read', reader: 'U-003', partner: 'U-002', upTo: '7' },
      { type: 'refusal', clientId: 'c-2', code: 'CHAT_RATE_LIMITED', params: { retryAfterSeconds: 4 } },
    ];
    for (const event of events) server.publish(destinations.chat, event);
    server.publish(destinations.chat, { type: 'refusal', clientId: 'c-3', code: 'NOT_A_CODE', params: {} });
    server.publish(destinations.chat, { type: 'typing', userId: 'U-003' });
    await tick();
    subscription.unsubscribe();
    expect(got).toEqual(events);
    expect(errors.filter((e) => e.kind === 'payload')).toHaveLength(2);
  });

  it('sendChatMessage SENDs JSON to /app/chat, and refuses when offline', async () => {
    await tick();
    expect(sendChatMessage(connection, { to: 'U-003', text: 'bună', clientId: 'c-1' })).toBe(true);
    await tick();
    const send = server.frames('SEND')[0]!;
    expect(send.headers['destination']).toBe('/app/chat');
    expect(JSON.parse(send.body)).toEqual({ to: 'U-003', text: 'bună', clientId: 'c-1' });
    const offline = createConnection({ url: 'ws://nowhere.test/ws', getToken: () => 't', heartbeatMs: 0, backoff: { initialMs: 1, maxMs: 1 } });
    expect(sendChatMessage(offline, { to: 'U-003', text: 'x', clientId: 'c-2' })).toBe(false);
  });
});
