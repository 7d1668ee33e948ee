import { describe, expect, it } from 'vitest';
import { loadDemoExchangeIfEmpty } from '../../../server/demo/demo-exchange.ts';
import { openStore } from '../../../server/store/store.ts';
import { testDatabases } from '../../helpers/test-databases.ts';

describe.each(testDatabases)('chat repository on $name', (database) => {
  it('stores messages once per clientId, pages a conversation, counts unread after the read mark, never moves the mark back', async () => {
    const target = await database.create();
    const store = await openStore(target);
    try {
      await loadDemoExchangeIfEmpty(store, new Date('2026-11-22T09:00:00Z'));
      const id = async (username: string) => (await store.users.findByUsername(username))!.id;
      const [a, b, c] = await Promise.all([id('broker1'), id('broker2'), id('admin')]);
      const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 9, minute));

      const sent = [];
      for (let i = 0; i < 12; i++) {
        const [from, to] = i % 3 === 0 ? [b, a] : [a, b];
        sent.push((await store.chat.insert({ from, to, text: `m${i}`, clientId: `c${i}`, at: at(i) })).message);
      }
      await store.chat.insert({ from: c, to: a, text: 'operator', clientId: 'c0', at: at(30) });
      const again = await store.chat.insert({ from: a, to: b, text: 'm1', clientId: 'c1', at: at(40) });
      expect(again).toEqual({ message: sent[1], duplicate: true });
      expect(sent[1]).toEqual({ id: expect.stringMatching(/^\d+$/), from: a, to: b, text: 'm1', at: '2026-11-22T09:01:00.000Z' });

      // Ids grow past 9 without sorting as text ("10" < "9").
      const page = await store.chat.history(a, b, { limit: 5 });
      expect(page.messages.map((message) => message.text)).toEqual(['m7', 'm8', 'm9', 'm10', 'm11']);
      expect(page.hasMore).toBe(true);
      const older = await store.chat.history(b, a, { beforeId: page.messages[0]!.id, limit: 50 });
      expect(older.messages.map((message) => message.text)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
      expect(older.hasMore).toBe(false);

      // b received m1, m2, m4, m5, m7, m8, m10, m11 from a.
      expect(await store.chat.conversations(b)).toEqual([{ partnerId: a, lastMessage: sent[11], unread: 8 }]);
      const conversationsOfA = await store.chat.conversations(a);
      expect(conversationsOfA.map((conversation) => [conversation.partnerId, conversation.unread])).toEqual([
        [c, 1],
        [b, 4],
      ]);

      expect(await store.chat.markRead(b, a, sent[5]!.id)).toBe(sent[5]!.id);
      expect((await store.chat.conversations(b))[0]!.unread).toBe(4);
      expect(await store.chat.markRead(b, a, sent[2]!.id)).toBe(sent[5]!.id);
      expect(await store.chat.latestFrom(a, b)).toBe(sent[11]!.id);
      expect(await store.chat.latestFrom(c, b)).toBeNull();
    } finally {
      await store.close();
      await target.drop();
    }
  });
});
