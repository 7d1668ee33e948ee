-- Order history (docs/orders-and-notifications.md). The orders read model now keeps every order's
-- latest state, live ones too, with the columns the history filters use.
alter table orders add column way text;
alter table orders add column session_date text;
update orders set way = data->>'way', session_date = data->>'sessionDate';
create index orders_client_session on orders(client_code, session_date);

-- Every order event, in journal order: (journal record, index of the event in that record's events).
-- The key makes a re-projection after a crash insert nothing twice.
create table order_events (
  journal_seq bigint not null,
  event_index integer not null,
  order_id bigint not null,
  client_code text not null,
  kind text not null,
  at timestamptz not null,
  data jsonb not null,
  primary key (journal_seq, event_index)
);
create index order_events_order on order_events(order_id, journal_seq, event_index);

-- Re-project the journal from its start so orders placed before this migration get their history
-- (inserts are idempotent; records already folded into a journal snapshot cannot come back).
update projection_watermark set journal_seq = 0 where name = 'trading';
