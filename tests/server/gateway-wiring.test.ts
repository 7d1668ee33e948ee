import { Client, type IFrame } from '@stomp/stompjs';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { destinations, TOKEN_MAX_AGE_SECONDS } from '../../protocol/index.ts';
import { createConnection, type ConnectionState, type StreamError } from '../../streams/connection.ts';
import { sendDispatcher } from '../../server/gateway-wiring.ts';
import type { Principal, SendSession } from '../../server/gateway/stomp-gateway.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { realSocketFactory } from '../streams/real-socket.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.server.close();
});

function stompClient(token: string): Client {
  return new Client({
    webSocketFactory: () => new WebSocket(`ws://127.0.0.1:${t.server.port}/session/ws`, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
  });
}

function connect(client: Client): Promise<{ connected: boolean; error?: IFrame }> {
  return new Promise((resolve) => {
    client.onConnect = () => resolve({ connected: true });
    client.onStompError = (frame) => resolve({ connected: false, error: frame });
    client.onWebSocketClose = () => resolve({ connected: false });
    client.activate();
  });
}

describe('STOMP on the exchange server', () => {
  it('connects with a signed-in token and answers a receipt', async () => {
    const token = await t.login('broker1');
    const client = stompClient(token);
    expect((await connect(client)).connected).toBe(true);
    const receipt = new Promise<string>((resolve) => client.watchForReceipt('r-1', (frame) => resolve(frame.headers['receipt-id']!)));
    client.subscribe(destinations.book('GSPOT-DA'), () => {}, { receipt: 'r-1' });
    expect(await receipt).toBe('r-1');
    await client.deactivate();
  });

  it('sends an ERROR frame with the code for an expired or forged token', async () => {
    const token = await t.login('broker2');
    t.clock.advance(TOKEN_MAX_AGE_SECONDS * 1000 + 1000);
    const expired = await connect(stompClient(token));
    expect(expired.connected).toBe(false);
    expect(expired.error?.headers.code).toBe('AUTH_TOKEN_EXPIRED');

    const forged = await new SignJWT({ username: 'broker1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('U-002')
      .setIssuer('energy-exchange')
      .setIssuedAt(Math.floor(t.clock.now() / 1000))
      .setExpirationTime(Math.floor(t.clock.now() / 1000) + 600)
      .sign(new TextEncoder().encode('an-attacker-key-an-attacker-key!'));
    const refused = await connect(stompClient(forged));
    expect(refused.error?.headers.code).toBe('AUTH_TOKEN_INVALID');
  });

  it('refuses topics of markets the user may not see', async () => {
    const token = await t.login('client1'); // electricity markets only
    const client = stompClient(token);
    await connect(client);
    const error = new Promise<IFrame>((resolve) => (client.onStompError = resolve));
    client.subscribe(destinations.book('GSPOT-DA'), () => {});
    expect((await error).headers.code).toBe('STOMP_DESTINATION_FORBIDDEN');
    await client.deactivate();
  });

  it('ends a session when its token expires on the server clock: AUTH_TOKEN_EXPIRED, and no SUBSCRIBE after (issue 13, item 6)', async () => {
    const token = await t.login('broker1');
    const client = stompClient(token);
    expect((await connect(client)).connected).toBe(true);
    const error = new Promise<IFrame>((resolve) => (client.onStompError = resolve));
    const closed = new Promise<void>((resolve) => (client.onWebSocketClose = () => resolve()));
    t.clock.advance(TOKEN_MAX_AGE_SECONDS * 1000);
    const started = Date.now();
    // The SUBSCRIBE races the gateway's sweep: either way it is refused with the code.
    client.subscribe(destinations.book('GSPOT-DA'), () => {});
    expect((await error).headers.code).toBe('AUTH_TOKEN_EXPIRED');
    await closed;
    expect(Date.now() - started).toBeLessThan(2500);
    expect(t.server.gateway.subscriberCount(destinations.book('GSPOT-DA'))).toBe(0);
  });

  it('a quiet session is ended by the sweep, and the client reconnects with a fresh token instead of going offline', async () => {
    let signIns = 0;
    const connection = createConnection({
      url: `ws://127.0.0.1:${t.server.port}/session/ws`,
      getToken: async () => {
        signIns += 1;
        return t.login('broker2');
      },
      webSocketFactory: realSocketFactory().webSocketFactory,
      heartbeatMs: 0,
      backoff: { initialMs: 20, maxMs: 200, jitter: 0.5 },
    });
    const states: ConnectionState[] = [];
    const errors: StreamError[] = [];
    connection.connectionState$.subscribe((state) => states.push(state));
    connection.errors$.subscribe((error) => errors.push(error));
    const generation = (): number => (connection.state.status === 'connected' ? connection.state.generation : 0);
    const waitFor = async (check: () => boolean, what: string): Promise<void> => {
      const deadline = Date.now() + 5000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    connection.connect();
    await waitFor(() => generation() === 1, 'first connect');
    t.clock.advance(TOKEN_MAX_AGE_SECONDS * 1000);
    await waitFor(() => generation() === 2, 'reconnect with a fresh token');
    expect(errors.some((error) => error.kind === 'stomp' && error.code === 'AUTH_TOKEN_EXPIRED')).toBe(true);
    expect(states.some((state) => state.status === 'offline' && state.reason !== 'idle')).toBe(false);
    expect(signIns).toBe(2);
    await connection.disconnect({ timeoutMs: 500 });
  });
});

describe('sessions per user (MAX_SESSIONS_PER_USER)', () => {
  it('refuses the session over the cap with STOMP_TOO_MANY_CONNECTIONS; 0 lifts the cap', async () => {
    for (const [cap, accepted] of [[2, 2], [0, 3]] as const) {
      const server = await startTestServer({ maxSessionsPerUser: cap });
      const port = server.server.port;
      const token = await server.login('broker1');
      const clients = [0, 1, 2].map(
        () => new Client({ webSocketFactory: () => new WebSocket(`ws://127.0.0.1:${port}/session/ws`, ['v12.stomp']), connectHeaders: { Authorization: `Bearer ${token}` }, reconnectDelay: 0, heartbeatIncoming: 0, heartbeatOutgoing: 0 }),
      );
      try {
        const results: Array<{ connected: boolean; error?: IFrame }> = [];
        for (const client of clients) results.push(await connect(client));
        expect(results.filter((result) => result.connected)).toHaveLength(accepted);
        if (accepted === 2) expect(results[2]!.error?.headers.code).toBe('STOMP_TOO_MANY_CONNECTIONS');
      } finally {
        await Promise.all(clients.map((client) => client.deactivate()));
        await server.server.close();
      }
    }
  });
});

describe('sendDispatcher', () => {
  const principal: Principal = { userId: 'u1', username: 'u1', roles: [], clientCodes: [], marketIds: [] };
  const session: SendSession = { id: 's1', reply: () => {} };

  it('hands each SEND to the handler of its destination, with the session', async () => {
    const calls: string[] = [];
    const dispatch = sendDispatcher({
      chatSend: (_p, destination, body) => void calls.push(`chat ${destination} ${body}`),
      orderEntry: async (_p, destination, body, _h, s) => void calls.push(`orders ${destination} ${body} ${s.id}`),
    });
    await dispatch(principal, destinations.orderEntry, '{"a":1}', {}, session);
    await dispatch(principal, destinations.chatSend, 'hi', {}, session);
    expect(calls).toEqual(['orders /app/orders {"a":1} s1', 'chat /app/chat hi']);
  });

  it('refuses any other destination with STOMP_DESTINATION_FORBIDDEN', () => {
    const dispatch = sendDispatcher({ chatSend: () => {}, orderEntry: () => {} });
    expect(() => dispatch(principal, destinations.myOrders, '{}', {}, session)).toThrow(expect.objectContaining({ code: 'STOMP_DESTINATION_FORBIDDEN' }));
  });
});
