-- The clearing house's collateral side (issue 14): warranties, the restrictions clearing places on a
-- client (imbalance, tradeable quantity), nominations of physical transactions, and the figures last
-- sent to the engine. Money in currency minor units (2 decimals); quantities in the asset's.
create table warranties (
  id text primary key,
  client_code text not null references clients(code),
  warranty_number text not null,
  warranty_name text not null,
  kind text not null,
  deposit_date text not null,
  validity_date text not null,
  value bigint not null check (value > 0),
  currency text not null,
  released_at timestamptz,
  released_by text,
  -- The validity date the five-day notice was sent for (a changed date notifies again).
  notified_for text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (client_code, warranty_number)
);
create index warranties_client on warranties(client_code, validity_date);

-- Per client and asset ('*' = every asset): an imbalance restriction (one way, within a quantity) and
-- tradeable quantities per way; null = none.
create table client_financial_restrictions (
  client_code text not null references clients(code),
  asset_id text not null,
  imbalance_way text check (imbalance_way in ('bid', 'ask')),
  imbalance_qty bigint,
  tradeable_bid bigint,
  tradeable_ask bigint,
  primary key (client_code, asset_id)
);

create table nominations (
  id text primary key,
  transaction_id text not null,
  client_code text not null,
  asset_id text not null,
  way text not null check (way in ('bid', 'ask')),
  delivery_day text not null,
  contracted_qty bigint not null,
  nominated_qty bigint not null,
  deadline timestamptz not null,
  updated_at timestamptz not null,
  updated_by text,
  unique (transaction_id, client_code, delivery_day)
);
create index nominations_client on nominations(client_code, delivery_day);

-- The funds figure clearing last set in the engine per client (through a journaled upsertClient).
create table clearing_engine_funds (
  client_code text primary key,
  funds bigint not null,
  set_at timestamptz not null
);
