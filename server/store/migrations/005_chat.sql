-- Chat between market participants: every message kept, read marks per user and partner.
create table if not exists chat_messages (
  id bigserial primary key,
  sender_id text not null references users(id),
  recipient_id text not null references users(id),
  text text not null,
  -- The sender's own id of the message: a resend after a reconnect is stored once.
  client_id text not null,
  sent_at timestamptz not null
);

create unique index if not exists chat_messages_client_idx on chat_messages (sender_id, client_id);

-- One conversation's history, newest first, whichever side wrote.
create index if not exists chat_messages_pair_idx on chat_messages (least(sender_id, recipient_id), greatest(sender_id, recipient_id), id desc);

-- Unread counts: a partner's messages to the user after the read mark.
create index if not exists chat_messages_inbox_idx on chat_messages (recipient_id, sender_id, id);

create table if not exists chat_reads (
  user_id text not null references users(id),
  partner_id text not null references users(id),
  last_read_id bigint not null,
  primary key (user_id, partner_id)
);
