import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { destinations, type ChatEvent } from '../../../protocol/index.ts';
import { connectCollector } from '../../helpers/stomp-test-client.ts';
import { startTestServer } from '../../helpers/test-server.ts';

describe('chat survives a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'exchange-chat-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps messages, unread counts and read marks in the database', async () => {
    const first = await startTestServer({ dataDir, tickIntervalMs: 0 });
    let broker1Id: string;
    let broker2Id: string;
    try {
      const token1 = await first.login('broker1');
      const token2 = await first.login('broker2');
      broker1Id = (await first.get('/user/info', token1)).body.userId;
      broker2Id = (await first.get('/user/info', token2)).body.userId;
      const sender = await connectCollector(first.server.port, token1);
      await sender.subscribe(destinations.chat);
      for (const [i, text] of ['Prima', 'A doua', 'A treia'].entries()) {
        sender.client.publish({ destination: destinations.chatSend, body: JSON.stringify({ to: broker2Id, text, clientId: `r-${i}` }) });
      }
      const events = await sender.waitFor<ChatEvent>(destinations.chat, (received) => received.length === 3);
      const firstId = events[0]!.type === 'message' ? events[0]!.message.id : '';
      expect((await first.post('/chat/read', { with: broker1Id, upTo: firstId }, token2)).body).toEqual({ upTo: firstId });
      await sender.close();
    } finally {
      await first.server.close();
    }

    const second = await startTestServer({ dataDir, tickIntervalMs: 0 });
    try {
      second.clock.advance(first.clock.now() - second.clock.now() + 1000);
      const token2 = await second.login('broker2');
      const history = await second.get(`/chat/messages?with=${broker1Id}`, token2);
      expect(history.body.messages.map((message: { text: string; from: string }) => [message.from, message.text])).toEqual([
        [broker1Id, 'Prima'],
        [broker1Id, 'A doua'],
        [broker1Id, 'A treia'],
      ]);
      const conversations = await second.get('/chat/conversations', token2);
      expect(conversations.body.conversations).toEqual([{ with: broker1Id, lastMessage: history.body.messages[2], unread: 2 }]);
      // A resend after the restart is still recognised by its clientId.
      const token1 = await second.login('broker1');
      const sender = await connectCollector(second.server.port, token1);
      await sender.subscribe(destinations.chat);
      sender.client.publish({ destination: destinations.chatSend, body: JSON.stringify({ to: broker2Id, text: 'A treia', clientId: 'r-2' }) });
      const [echo] = await sender.waitFor<ChatEvent>(destinations.chat, (received) => received.length === 1);
      expect(echo).toEqual({ type: 'message', message: history.body.messages[2], clientId: 'r-2' });
      await sender.close();
      expect((await second.get(`/chat/messages?with=${broker1Id}`, token2)).body.messages).toHaveLength(3);
    } finally {
      await second.server.close();
    }
    // Two server starts on a data directory: slow on a loaded machine.
  }, 90_000);
});
