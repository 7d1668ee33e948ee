/**
 * Rows of workflow_instances / workflow_events / workflow_requests (migration 012) to and from the
 * protocol's WorkflowInstance, with its history. Every method takes the Queryable it runs on, so the
 * runner can use it inside its one database transaction (on PGlite every other query waits while a
 * transaction is open: never call `db.query` from inside one).
 *
 * Visibility (list and the runner's load): the administrator (and the system) see every instance; any
 * other user only the instances where one side's client is among its clientCodes
 * (machines/workflows/workflow-actor.ts `mayView`).
 */
import type { WorkflowEventRecord, WorkflowInstance, WorkflowKind, WorkflowListQuery, WorkflowReason } from '../../protocol/workflows.ts';
import type { StoredMachineState, WaitingOn } from '../../machines/workflows/workflow-definitions.ts';
import { mayView, type WorkflowActor } from '../../machines/workflows/workflow-actor.ts';
import type { Queryable } from '../store/database.ts';
import { endOfDayInBucharest } from '../trading/time.ts';

/** One row of workflow_instances as the runner reads and writes it. */
export interface WorkflowRow {
  id: string;
  kind: WorkflowKind;
  status: string;
  machineState: StoredMachineState;
  initiatorClient: string;
  partnerClient: string;
  transactionId: string | null;
  limitAt: string | null;
  waitingOn: WaitingOn;
  version: number;
  reason: WorkflowReason | null;
  data: Record<string, unknown>;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** One transition to store (seq is given by the repository). */
export interface WorkflowEventInput {
  action: string;
  actorUserId: string | null;
  actorRole: string | null;
  fromStatus: string | null;
  toStatus: string;
  reason: WorkflowReason | null;
  at: string;
}

/** A stored answer to a POST with an Idempotency-Key. */
export interface StoredRequest {
  bodyHash: string;
  status: number;
  response: unknown;
}

interface InstanceDbRow {
  id: string;
  kind: WorkflowKind;
  status: string;
  machine_state: StoredMachineState;
  initiator_client: string;
  partner_client: string;
  transaction_id: string | null;
  limit_at: Date | string | null;
  waiting_on: WaitingOn;
  version: number | string;
  reason: WorkflowReason | null;
  data: Record<string, unknown>;
  created_by: string;
  created_at: Date | string;
  updated_at: Date | string;
  initiator_name?: string | null;
  partner_name?: string | null;
}

interface EventDbRow {
  instance_id: string;
  seq: number | string;
  action: string;
  actor_user_id: string | null;
  actor_name: string | null;
  actor_role: string | null;
  from_status: string | null;
  to_status: string;
  reason: WorkflowReason | null;
  at: Date | string;
}

const iso = (value: Date | string): string => new Date(value).toISOString();
/** jsonb comes back parsed from pg and PGlite; a text column (older drivers) as a string. */
const json = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

function toRow(row: InstanceDbRow): WorkflowRow {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    machineState: json<StoredMachineState>(row.machine_state),
    initiatorClient: row.initiator_client,
    partnerClient: row.partner_client,
    transactionId: row.transaction_id,
    limitAt: row.limit_at === null ? null : iso(row.limit_at),
    waitingOn: row.waiting_on,
    version: Number(row.version),
    reason: json<WorkflowReason | null>(row.reason),
    data: json<Record<string, unknown>>(row.data),
    createdBy: row.created_by,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function toEvent(row: EventDbRow): WorkflowEventRecord {
  return {
    seq: Number(row.seq),
    action: row.action,
    actorUserId: row.actor_user_id,
    actorName: row.actor_name,
    actorRole: row.actor_role,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    reason: json<WorkflowReason | null>(row.reason),
    at: iso(row.at),
  };
}

/** May this actor see an instance with these sides? (The list's SQL says the same.) */
export function visibleTo(actor: WorkflowActor, row: Pick<WorkflowRow, 'initiatorClient' | 'partnerClient'>): boolean {
  return mayView(actor, { initiatorClient: row.initiatorClient, partnerClient: row.partnerClient });
}

const SELECT_INSTANCE = `select i.*, ic.name as initiator_name, pc.name as partner_name
  from workflow_instances i
  left join clients ic on ic.code = i.initiator_client
  left join clients pc on pc.code = i.partner_client`;

const EARLIEST = '1970-01-01';

/** The first instant of a Bucharest calendar day. */
function startOfBucharestDay(date: string): string {
  return new Date(endOfDayInBucharest(addDay(date, -1)) + 1).toISOString();
}

function addDay(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export class WorkflowRepository {
  /** The row, locked for the transaction's end (`for update`: a concurrent writer on PostgreSQL waits; PGlite has one connection). */
  async lock(tx: Queryable, id: string): Promise<WorkflowRow | null> {
    const rows = await tx.query<InstanceDbRow>('select * from workflow_instances where id = $1 for update', [id]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  async find(db: Queryable, id: string): Promise<WorkflowRow | null> {
    const rows = await db.query<InstanceDbRow>('select * from workflow_instances where id = $1', [id]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  async insert(tx: Queryable, row: WorkflowRow): Promise<void> {
    await tx.query(
      `insert into workflow_instances (id, kind, status, machine_state, initiator_client, partner_client, transaction_id, limit_at, waiting_on, version, reason, data, created_by, created_at, updated_at)
       values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)`,
      [
        row.id, row.kind, row.status, JSON.stringify(row.machineState), row.initiatorClient, row.partnerClient, row.transactionId, row.limitAt, row.waitingOn,
        row.version, row.reason === null ? null : JSON.stringify(row.reason), JSON.stringify(row.data), row.createdBy, row.createdAt, row.updatedAt,
      ],
    );
  }

  /** Writes a transition only over the version it read; false when another writer got there first. */
  async update(tx: Queryable, row: WorkflowRow, readVersion: number): Promise<boolean> {
    const rows = await tx.query<{ id: string }>(
      `update workflow_instances set status = $3, machine_state = $4, waiting_on = $5, version = $6, reason = $7, data = $8, limit_at = $9, transaction_id = $10, updated_at = $11
       where id = $1 and version = $2 returning id`,
      [
        row.id, readVersion, row.status, JSON.stringify(row.machineState), row.waitingOn, row.version, row.reason === null ? null : JSON.stringify(row.reason),
        JSON.stringify(row.data), row.limitAt, row.transactionId, row.updatedAt,
      ],
    );
    return rows.length === 1;
  }

  async insertEvent(tx: Queryable, instanceId: string, event: WorkflowEventInput): Promise<number> {
    const rows = await tx.query<{ seq: number | string }>(
      `insert into workflow_events (instance_id, seq, action, actor_user_id, actor_role, from_status, to_status, reason, at)
       select $1, coalesce(max(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8 from workflow_events where instance_id = $1
       returning seq`,
      [instanceId, event.action, event.actorUserId, event.actorRole, event.fromStatus, event.toStatus, event.reason === null ? null : JSON.stringify(event.reason), event.at],
    );
    return Number(rows[0]!.seq);
  }

  async history(db: Queryable, instanceIds: readonly string[]): Promise<Map<string, WorkflowEventRecord[]>> {
    const byInstance = new Map<string, WorkflowEventRecord[]>();
    if (instanceIds.length === 0) return byInstance;
    const rows = await db.query<EventDbRow>(
      `select e.*, u.name as actor_name from workflow_events e left join users u on u.id = e.actor_user_id
       where e.instance_id = any($1::text[]) order by e.instance_id, e.seq`,
      [instanceIds],
    );
    for (const row of rows) byInstance.set(row.instance_id, [...(byInstance.get(row.instance_id) ?? []), toEvent(row)]);
    return byInstance;
  }

  /** The instance as the protocol shows it, with its history and the clients' names. */
  async instance(db: Queryable, id: string): Promise<WorkflowInstance | null> {
    const rows = await db.query<InstanceDbRow>(`${SELECT_INSTANCE} where i.id = $1`, [id]);
    if (!rows[0]) return null;
    const history = await this.history(db, [id]);
    return toInstance(rows[0], history.get(id) ?? []);
  }

  /** The instances the actor may see, filtered by the query, newest change first. */
  async list(db: Queryable, query: WorkflowListQuery, actor: WorkflowActor, limit = 500): Promise<WorkflowInstance[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (actor.userId !== null && !actor.roles.includes('administrator')) {
      const codes = param([...actor.clientCodes]);
      where.push(`(i.initiator_client = any(${codes}::text[]) or i.partner_client = any(${codes}::text[]))`);
    }
    if (query.kind !== undefined) where.push(`i.kind = ${param(query.kind)}`);
    if (query.status !== undefined) where.push(`i.status = ${param(query.status)}`);
    if (query.clientCode !== undefined) {
      const code = param(query.clientCode);
      where.push(`(i.initiator_client = ${code} or i.partner_client = ${code})`);
    }
    if (query.awaiting !== undefined) where.push(`i.waiting_on = ${param(query.awaiting)}`);
    // Bounds as instants computed here: a date before 1970 (or year 0, which PostgreSQL has not) bounds nothing.
    if (query.from !== undefined && query.from >= EARLIEST) where.push(`i.created_at >= ${param(startOfBucharestDay(query.from))}::timestamptz`);
    if (query.to !== undefined && query.to >= EARLIEST) where.push(`i.created_at <= ${param(new Date(endOfDayInBucharest(query.to)).toISOString())}::timestamptz`);
    if (query.to !== undefined && query.to < EARLIEST) where.push('false');
    if (query.transactionId !== undefined) where.push(`i.transaction_id = ${param(query.transactionId)}`);
    const sql = `${SELECT_INSTANCE} ${where.length ? `where ${where.join(' and ')}` : ''} order by i.updated_at desc, i.id limit ${Math.max(1, Math.floor(limit))}`;
    const rows = await db.query<InstanceDbRow>(sql, params);
    const history = await this.history(db, rows.map((row) => row.id));
    return rows.map((row) => toInstance(row, history.get(row.id) ?? []));
  }

  /** Instances whose limit passed and that still wait on someone (the timers: rows, so they survive a restart). */
  async due(db: Queryable, at: string, limit = 100): Promise<Array<{ id: string; kind: WorkflowKind; version: number }>> {
    const rows = await db.query<{ id: string; kind: WorkflowKind; version: number | string }>(
      `select id, kind, version from workflow_instances where limit_at is not null and limit_at <= $1 and waiting_on <> 'none' order by limit_at, id limit $2`,
      [at, limit],
    );
    return rows.map((row) => ({ id: row.id, kind: row.kind, version: Number(row.version) }));
  }

  async storedRequest(db: Queryable, userId: string, key: string): Promise<StoredRequest | null> {
    const rows = await db.query<{ body_hash: string; status: number | string; response: unknown }>(
      'select body_hash, status, response from workflow_requests where user_id = $1 and idempotency_key = $2',
      [userId, key],
    );
    return rows[0] ? { bodyHash: rows[0].body_hash, status: Number(rows[0].status), response: json(rows[0].response) } : null;
  }

  /** Stores the first answer under a key; false when another request stored one first (the primary key). */
  async storeRequest(tx: Queryable, userId: string, key: string, request: StoredRequest, at: string): Promise<boolean> {
    const rows = await tx.query<{ user_id: string }>(
      `insert into workflow_requests (user_id, idempotency_key, body_hash, status, response, created_at) values ($1,$2,$3,$4,$5,$6)
       on conflict (user_id, idempotency_key) do nothing returning user_id`,
      [userId, key, request.bodyHash, request.status, JSON.stringify(request.response), at],
    );
    return rows.length === 1;
  }
}

function toInstance(row: InstanceDbRow, history: WorkflowEventRecord[]): WorkflowInstance {
  const r = toRow(row);
  return {
    kind: r.kind,
    status: r.status,
    data: r.data,
    instanceId: r.id,
    machineState: r.machineState,
    initiatorClient: r.initiatorClient,
    partnerClient: r.partnerClient,
    initiatorName: row.initiator_name ?? r.initiatorClient,
    partnerName: row.partner_name ?? r.partnerClient,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    limitAt: r.limitAt,
    version: r.version,
    reason: r.reason,
    waitingOn: r.waitingOn,
    history,
  } as WorkflowInstance;
}
