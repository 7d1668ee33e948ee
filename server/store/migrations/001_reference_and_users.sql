-- Reference data of the exchange and its users.
create table markets (
  id text primary key,
  name text not null,
  commodity text not null check (commodity in ('gas', 'electricity')),
  kind text not null,
  workspace_type text not null,
  currency text not null
);

create table rings (
  id text primary key,
  market_id text not null references markets(id),
  name text not null
);

-- Prices and quantities in the spec are integers in the asset's minor units.
create table assets (
  id text primary key,
  market_id text not null references markets(id),
  ring_id text references rings(id),
  code text not null unique,
  name text not null,
  spec jsonb not null
);

create table agencies (
  id text primary key,
  name text not null
);

create table brokers (
  id text primary key,
  agency_id text not null references agencies(id),
  name text not null
);

create table terminals (
  id text primary key,
  broker_id text not null references brokers(id),
  name text not null
);

create table clients (
  id text primary key,
  code text not null unique,
  name text not null,
  acer_code text not null,
  agency_id text not null references agencies(id),
  active boolean not null default true
);

create table users (
  id text primary key,
  username text not null unique,
  name text not null,
  roles jsonb not null,
  scopes jsonb not null,
  broker_id text references brokers(id),
  agency_id text references agencies(id),
  terminal_id text references terminals(id),
  client_codes jsonb not null,
  market_ids jsonb not null,
  password_hash text not null,
  password_changed_at timestamptz not null,
  totp_secret text not null,
  -- The last TOTP time step accepted: a code (and any older one) is accepted once.
  last_totp_step bigint not null default 0,
  preferences jsonb not null
);

create table password_history (
  id bigserial primary key,
  user_id text not null references users(id),
  password_hash text not null,
  created_at timestamptz not null
);
create index password_history_user on password_history(user_id, created_at desc);

create table login_history (
  id bigserial primary key,
  user_id text not null references users(id),
  ip text not null,
  at timestamptz not null
);
create index login_history_user on login_history(user_id, at desc);

-- Server secrets (the token signing key) survive restarts so issued tokens stay valid.
create table server_secrets (
  name text primary key,
  value text not null
);
