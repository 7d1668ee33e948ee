-- Post-trade workflows (issue 15): one row per instance of a workflow machine (machines/workflows/),
-- its transitions, the idempotency of requests, contract files and whitelist relations.
create table workflow_instances (
  id text primary key,
  kind text not null check (kind in ('otc', 'transfer', 'marginActivation', 'contract', 'whitelist')),
  status text not null,
  -- The machine's persisted state: { value, context }.
  machine_state jsonb not null,
  initiator_client text not null references clients(code),
  partner_client text not null references clients(code),
  transaction_id text,
  -- After this instant the system ends the instance (a timer that survives restarts: it is a row).
  limit_at timestamptz,
  waiting_on text not null,
  -- Raised by each transition; an update names the version it read (optimistic concurrency).
  version integer not null,
  reason jsonb,
  data jsonb not null,
  created_by text not null references users(id),
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index workflow_instances_kind on workflow_instances(kind, updated_at desc);
create index workflow_instances_initiator on workflow_instances(initiator_client, updated_at desc);
create index workflow_instances_partner on workflow_instances(partner_client, updated_at desc);
create index workflow_instances_waiting on workflow_instances(waiting_on, updated_at desc);
create index workflow_instances_timers on workflow_instances(limit_at) where limit_at is not null;
-- One contract and one margin activation per transaction; one transfer of a transaction in flight.
create unique index workflow_contract_per_transaction on workflow_instances(transaction_id) where kind = 'contract';
create unique index workflow_margin_activation_per_transaction on workflow_instances(transaction_id) where kind = 'marginActivation';
create unique index workflow_transfer_in_flight on workflow_instances(transaction_id)
  where kind = 'transfer' and status in ('awaitingPartnerAccept', 'awaitingAdminApproval');
-- One pending whitelist request per client and partner.
create unique index workflow_whitelist_pending on workflow_instances(initiator_client, partner_client)
  where kind = 'whitelist' and status = 'PENDING';

create table workflow_events (
  instance_id text not null references workflow_instances(id),
  seq integer not null,
  action text not null,
  actor_user_id text references users(id),
  actor_role text,
  from_status text,
  to_status text not null,
  reason jsonb,
  at timestamptz not null,
  primary key (instance_id, seq)
);

-- A retried POST with the same Idempotency-Key gets the first answer; another body under it is refused.
create table workflow_requests (
  user_id text not null references users(id),
  idempotency_key text not null,
  body_hash text not null,
  status integer not null,
  response jsonb not null,
  created_at timestamptz not null,
  primary key (user_id, idempotency_key)
);

create table transaction_contract_files (
  instance_id text primary key references workflow_instances(id),
  file_name text not null,
  size integer not null,
  sha256 text not null,
  content bytea not null,
  uploaded_by text not null references users(id),
  uploaded_at timestamptz not null
);

-- Stored once per direction, so "the partners of client X" is one index range.
create table whitelist_relations (
  client_code text not null references clients(code),
  partner_code text not null references clients(code),
  status text not null check (status in ('PENDING', 'ACTIVE', 'DISABLED')),
  request_id text references workflow_instances(id),
  updated_at timestamptz not null,
  primary key (client_code, partner_code)
);
