import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MAX_LENGTH, destinations, type ChatEvent, type ChatContact, type ChatConversation } from '../../../protocol/index.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const chat = destinations.chat;
let t: TestServer;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const clients: CollectingClient[] = [];

async function connect(username: string): Promise<CollectingClient> {
  const client = await connectCollector(t.server.port, tokens[username]!);
  clients.push(client);
  await client.subscribe(chat);
  return client;
}

function send(client: CollectingClient, body: unknown): void {
  client.client.publish({ destination: destinations.chatSend, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

const messagesOf = (events: ChatEvent[]) => events.filter((event) => event.type === 'message');
const refusalOf = (events: ChatEvent[], clientId: string) => events.find((event) => event.type === 'refusal' && event.clientId === clientId);

beforeAll(async () => {
  t = await startTestServer({ chat: { rateLimits: { max: 5, windowMs: 60_000 }, presenceGraceMs: 0 } });
  for (const username of ['broker1', 'broker2', 'agency1', 'client1', 'terminal1', 'admin']) {
    tokens[username] = await t.login(username);
    ids[username] = (await t.get('/user/info', tokens[username])).body.userId;
  }
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await t?.server.close();
});

describe('chat over STOMP', () => {
  it("delivers a message to the recipient and to every tab of the sender; the recipient's unread count goes up and a read mark clears it on both sides", async () => {
    const tab1 = await connect('broker1');
    const tab2 = await connect('broker1');
    const other = await connect('broker2');

    send(tab1, { to: ids.broker2, text: 'Bună ziua, aveți 100 MWh pentru mâine?\nLa 150,00.', clientId: 'm-1' });

    const [received] = messagesOf(await other.waitFor<ChatEvent>(chat, (events) => messagesOf(events).length === 1));
    expect(received).toMatchObject({
      type: 'message',
      message: { from: ids.broker1, to: ids.broker2, text: 'Bună ziua, aveți 100 MWh pentru mâine?\nLa 150,00.', at: new Date(t.clock.now()).toISOString() },
    });
    // The recipient does not see the sender's own id of the message.
    expect(received).not.toHaveProperty('clientId');
    for (const tab of [tab1, tab2]) {
      const [echo] = messagesOf(await tab.waitFor<ChatEvent>(chat, (events) => messagesOf(events).length === 1));
      expect(echo).toEqual({ ...received, clientId: 'm-1' });
    }

    const conversations = (await t.get('/chat/conversations', tokens.broker2)).body.conversations as ChatConversation[];
    expect(conversations).toEqual([{ with: ids.broker1, lastMessage: received!.type === 'message' ? received!.message : null, unread: 1 }]);
    expect((await t.get('/chat/conversations', tokens.broker1)).body.conversations).toEqual([{ ...conversations[0], with: ids.broker2, unread: 0 }]);

    const read = await t.post('/chat/read', { with: ids.broker1 }, tokens.broker2);
    expect(read).toEqual({ status: 200, body: { upTo: received!.type === 'message' ? received!.message.id : '' } });
    expect((await t.get('/chat/conversations', tokens.broker2)).body.conversations[0].unread).toBe(0);
    // The sender learns the message was read (both tabs).
    for (const tab of [tab1, tab2]) {
      await tab.waitFor<ChatEvent>(chat, (events) => events.some((event) => event.type === 'read' && event.reader === ids.broker2 && event.partner === ids.broker1));
    }
  });

  it('stores a resent message once (same clientId) and gives the sender the stored one again', async () => {
    const sender = await connect('agency1');
    const recipient = await connect('admin');
    send(sender, { to: ids.admin, text: 'Cerere de suport', clientId: 'again-1' });
    send(sender, { to: ids.admin, text: 'Cerere de suport', clientId: 'again-1' });
    const echoes = messagesOf(await sender.waitFor<ChatEvent>(chat, (events) => messagesOf(events).length === 2));
    expect(echoes[0]).toEqual(echoes[1]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(messagesOf(recipient.received.get(chat) as ChatEvent[])).toHaveLength(1);
    const history = await t.get(`/chat/messages?with=${ids.admin}`, tokens.agency1);
    expect(history.body.messages).toHaveLength(1);
  });

  it('refuses invalid sends with catalogue codes on the sender queue and keeps the connection open', async () => {
    const sender = await connect('client1');
    const cases: Array<[unknown, string, ChatEvent]> = [
      [{ to: ids.broker1, text: '   \n ', clientId: 'blank' }, 'blank', { type: 'refusal', clientId: 'blank', code: 'CHAT_MESSAGE_INVALID', params: { maxLength: CHAT_MAX_LENGTH } }],
      [{ to: ids.broker1, text: 'x'.repeat(CHAT_MAX_LENGTH + 1), clientId: 'long' }, 'long', { type: 'refusal', clientId: 'long', code: 'CHAT_MESSAGE_INVALID', params: { maxLength: CHAT_MAX_LENGTH } }],
      [{ to: ids.broker1, text: 42, clientId: 'number' }, 'number', { type: 'refusal', clientId: 'number', code: 'CHAT_MESSAGE_INVALID', params: { maxLength: CHAT_MAX_LENGTH } }],
      [{ to: 'U-999', text: 'salut', clientId: 'nobody' }, 'nobody', { type: 'refusal', clientId: 'nobody', code: 'CHAT_RECIPIENT_UNKNOWN', params: { recipient: 'U-999' } }],
      // A client talks to its own agency's brokers, not to another agency's, nor to terminals, nor to itself.
      [{ to: ids.broker2, text: 'salut', clientId: 'other-agency' }, 'other-agency', { type: 'refusal', clientId: 'other-agency', code: 'CHAT_RECIPIENT_UNKNOWN', params: { recipient: ids.broker2! } }],
      [{ to: ids.terminal1, text: 'salut', clientId: 'terminal' }, 'terminal', { type: 'refusal', clientId: 'terminal', code: 'CHAT_RECIPIENT_UNKNOWN', params: { recipient: ids.terminal1! } }],
      [{ to: ids.client1, text: 'salut', clientId: 'self' }, 'self', { type: 'refusal', clientId: 'self', code: 'CHAT_RECIPIENT_UNKNOWN', params: { recipient: ids.client1! } }],
      [{ to: ids.broker1, text: 'salut', clientId: 'extra', priority: 'high' }, 'extra', { type: 'refusal', clientId: 'extra', code: 'REQUEST_INVALID', params: { field: 'priority', issue: 'unrecognized_keys' } }],
      ['{not json', '', { type: 'refusal', clientId: '', code: 'REQUEST_MALFORMED_JSON', params: {} }],
    ];
    for (const [body] of cases) send(sender, body);
    const events = await sender.waitFor<ChatEvent>(chat, (received) => received.filter((event) => event.type === 'refusal').length === cases.length);
    for (const [, clientId, expected] of cases) expect(refusalOf(events, clientId)).toEqual(expected);

    // Still connected: a valid message to the client's own broker goes through.
    send(sender, { to: ids.broker1, text: 'Confirm ordinul.', clientId: 'fine' });
    const [message] = messagesOf(await sender.waitFor<ChatEvent>(chat, (received) => messagesOf(received).length === 1));
    expect(message).toMatchObject({ clientId: 'fine', message: { to: ids.broker1, text: 'Confirm ordinul.' } });
    expect(sender.client.connected).toBe(true);
  });

  it('limits sends per user: over the limit CHAT_RATE_LIMITED with the seconds to wait, and sends again once the window has passed', async () => {
    const sender = await connect('broker2');
    // broker2 has sent nothing yet; the limit is 5 a minute.
    for (let i = 1; i <= 6; i++) send(sender, { to: ids.broker1, text: `oferta ${i}`, clientId: `rate-${i}` });
    const events = await sender.waitFor<ChatEvent>(chat, (received) => refusalOf(received, 'rate-6') !== undefined && messagesOf(received).length >= 5);
    expect(messagesOf(events).map((event) => event.type === 'message' && event.clientId)).toEqual(['rate-1', 'rate-2', 'rate-3', 'rate-4', 'rate-5']);
    expect(refusalOf(events, 'rate-6')).toEqual({ type: 'refusal', clientId: 'rate-6', code: 'CHAT_RATE_LIMITED', params: { retryAfterSeconds: 60 } });

    t.clock.advance(60_000);
    send(sender, { to: ids.broker1, text: 'oferta 7', clientId: 'rate-7' });
    await sender.waitFor<ChatEvent>(chat, (received) => received.some((event) => event.type === 'message' && event.clientId === 'rate-7'));
  });
});

describe('presence and contacts', () => {
  it('lists whom a user may write to, with who is online; tells contacts when a user comes and goes', async () => {
    const watcher = await connect('broker2');
    const contacts = (await t.get('/chat/contacts', tokens.broker2)).body.contacts as ChatContact[];
    const byName = new Map(contacts.map((contact) => [contact.username, contact]));
    // Brokers and agencies of any agency and the operator; not another agency's client, not terminals, not oneself.
    expect([...byName.keys()]).toEqual(expect.arrayContaining(['broker1', 'agency1', 'admin']));
    expect(byName.has('client1')).toBe(false);
    expect(byName.has('terminal1')).toBe(false);
    expect(byName.has('broker2')).toBe(false);
    expect(byName.get('broker1')).toMatchObject({ userId: ids.broker1, name: 'Andrei Popescu', roles: ['broker'], agencyId: 'AG-NORD' });

    expect((await t.get('/chat/contacts', tokens.terminal1)).body.contacts).toEqual([]);

    // expired1 (a broker) has never connected: offline. Connecting it is announced to broker2, closing it too.
    const expiredId = byName.get('expired1')!.userId;
    expect(byName.get('expired1')!.online).toBe(false);
    const onlineTokenFor = await t.login('sim-carp');
    const simId = (await t.get('/user/info', onlineTokenFor)).body.userId as string;
    const sim = await connectCollector(t.server.port, onlineTokenFor);
    await watcher.waitFor<ChatEvent>(chat, (events) => events.some((event) => event.type === 'presence' && event.userId === simId && event.online));
    const online = (await t.get('/chat/contacts', tokens.broker2)).body.contacts as ChatContact[];
    expect(online.find((contact) => contact.userId === simId)?.online).toBe(true);
    // Online contacts are listed first.
    expect(online.findIndex((contact) => contact.userId === simId)).toBeLessThan(online.findIndex((contact) => contact.userId === expiredId));

    await sim.close();
    await watcher.waitFor<ChatEvent>(chat, (events) => events.some((event) => event.type === 'presence' && event.userId === simId && !event.online));
    expect(((await t.get('/chat/contacts', tokens.broker2)).body.contacts as ChatContact[]).find((contact) => contact.userId === simId)?.online).toBe(false);
  });

  it('keeps a user online while another tab is still open', async () => {
    const watcher = await connect('admin');
    const token = await t.login('sim-nord');
    const userId = (await t.get('/user/info', token)).body.userId as string;
    const first = await connectCollector(t.server.port, token);
    const second = await connectCollector(t.server.port, token);
    await watcher.waitFor<ChatEvent>(chat, (events) => events.some((event) => event.type === 'presence' && event.userId === userId && event.online));
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const contacts = (await t.get('/chat/contacts', tokens.admin)).body.contacts as ChatContact[];
    expect(contacts.find((contact) => contact.userId === userId)?.online).toBe(true);
    await second.close();
    const events = await watcher.waitFor<ChatEvent>(chat, (received) => received.some((event) => event.type === 'presence' && event.userId === userId && !event.online));
    // One online and one offline announcement for two tabs.
    expect(events.filter((event) => event.type === 'presence' && event.userId === userId).map((event) => event.type === 'presence' && event.online)).toEqual([true, false]);
  });
});

describe('chat REST', () => {
  it('pages the history oldest first with hasMore and before', async () => {
    const sender = await connect('admin');
    for (let i = 1; i <= 5; i++) send(sender, { to: ids.broker1, text: `anunț ${i}`, clientId: `page-${i}` });
    await sender.waitFor<ChatEvent>(chat, (events) => events.filter((event) => event.type === 'message' && event.clientId?.startsWith('page-')).length === 5);
    const latest = await t.get(`/chat/messages?with=${ids.broker1}&limit=2`, tokens.admin);
    expect(latest.status).toBe(200);
    expect(latest.body.messages.map((message: { text: string }) => message.text)).toEqual(['anunț 4', 'anunț 5']);
    expect(latest.body.hasMore).toBe(true);
    const older = await t.get(`/chat/messages?with=${ids.broker1}&limit=10&before=${latest.body.messages[0].id}`, tokens.admin);
    expect(older.body).toEqual({ messages: expect.any(Array), hasMore: false });
    expect(older.body.messages.map((message: { text: string }) => message.text)).toEqual(['anunț 1', 'anunț 2', 'anunț 3']);
    // The partner sees the same conversation.
    const partner = await t.get(`/chat/messages?with=${ids.admin}`, tokens.broker1);
    expect(partner.body.messages.map((message: { text: string }) => message.text)).toEqual(['anunț 1', 'anunț 2', 'anunț 3', 'anunț 4', 'anunț 5']);
  });

  it('refuses partners one may not write to and bad parameters', async () => {
    expect(await t.get(`/chat/messages?with=${ids.terminal1}`, tokens.broker1)).toEqual({ status: 404, body: { error: { code: 'CHAT_RECIPIENT_UNKNOWN', params: { recipient: ids.terminal1 } } } });
    expect((await t.post('/chat/read', { with: 'U-999' }, tokens.broker1)).body.error).toEqual({ code: 'CHAT_RECIPIENT_UNKNOWN', params: { recipient: 'U-999' } });
    expect((await t.get(`/chat/messages?with=${ids.broker2}&limit=0`, tokens.broker1)).body.error).toEqual({ code: 'REQUEST_INVALID', params: { field: 'limit', issue: 'too_small' } });
    expect((await t.get('/chat/messages?with=a%20b', tokens.broker1)).body.error.code).toBe('REQUEST_INVALID');
    expect((await t.get('/chat/contacts')).body.error.code).toBe('AUTH_TOKEN_MISSING');
  });
});
