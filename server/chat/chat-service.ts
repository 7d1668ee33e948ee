/**
 * Chat over the STOMP channel: SENDs to /app/chat are checked, stored, and delivered on
 * /user/queue/chat to every connection of the recipient and of the sender (all their tabs). A
 * refused send never closes the connection: the refusal goes back on the sender's queue with the
 * message's clientId and a catalogue code. Presence comes from the gateway's session hooks.
 */
import {
  apiError,
  CHAT_MAX_LENGTH,
  CHAT_PAGE_SIZE,
  chatOutgoingSchema,
  chatTextLength,
  destinations,
  ExchangeError,
  type ApiError,
  type ChatContact,
  type ChatConversation,
  type ChatEvent,
  type ChatMessage,
} from '../../protocol/index.ts';
import type { Principal, StompGateway } from '../gateway/stomp-gateway.ts';
import type { Store } from '../store/store.ts';
import { mayChat, type ChatParty } from './chat-policy.ts';
import { Presence } from './presence.ts';
import { ChatRateLimiter, defaultChatRateLimits, type ChatRateLimits } from './rate-limiter.ts';

export interface ChatServiceOptions {
  store: Store;
  now: () => number;
  rateLimits?: ChatRateLimits;
  /** How long a user stays "online" after their last connection closed. Default 3000 ms. */
  presenceGraceMs?: number;
}

interface ChatUser extends ChatParty {
  username: string;
  name: string;
}

/** Thrown for a refused send; carries the clientId so the refusal reaches the right message. */
class SendRefusal extends Error {
  constructor(
    readonly clientId: string,
    readonly refusal: ApiError,
  ) {
    super(refusal.code);
  }
}

/** Line ends as \n; other control characters (NUL cannot be stored) removed. */
export function normalizeChatText(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point: they are removed
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '');
}

export class ChatService {
  private readonly store: Store;
  private readonly limiter: ChatRateLimiter;
  private readonly presence: Presence;
  private users = new Map<string, ChatUser>();
  private loadedAt = Number.NEGATIVE_INFINITY;
  private gateway: Pick<StompGateway, 'sendToUser'> | null = null;

  constructor(private readonly options: ChatServiceOptions) {
    this.store = options.store;
    this.limiter = new ChatRateLimiter(options.rateLimits ?? defaultChatRateLimits, options.now);
    this.presence = new Presence({ graceMs: options.presenceGraceMs ?? 3000, onChange: (userId, online) => this.announcePresence(userId, online) });
  }

  /** Reads the user directory (roles and agencies decide who may chat with whom). */
  async load(): Promise<void> {
    const rows = await this.store.db.query<{ id: string; username: string; name: string; roles: string[]; agency_id: string | null }>(
      'select id, username, name, roles, agency_id from users order by name, id',
    );
    this.loadedAt = this.options.now();
    this.users = new Map(rows.map((row) => [row.id, { id: row.id, username: row.username, name: row.name, roles: row.roles, agencyId: row.agency_id }]));
  }

  /** The gateway exists after the service (it takes the service's hooks). */
  attach(gateway: Pick<StompGateway, 'sendToUser'>): void {
    this.gateway = gateway;
  }

  close(): void {
    this.presence.close();
  }

  // ---- gateway hooks (bound: handed to the gateway as plain functions) ----

  readonly onSessionOpened = (principal: Principal): void => this.presence.opened(principal.userId);

  readonly onSessionClosed = (principal: Principal): void => this.presence.closed(principal.userId);

  readonly onSend = async (principal: Principal, _destination: string, body: string): Promise<void> => {
    try {
      await this.send(principal.userId, body);
    } catch (error) {
      if (!(error instanceof SendRefusal)) throw error;
      this.push(principal.userId, { type: 'refusal', clientId: error.clientId, code: error.refusal.code, params: error.refusal.params });
    }
  };

  // ---- queries for the REST routes ----

  /** Everyone the user may write to, with their presence; online first, then by name. */
  async contacts(userId: string): Promise<ChatContact[]> {
    const me = await this.user(userId);
    if (!me) return [];
    return [...this.users.values()]
      .filter((other) => mayChat(me, other))
      .map((other) => ({
        userId: other.id,
        username: other.username,
        name: other.name,
        roles: [...other.roles],
        agencyId: other.agencyId,
        online: this.presence.isOnline(other.id),
      }))
      .sort((a, b) => Number(b.online) - Number(a.online) || a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId));
  }

  /** The user's conversations with partners they may still write to, latest first. */
  async conversations(userId: string): Promise<ChatConversation[]> {
    const me = await this.user(userId);
    if (!me) return [];
    const stored = await this.store.chat.conversations(userId);
    return stored
      .filter((conversation) => {
        const partner = this.users.get(conversation.partnerId);
        return partner !== undefined && mayChat(me, partner);
      })
      .map((conversation) => ({ with: conversation.partnerId, lastMessage: conversation.lastMessage, unread: conversation.unread }));
  }

  async history(userId: string, partnerId: string, options: { before?: string | undefined; limit?: number | undefined }): Promise<{ messages: ChatMessage[]; hasMore: boolean }> {
    await this.requirePartner(userId, partnerId);
    return this.store.chat.history(userId, partnerId, { beforeId: options.before, limit: options.limit ?? CHAT_PAGE_SIZE });
  }

  /** Marks the partner's messages read up to `upTo` (default: the latest); tells the user's tabs and the partner. */
  async markRead(userId: string, partnerId: string, upTo?: string): Promise<string | null> {
    await this.requirePartner(userId, partnerId);
    const latest = await this.store.chat.latestFrom(partnerId, userId);
    if (latest === null) return null;
    // A mark beyond the partner's latest message would hide messages not yet written.
    const target = upTo !== undefined && BigInt(upTo) < BigInt(latest) ? upTo : latest;
    const kept = await this.store.chat.markRead(userId, partnerId, target);
    const event: ChatEvent = { type: 'read', reader: userId, partner: partnerId, upTo: kept };
    this.push(userId, event);
    this.push(partnerId, event);
    return kept;
  }

  // ---- internals ----

  private async send(senderId: string, raw: string): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new SendRefusal('', apiError('REQUEST_MALFORMED_JSON'));
    }
    const clientId = typeof (body as { clientId?: unknown })?.clientId === 'string' ? (body as { clientId: string }).clientId : '';
    const parsed = chatOutgoingSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      if (issue.path[0] === 'text') throw new SendRefusal(clientId, apiError('CHAT_MESSAGE_INVALID', { maxLength: CHAT_MAX_LENGTH }));
      const field = issue.code === 'unrecognized_keys' ? issue.keys.join(',') : issue.path.join('.') || 'body';
      throw new SendRefusal(clientId, apiError('REQUEST_INVALID', { field, issue: issue.code }));
    }
    const { to, clientId: id } = parsed.data;
    const text = normalizeChatText(parsed.data.text);
    if (text.trim() === '' || chatTextLength(text) > CHAT_MAX_LENGTH) {
      throw new SendRefusal(id, apiError('CHAT_MESSAGE_INVALID', { maxLength: CHAT_MAX_LENGTH }));
    }
    // Counted from here: a well-formed send costs a directory look-up and a write, whoever it is for.
    const limit = this.limiter.take(senderId);
    if (!limit.allowed) throw new SendRefusal(id, apiError('CHAT_RATE_LIMITED', { retryAfterSeconds: limit.retryAfterSeconds }));
    const [sender, recipient] = await Promise.all([this.user(senderId), this.user(to)]);
    if (!sender || !recipient || !mayChat(sender, recipient)) throw new SendRefusal(id, apiError('CHAT_RECIPIENT_UNKNOWN', { recipient: to }));

    const { message, duplicate } = await this.store.chat.insert({ from: senderId, to, text, clientId: id, at: new Date(this.options.now()) });
    // A resend of a stored message (after a reconnect) goes back to the sender only: the recipient had it.
    if (!duplicate) this.push(to, { type: 'message', message });
    this.push(senderId, { type: 'message', message, clientId: id });
  }

  private push(userId: string, event: ChatEvent): void {
    this.gateway?.sendToUser(userId, destinations.chat, event);
  }

  /** Tells every online user who may chat with `userId` about its new state. */
  private announcePresence(userId: string, online: boolean): void {
    const subject = this.users.get(userId);
    if (!subject) return;
    for (const otherId of this.presence.onlineUsers()) {
      const other = this.users.get(otherId);
      if (other && mayChat(subject, other)) this.push(otherId, { type: 'presence', userId, online });
    }
  }

  /** A user by id; an unknown id reads the directory again (a user added since), at most every 10 s. */
  private async user(userId: string): Promise<ChatUser | undefined> {
    if (!this.users.has(userId) && this.options.now() - this.loadedAt > 10_000) await this.load();
    return this.users.get(userId);
  }

  private async requirePartner(userId: string, partnerId: string): Promise<void> {
    const [me, partner] = await Promise.all([this.user(userId), this.user(partnerId)]);
    if (!me || !partner || !mayChat(me, partner)) throw new ExchangeError(apiError('CHAT_RECIPIENT_UNKNOWN', { recipient: partnerId }));
  }
}
