/**
 * Chat between market participants (SPEC §2 "Chats: active brokers and conversations"), over the one
 * STOMP connection: the client SENDs `chatOutgoingSchema` to `/app/chat`; the server pushes
 * `chatEventSchema` on the private `/user/queue/chat` (a message, a presence change, a read mark,
 * or a refusal of one of the user's own sends). History and contacts are REST (`/chat/...`).
 */
import { z } from 'zod';
import { errorCodes, type ErrorCode } from './error-codes.ts';
import { chatMessageSchema } from './market-data.ts';

/** Longest message, in characters (Unicode code points, so an emoji counts once on both sides). */
export const CHAT_MAX_LENGTH = 2000;
/** Page size of GET /chat/messages (and its largest `limit`). */
export const CHAT_PAGE_SIZE = 50;
export const CHAT_MAX_PAGE_SIZE = 200;

/** Characters of a message as the server counts them. */
export function chatTextLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** A message the server would accept: not blank, at most CHAT_MAX_LENGTH characters. */
export function isChatTextValid(text: string): boolean {
  return text.trim() !== '' && chatTextLength(text) <= CHAT_MAX_LENGTH;
}

const userIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
/** The sender's own id of a message: ties refusals and the echo to the tab that sent it, and makes a resend idempotent. */
const clientIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** Body of a STOMP SEND to /app/chat. The text is checked by the service (CHAT_MESSAGE_INVALID), not here. */
export const chatOutgoingSchema = z.strictObject({ to: userIdSchema, text: z.string(), clientId: clientIdSchema });
export type ChatOutgoing = z.infer<typeof chatOutgoingSchema>;

/** What arrives on /user/queue/chat. */
export const chatEventSchema = z.discriminatedUnion('type', [
  /** A message to or from the user (also to the sender's own tabs; `clientId` only on those). */
  z.strictObject({ type: z.literal('message'), message: chatMessageSchema, clientId: clientIdSchema.optional() }),
  /** A contact came online (first live connection) or went offline (last one closed). */
  z.strictObject({ type: z.literal('presence'), userId: z.string(), online: z.boolean() }),
  /** `reader` read the conversation with `partner` up to message `upTo` (sent to both sides). */
  z.strictObject({ type: z.literal('read'), reader: z.string(), partner: z.string(), upTo: z.string() }),
  /** One of the user's sends was refused (non-fatal: the connection stays open). */
  z.strictObject({
    type: z.literal('refusal'),
    clientId: z.string(),
    code: z.string().refine((code): code is ErrorCode => (errorCodes as string[]).includes(code)),
    params: z.record(z.string(), z.union([z.string(), z.number()])),
  }),
]);
export type ChatEvent = z.infer<typeof chatEventSchema>;

/** Someone the user may write to. */
export const chatContactSchema = z.strictObject({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  agencyId: z.string().nullable(),
  online: z.boolean(),
});
export type ChatContact = z.infer<typeof chatContactSchema>;

/** The latest message with one partner and how many of the partner's messages are unread. */
export const chatConversationSchema = z.strictObject({
  with: z.string(),
  lastMessage: chatMessageSchema,
  unread: z.number().int().nonnegative(),
});
export type ChatConversation = z.infer<typeof chatConversationSchema>;

export const chatContactsResponseSchema = z.strictObject({ contacts: z.array(chatContactSchema) });
export const chatConversationsResponseSchema = z.strictObject({ conversations: z.array(chatConversationSchema) });
/** Oldest first; `hasMore` when older messages exist before the first one. */
export const chatMessagesResponseSchema = z.strictObject({ messages: z.array(chatMessageSchema), hasMore: z.boolean() });
export type ChatMessagesPage = z.infer<typeof chatMessagesResponseSchema>;

export const chatMessagesQuerySchema = z.strictObject({
  with: userIdSchema,
  before: z.string().regex(/^\d{1,18}$/).optional(),
  limit: z.coerce.number().int().min(1).max(CHAT_MAX_PAGE_SIZE).optional(),
});

/** POST /chat/read: everything from `with` up to `upTo` (default: the latest) is read. */
export const chatReadSchema = z.strictObject({ with: userIdSchema, upTo: z.string().regex(/^\d{1,18}$/).optional() });
export type ChatRead = z.infer<typeof chatReadSchema>;
