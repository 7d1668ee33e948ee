/** The chat's REST calls as the signed-in user (the machine's injected ChatApi). */
import { z } from 'zod';
import type { ChatApi } from '../../../machines/chat.machine.ts';
import { chatContactsResponseSchema, chatConversationsResponseSchema, chatMessagesResponseSchema } from '../../../protocol/chat.ts';
import { authedRequest } from '../../api/http.ts';

const readResponseSchema = z.strictObject({ upTo: z.string().nullable() });

export const chatApi: ChatApi = {
  async loadOverview() {
    const [contacts, conversations] = await Promise.all([
      authedRequest('/chat/contacts', (body) => chatContactsResponseSchema.safeParse(body).data?.contacts ?? null),
      authedRequest('/chat/conversations', (body) => chatConversationsResponseSchema.safeParse(body).data?.conversations ?? null),
    ]);
    return { contacts, conversations };
  },
  loadHistory(input) {
    const query = new URLSearchParams({ with: input.with });
    if (input.before !== undefined) query.set('before', input.before);
    return authedRequest(`/chat/messages?${query.toString()}`, (body) => chatMessagesResponseSchema.safeParse(body).data ?? null);
  },
  markRead(input) {
    return authedRequest('/chat/read', (body) => readResponseSchema.safeParse(body).data ?? null, { method: 'POST', body: { with: input.with } });
  },
};
