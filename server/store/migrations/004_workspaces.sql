-- Personal workspaces (SPEC §3): a named set of assets and rings of one market, per user.
create table if not exists workspaces (
  id text primary key,
  user_id text not null,
  name text not null,
  type text not null,
  market_id text not null,
  asset_ids text not null,
  ring_ids text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index if not exists workspaces_user_idx on workspaces (user_id, created_at);
