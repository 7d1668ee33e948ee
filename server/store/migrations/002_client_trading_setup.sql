-- Per-client trading and clearing set-up the engine loads at start: funds and limits in currency minor
-- units (2 decimals), rights per asset ('*' = every asset) and side, restrictions.
create table client_trading_setup (
  client_code text primary key references clients(code),
  funds bigint not null,
  trading_limit bigint not null,
  max_contracts integer not null,
  restricted_ask boolean not null default false,
  gas_release_assets jsonb not null default '[]',
  rights jsonb not null default '{"*": {"bid": true, "ask": true}}'
);
