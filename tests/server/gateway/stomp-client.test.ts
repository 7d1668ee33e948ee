/** The gateway with a real @stomp/stompjs Client over a real socket. */
import type { Client, IMessage } from '@stomp/stompjs';
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, destinations, ExchangeError } from '../../../protocol/index.ts';
import type { StompGatewayOptions } from '../../../server/gateway/stomp-gateway.ts';
import {
  connect,
  connectExpectingError,
  nextStompError,
  receipt,
  signToken,
  sleep,
  startRig,
  stompClient,
  until,
  type Rig,
} from './helpers.ts';

let rig: Rig | undefined;
const clients: Client[] = [];

async function setup(overrides: Partial<StompGatewayOptions> = {}): Promise<Rig> {
  rig = await startRig(overrides);
  return rig;
}

async function client(user: string, options: Parameters<typeof stompClient>[2] = {}): Promise<Client> {
  const c = stompClient(rig!.url, await signToken(user), options);
  clients.push(c);
  await connect(c);
  return c;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.deactivate({ force: true })));
  await rig?.close();
  rig = undefined;
});

function inbox(): { messages: IMessage[]; push: (m: IMessage) => void } {
  const messages: IMessage[] = [];
  return { messages, push: (m) => messages.push(m) };
}

describe('CONNECT and authentication', () => {
  it('connects with a bearer token, negotiates 1.2 and answers a receipt', async () => {
    const { gateway, url } = await setup();
    const c = stompClient(url, await signToken('alice'), { heartbeatIncoming: 20_000, heartbeatOutgoing: 5_000 });
    clients.push(c);
    const connected = await connect(c);
    expect(connected.headers['version']).toBe('1.2');
    expect(connected.headers['heart-beat']).toBe('10000,10000');
    expect(connected.headers['server']).toMatch(/gateway/);
    expect(connected.headers['user-name']).toBe('alice');
    expect(gateway.connectionCount()).toBe(1);
    expect((c.webSocket as unknown as { protocol: string }).protocol).toBe('v12.stomp');

    const got = receipt(c, 'r-1');
    c.subscribe(destinations.book('A1'), () => {}, { receipt: 'r-1' });
    expect((await got).headers['receipt-id']).toBe('r-1');
  });

  it('accepts the passcode header as a token fallback', async () => {
    const { url } = await setup();
    const c = stompClient(url, undefined, { connectHeaders: { login: 'alice', passcode: await signToken('alice') } });
    clients.push(c);
    const connected = await connect(c);
    expect(connected.headers['user-name']).toBe('alice');
  });

  it.each([
    ['an expired token', 'AUTH_TOKEN_EXPIRED', () => signToken('alice', { expired: true })],
    ['a forged token', 'AUTH_TOKEN_INVALID', () => signToken('alice', { forged: true })],
    ['an unknown user', 'AUTH_TOKEN_INVALID', () => signToken('mallory')],
  ])('refuses %s with ERROR %s and closes', async (_name, code, token) => {
    const { gateway, url } = await setup();
    const c = stompClient(url, await token());
    clients.push(c);
    const { frame, closed } = await connectExpectingError(c);
    expect(frame.command).toBe('ERROR');
    expect(frame.headers['code']).toBe(code);
    expect(frame.headers['content-type']).toBe('application/json');
    expect(JSON.parse(frame.body)).toEqual({ code, params: {} });
    await closed;
    await until(() => gateway.connectionCount() === 0);
  });

  it('refuses a CONNECT without token with AUTH_TOKEN_MISSING', async () => {
    const { url } = await setup();
    const c = stompClient(url, undefined);
    clients.push(c);
    const { frame } = await connectExpectingError(c);
    expect(frame.headers['code']).toBe('AUTH_TOKEN_MISSING');
  });

  it('refuses a client that does not accept 1.2', async () => {
    const { url } = await setup();
    const c = stompClient(url, await signToken('alice'), { stompVersions: new (await import('@stomp/stompjs')).Versions(['1.0', '1.1']) });
    clients.push(c);
    const { frame } = await connectExpectingError(c);
    expect(frame.headers['code']).toBe('STOMP_VERSION_UNSUPPORTED');
    expect(JSON.parse(frame.body)).toEqual({ code: 'STOMP_VERSION_UNSUPPORTED', params: { supported: '1.2' } });
  });
});

describe('subscriptions', () => {
  it('subscribe, publish, unsubscribe', async () => {
    const { gateway } = await setup();
    const c = await client('alice');
    const book = inbox();
    const trades = inbox();
    const subscribed = receipt(c, 's-1');
    const bookSub = c.subscribe(destinations.book('A1'), book.push, { receipt: 's-1' });
    c.subscribe(destinations.trades('A1'), trades.push);
    await subscribed;
    await until(() => gateway.subscriberCount(destinations.trades('A1')) === 1);
    expect(gateway.subscriberCount(destinations.book('A1'))).toBe(1);

    gateway.publish(destinations.book('A1'), { seq: 1, bids: [[100, 5]] }, { seq: '1' });
    await until(() => book.messages.length === 1);
    const message = book.messages[0]!;
    expect(JSON.parse(message.body)).toEqual({ seq: 1, bids: [[100, 5]] });
    expect(message.headers['destination']).toBe('/topic/book.A1');
    expect(message.headers['subscription']).toBe(bookSub.id);
    expect(message.headers['message-id']).toMatch(/^\d+$/);
    expect(message.headers['content-type']).toBe('application/json');
    expect(message.headers['seq']).toBe('1');

    const unsubscribed = receipt(c, 'u-1');
    bookSub.unsubscribe({ receipt: 'u-1' });
    await unsubscribed;
    expect(gateway.subscriberCount(destinations.book('A1'))).toBe(0);
    gateway.publish(destinations.book('A1'), { seq: 2 });
    gateway.publish(destinations.trades('A1'), { sentinel: true });
    await until(() => trades.messages.length === 1);
    // Frames on one socket are ordered: the sentinel came after the unsubscribed publish.
    expect(book.messages).toHaveLength(1);
  });

  it('sends the onSubscribe snapshot to that subscription only, before later publishes', async () => {
    const { gateway } = await setup({
      onSubscribe: (principal, destination, reply) => reply({ snapshot: destination, for: principal.username }, { seq: '0' }),
    });
    const first = await client('alice');
    const second = await client('alice');
    const a = inbox();
    const b = inbox();
    first.subscribe(destinations.book('A1'), a.push);
    await until(() => a.messages.length === 1);
    second.subscribe(destinations.book('A1'), b.push);
    await until(() => b.messages.length === 1);
    gateway.publish(destinations.book('A1'), { delta: 1 });
    await until(() => a.messages.length === 2 && b.messages.length === 2);
    expect(a.messages.map((m) => JSON.parse(m.body))).toEqual([{ snapshot: '/topic/book.A1', for: 'alice' }, { delta: 1 }]);
    expect(b.messages.map((m) => JSON.parse(m.body))).toEqual([{ snapshot: '/topic/book.A1', for: 'alice' }, { delta: 1 }]);
    expect(a.messages[0]!.headers['seq']).toBe('0');
  });

  it('an ExchangeError thrown by onSubscribe becomes an ERROR frame and the subscription is gone', async () => {
    const { gateway } = await setup({
      onSubscribe: () => {
        throw new ExchangeError(apiError('FORBIDDEN', { scope: 'book' }));
      },
    });
    const c = await client('alice');
    const error = nextStompError(c);
    c.subscribe(destinations.book('A1'), () => {});
    const frame = await error;
    expect(JSON.parse(frame.body)).toEqual({ code: 'FORBIDDEN', params: { scope: 'book' } });
    expect(gateway.subscriberCount(destinations.book('A1'))).toBe(0);
  });

  it('routes a private queue only to its own user, on every connection of that user', async () => {
    const { gateway } = await setup();
    const alice1 = await client('alice');
    const alice2 = await client('alice');
    const bob = await client('bob');
    const a1 = inbox();
    const a2 = inbox();
    const b = inbox();
    alice1.subscribe(destinations.myOrders, a1.push);
    alice2.subscribe(destinations.myOrders, a2.push);
    const bobReady = receipt(bob, 'b-1');
    bob.subscribe(destinations.myOrders, b.push, { receipt: 'b-1' });
    await bobReady;
    await until(() => gateway.subscriberCount(destinations.myOrders) === 3);

    gateway.sendToUser('u-alice', destinations.myOrders, { orderId: 'O-1' });
    gateway.publish(destinations.myOrders, { leaked: true }); // not a topic: reaches nobody
    gateway.sendToUser('u-bob', destinations.myOrders, { orderId: 'O-2' });
    await until(() => a1.messages.length === 1 && a2.messages.length === 1 && b.messages.length === 1);
    await sleep(50);
    expect(a1.messages.map((m) => JSON.parse(m.body))).toEqual([{ orderId: 'O-1' }]);
    expect(a2.messages.map((m) => JSON.parse(m.body))).toEqual([{ orderId: 'O-1' }]);
    expect(b.messages.map((m) => JSON.parse(m.body))).toEqual([{ orderId: 'O-2' }]);
  });

  it('refuses a forbidden topic with STOMP_DESTINATION_FORBIDDEN and closes', async () => {
    const { gateway } = await setup();
    const c = await client('alice');
    const error = nextStompError(c);
    c.subscribe(destinations.book('B1'), () => {});
    const frame = await error;
    expect(frame.headers['code']).toBe('STOMP_DESTINATION_FORBIDDEN');
    expect(JSON.parse(frame.body)).toEqual({ code: 'STOMP_DESTINATION_FORBIDDEN', params: { destination: '/topic/book.B1' } });
    expect(gateway.subscriberCount(destinations.book('B1'))).toBe(0);
    await until(() => gateway.connectionCount() === 0);
  });

  it('keeps the workflow approval queue to administrators', async () => {
    const { gateway } = await setup();
    const c = await client('alice');
    const error = nextStompError(c);
    c.subscribe(destinations.workflowApprovals, () => {});
    expect(JSON.parse((await error).body)).toEqual({ code: 'STOMP_DESTINATION_FORBIDDEN', params: { destination: destinations.workflowApprovals } });
    await until(() => gateway.connectionCount() === 0);

    const operator = await client('operator');
    const approvals = inbox();
    const ready = receipt(operator, 'approvals');
    operator.subscribe(destinations.workflowApprovals, approvals.push, { receipt: 'approvals' });
    await ready;
    gateway.sendToUser('u-operator', destinations.workflowApprovals, { instanceId: 'W-1' });
    await until(() => approvals.messages.length === 1);
    expect(JSON.parse(approvals.messages[0]!.body)).toEqual({ instanceId: 'W-1' });
  });

  it('refuses an unknown destination and a duplicate subscription id', async () => {
    await setup();
    const c1 = await client('alice');
    const unknown = nextStompError(c1);
    c1.subscribe('/topic/nonsense', () => {});
    expect((await unknown).headers['code']).toBe('STOMP_DESTINATION_UNKNOWN');

    const c2 = await client('alice');
    const duplicate = nextStompError(c2);
    c2.subscribe(destinations.book('A1'), () => {}, { id: 'same' });
    c2.subscribe(destinations.trades('A1'), () => {}, { id: 'same' });
    const frame = await duplicate;
    expect(frame.headers['code']).toBe('STOMP_SUBSCRIPTION_DUPLICATE');
    expect(JSON.parse(frame.body).params).toEqual({ id: 'same' });
  });
});

describe('SEND', () => {
  it('hands SEND to onSend and answers the receipt after it resolves', async () => {
    const seen: Array<{ user: string; destination: string; body: string; header: string | undefined }> = [];
    await setup({
      onSend: async (principal, destination, body, headers) => {
        await sleep(20);
        seen.push({ user: principal.username, destination, body, header: headers['x-trace'] });
      },
    });
    const c = await client('alice');
    const done = receipt(c, 'send-1');
    c.publish({ destination: destinations.chatSend, body: '{"text":"salut"}', headers: { receipt: 'send-1', 'x-trace': 't:1' } });
    await done;
    expect(seen).toEqual([{ user: 'alice', destination: '/app/chat', body: '{"text":"salut"}', header: 't:1' }]);
  });

  it('turns a thrown ExchangeError into an ERROR frame with its code', async () => {
    await setup({
      onSend: () => {
        throw new ExchangeError(apiError('REQUEST_INVALID', { field: 'text', issue: 'empty' }));
      },
    });
    const c = await client('alice');
    const error = nextStompError(c);
    c.publish({ destination: destinations.chatSend, body: '{}', headers: { receipt: 'send-2' } });
    const frame = await error;
    expect(frame.headers['code']).toBe('REQUEST_INVALID');
    expect(frame.headers['receipt-id']).toBe('send-2');
    expect(JSON.parse(frame.body)).toEqual({ code: 'REQUEST_INVALID', params: { field: 'text', issue: 'empty' } });
  });

  it('forbids SEND to a topic', async () => {
    await setup({ onSend: () => {} });
    const c = await client('alice');
    const error = nextStompError(c);
    c.publish({ destination: destinations.book('A1'), body: '{}' });
    expect((await error).headers['code']).toBe('STOMP_DESTINATION_FORBIDDEN');
  });
});

describe('DISCONNECT and heart-beats', () => {
  it('answers DISCONNECT with its receipt, so deactivate resolves at once', async () => {
    const { gateway } = await setup();
    const c = await client('alice');
    let disconnectReceipt: string | undefined;
    c.onDisconnect = (frame) => (disconnectReceipt = frame.headers['receipt-id']);
    const started = Date.now();
    await c.deactivate();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(disconnectReceipt).toMatch(/^close-/);
    await until(() => gateway.connectionCount() === 0);
  });

  it('exchanges heart-beats with a stompjs client at the negotiated rate', async () => {
    await setup({ heartbeatMs: 100 });
    let received = 0;
    const c = await client('alice', {
      heartbeatIncoming: 100,
      heartbeatOutgoing: 100,
      onHeartbeatReceived: () => (received += 1),
    });
    await sleep(450);
    expect(received).toBeGreaterThanOrEqual(3);
    // Both sides heart-beat, so the server did not drop the client.
    expect(c.connected).toBe(true);
  });
});
