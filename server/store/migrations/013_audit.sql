-- The audit trail (issue 16): operator actions, workflow actions and security events. Append-only.
create table audit_events (
  id bigserial primary key,
  at timestamptz not null,
  category text not null check (category in ('operator', 'workflow', 'security')),
  action text not null,
  actor_user_id text,
  actor_role text,
  subject text not null,
  outcome text not null check (outcome in ('ok', 'refused')),
  code text,
  remote_address text,
  details jsonb not null default '{}'::jsonb
);
create index audit_events_at on audit_events (at);
create index audit_events_category_at on audit_events (category, at);
