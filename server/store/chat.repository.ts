import type { ChatMessage } from '../../protocol/market-data.ts';
import type { Queryable } from './database.ts';

interface MessageRow {
  id: string;
  sender_id: string;
  recipient_id: string;
  text: string;
  sent_at: Date | string;
}

const messageColumns = 'id::text as id, sender_id, recipient_id, text, sent_at';

function toMessage(row: MessageRow): ChatMessage {
  return { id: row.id, from: row.sender_id, to: row.recipient_id, text: row.text, at: new Date(row.sent_at).toISOString() };
}

export interface StoredConversation {
  partnerId: string;
  lastMessage: ChatMessage;
  unread: number;
}

/**
 * Chat messages and read marks. Message ids are the table's sequence (as decimal strings on the
 * wire), so "older than" is "smaller id" in every query.
 */
export class ChatRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Stores a message; a second insert with the same (sender, clientId) stores nothing and returns
   * the first one, flagged `duplicate`, so a resend after a reconnect is delivered, not doubled.
   */
  async insert(input: { from: string; to: string; text: string; clientId: string; at: Date }): Promise<{ message: ChatMessage; duplicate: boolean }> {
    const inserted = await this.db.query<MessageRow>(
      `insert into chat_messages (sender_id, recipient_id, text, client_id, sent_at) values ($1, $2, $3, $4, $5)
       on conflict (sender_id, client_id) do nothing
       returning ${messageColumns}`,
      [input.from, input.to, input.text, input.clientId, input.at.toISOString()],
    );
    if (inserted[0]) return { message: toMessage(inserted[0]), duplicate: false };
    const existing = await this.db.query<MessageRow>(`select ${messageColumns} from chat_messages where sender_id = $1 and client_id = $2`, [
      input.from,
      input.clientId,
    ]);
    return { message: toMessage(existing[0]!), duplicate: true };
  }

  /** The conversation of two users, oldest first: the `limit` messages before `beforeId` (or the latest). */
  async history(userId: string, partnerId: string, options: { beforeId?: string; limit: number }): Promise<{ messages: ChatMessage[]; hasMore: boolean }> {
    const [low, high] = userId < partnerId ? [userId, partnerId] : [partnerId, userId];
    const rows = await this.db.query<MessageRow>(
      `select ${messageColumns} from chat_messages
       where least(sender_id, recipient_id) = $1 and greatest(sender_id, recipient_id) = $2 and ($3::bigint is null or chat_messages.id < $3::bigint)
       order by chat_messages.id desc limit $4`,
      [low, high, options.beforeId ?? null, options.limit + 1],
    );
    const hasMore = rows.length > options.limit;
    return { messages: rows.slice(0, options.limit).reverse().map(toMessage), hasMore };
  }

  /** Per partner: the latest message either way and the partner's messages after the user's read mark; latest first. */
  async conversations(userId: string): Promise<StoredConversation[]> {
    const rows = await this.db.query<MessageRow & { partner_id: string; unread: string | number }>(
      `with latest as (
         select distinct on (mine.partner_id) mine.id::text as id, mine.sender_id, mine.recipient_id, mine.text, mine.sent_at, mine.id as seq, mine.partner_id
         from (select m.*, case when m.sender_id = $1 then m.recipient_id else m.sender_id end as partner_id
               from chat_messages m where m.sender_id = $1 or m.recipient_id = $1) mine
         order by mine.partner_id, mine.id desc
       )
       select latest.id, latest.sender_id, latest.recipient_id, latest.text, latest.sent_at, latest.partner_id,
         (select count(*) from chat_messages u
           where u.recipient_id = $1 and u.sender_id = latest.partner_id
             and u.id > coalesce((select r.last_read_id from chat_reads r where r.user_id = $1 and r.partner_id = latest.partner_id), 0)) as unread
       from latest order by latest.seq desc`,
      [userId],
    );
    return rows.map((row) => ({ partnerId: row.partner_id, lastMessage: toMessage(row), unread: Number(row.unread) }));
  }

  /** The newest message the partner sent to the user (the default read mark); null when none. */
  async latestFrom(partnerId: string, userId: string): Promise<string | null> {
    const rows = await this.db.query<{ id: string | null }>('select max(id)::text as id from chat_messages where sender_id = $1 and recipient_id = $2', [
      partnerId,
      userId,
    ]);
    return rows[0]?.id ?? null;
  }

  /** Moves the user's read mark forward (never back); returns the mark now kept. */
  async markRead(userId: string, partnerId: string, upTo: string): Promise<string> {
    const rows = await this.db.query<{ last_read_id: string }>(
      `insert into chat_reads (user_id, partner_id, last_read_id) values ($1, $2, $3::bigint)
       on conflict (user_id, partner_id) do update set last_read_id = greatest(chat_reads.last_read_id, excluded.last_read_id)
       returning last_read_id::text as last_read_id`,
      [userId, partnerId, upTo],
    );
    return rows[0]!.last_read_id;
  }
}
