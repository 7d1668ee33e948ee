-- The clearing house's settlement side (issue 14): settlement terms per asset, daily and final settlement
-- prices, settlement runs and what they write (positions, notes, obligations, bank commissions, batches),
-- transaction reports. Money in currency minor units (2 decimals); prices and quantities in the asset's.
alter table clients add column fiscal_code text not null default '';

-- Clearing terms of an asset: margins, fee, closing window, physical delivery.
create table asset_clearing_terms (
  asset_id text primary key references assets(id),
  initial_margin_bps integer not null default 0,
  delivery_margin_bps integer not null default 0,
  -- The exchange fee per whole quantity unit (per MWh), in currency minor units, charged to each side.
  fee_per_unit bigint not null default 0,
  closing_window_minutes integer not null default 30,
  physical boolean not null default true,
  -- First and last delivery day of a forward (null: spot, delivered the day after the session).
  delivery_start text,
  delivery_end text,
  -- Last session date of a forward: the final settlement price is fixed then.
  expiry_date text
);

create table daily_settlement_prices (
  id text primary key,
  asset_id text not null references assets(id),
  session_date text not null,
  price_from_transactions bigint,
  price_from_orders bigint,
  value bigint,
  previous_value bigint,
  override_price bigint,
  override_reason text,
  overridden_by text,
  source text not null,
  computed_at timestamptz not null,
  unique (asset_id, session_date)
);

create table final_settlement_prices (
  id text primary key,
  asset_id text not null unique references assets(id),
  session_date text not null,
  final_settlement_price bigint not null,
  daily_settlement_price bigint,
  consultation_price bigint,
  price_from_liquidation bigint,
  computed_at timestamptz not null
);

-- One run per market and session date. A run writes everything in one transaction and marks itself
-- completed in the same one, so a crash leaves either nothing or all of it.
create table settlement_runs (
  id text primary key,
  market_id text not null references markets(id),
  session_date text not null,
  status text not null,
  started_at timestamptz not null,
  completed_at timestamptz,
  clients integer not null default 0,
  result_hash text,
  unique (market_id, session_date)
);

-- The position each client carries out of a settled session, per asset (+ long, − short).
create table settlement_positions (
  client_code text not null,
  asset_id text not null,
  session_date text not null,
  qty bigint not null,
  settlement_run_id text not null references settlement_runs(id),
  primary key (client_code, asset_id, session_date)
);

create table daily_settlement_notes (
  id text primary key,
  settlement_run_id text not null references settlement_runs(id),
  client_code text not null,
  market_id text not null,
  session_date text not null,
  data jsonb not null,
  created_at timestamptz not null,
  unique (client_code, market_id, session_date)
);
create index daily_settlement_notes_client on daily_settlement_notes(client_code, session_date desc);

create table payment_obligations (
  id text primary key,
  settlement_run_id text not null references settlement_runs(id),
  client_code text not null,
  market_id text not null,
  session_date text not null,
  kind text not null,
  transaction_id text,
  direction text not null check (direction in ('pay', 'receive')),
  amount bigint not null check (amount >= 0),
  currency text not null,
  due_date text not null,
  status text not null check (status in ('unpaid', 'paid', 'cashed')),
  settled_at timestamptz,
  settled_by text,
  reference text
);
create index payment_obligations_client on payment_obligations(client_code, status, due_date);

create table bank_commissions (
  id text primary key,
  settlement_run_id text references settlement_runs(id),
  client_code text not null,
  date text not null,
  info text not null,
  commission bigint not null check (commission >= 0),
  currency text not null
);
create index bank_commissions_client on bank_commissions(client_code, date desc);

create table clearing_batches (
  id text not null,
  transaction_id text not null,
  settlement_run_id text references settlement_runs(id),
  reported_at timestamptz not null,
  single_piece_amount bigint not null,
  asset_id text not null,
  pieces bigint not null,
  pieces_cnt integer not null,
  primary key (id, transaction_id)
);

create table transaction_reports (
  id text primary key,
  client_code text not null,
  session_date text not null,
  title text not null,
  created_at timestamptz not null,
  unique (client_code, session_date)
);
