import type { FastifyInstance } from 'fastify';
import { chatMessagesQuerySchema, chatReadSchema } from '../../protocol/chat.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ChatService } from '../chat/chat-service.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

/**
 * Chat over REST: who one may write to (with presence), the conversations with unread counts, paged
 * history, and read marks. Sending is over STOMP (/app/chat), so messages share the live channel.
 * A partner one may not write to is CHAT_RECIPIENT_UNKNOWN, the same as a user that does not exist.
 */
export function chatRoutes(options: { auth: AuthService; chat: ChatService }) {
  const { auth, chat } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/chat/contacts', async (request) => {
      const user = await requireUser(auth, request);
      return { contacts: await chat.contacts(user.id) };
    });

    app.get('/chat/conversations', async (request) => {
      const user = await requireUser(auth, request);
      return { conversations: await chat.conversations(user.id) };
    });

    app.get('/chat/messages', async (request) => {
      const user = await requireUser(auth, request);
      const query = parseWith(chatMessagesQuerySchema, request.query);
      return chat.history(user.id, query.with, { before: query.before, limit: query.limit });
    });

    app.post('/chat/read', async (request) => {
      const user = await requireUser(auth, request);
      const body = parseWith(chatReadSchema, request.body);
      return { upTo: await chat.markRead(user.id, body.with, body.upTo) };
    });
  };
}
