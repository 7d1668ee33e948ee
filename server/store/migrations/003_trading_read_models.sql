-- Read models that follow the engine's events (the journal is the source of truth).
create table orders (
  order_id bigint primary key,
  asset_id text not null,
  client_code text not null,
  status text not null,
  data jsonb not null,
  updated_at timestamptz not null
);
create index orders_client on orders(client_code, updated_at desc);

create table transactions (
  transaction_id bigint primary key,
  asset_id text not null,
  buyer text not null,
  seller text not null,
  data jsonb not null,
  ts timestamptz not null
);
create index transactions_asset on transactions(asset_id, ts desc);
create index transactions_buyer on transactions(buyer, ts desc);
create index transactions_seller on transactions(seller, ts desc);

create table session_stats (
  asset_id text not null,
  session_date text not null,
  data jsonb not null,
  primary key (asset_id, session_date)
);

-- The last journal sequence whose events are in the read models; a restart re-projects what follows.
create table projection_watermark (
  name text primary key,
  journal_seq bigint not null
);
