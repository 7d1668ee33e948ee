import { Client, type IFrame } from '@stomp/stompjs';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { destinations, TOKEN_MAX_AGE_SECONDS } from '../../protocol/index.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

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
});
