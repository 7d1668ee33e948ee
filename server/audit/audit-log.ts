import type { AuditEntry, AuditQuery, AuditRecord } from '../../protocol/audit.ts';
import type { Queryable } from '../store/database.ts';
import type { AuditRecorder } from './audit-recorder.ts';
import { CoalescingRecorder, type CoalescingLimits } from './coalescing-recorder.ts';

interface AuditRow {
  id: string | number;
  at: Date | string;
  category: AuditEntry['category'];
  action: AuditEntry['action'];
  actor_user_id: string | null;
  actor_role: string | null;
  subject: string;
  outcome: AuditEntry['outcome'];
  code: AuditEntry['code'];
  remote_address: string | null;
  details: AuditEntry['details'] | string;
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    category: row.category,
    action: row.action,
    actorUserId: row.actor_user_id,
    actorRole: row.actor_role,
    subject: row.subject,
    outcome: row.outcome,
    code: row.code,
    remoteAddress: row.remote_address,
    details: typeof row.details === 'string' ? (JSON.parse(row.details) as AuditEntry['details']) : row.details,
  };
}

/** Rows read per query when a whole trail is exported (GET /admin/audit.csv). */
const EXPORT_CHUNK = 500;

/** The audit trail in the store (migration 013): append-only, read newest first. */
export class AuditLog implements AuditRecorder {
  private readonly coalescing: CoalescingRecorder;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number = Date.now,
    limits?: CoalescingLimits,
  ) {
    this.coalescing = new CoalescingRecorder((entry) => this.record(entry), now, limits);
  }

  async record(entry: AuditRecord): Promise<void> {
    await insertAudit(this.db, entry, entry.at ?? new Date(this.now()).toISOString());
  }

  /**
   * A security event (failed sign-in, lockout, forbidden attempt, password change): returns at once,
   * nothing is awaited by the caller (sign-in keeps its timing), and floods are coalesced per minute
   * (coalescing-recorder.ts). Tests await idle() or flush().
   */
  note(entry: AuditRecord): void {
    this.coalescing.note(entry);
  }

  /** Writes the counts of the current minute (the server does it before it closes the store). */
  async flush(): Promise<void> {
    await this.coalescing.flush();
  }

  /** Resolves once every noted entry written so far is stored. */
  async idle(): Promise<void> {
    await this.coalescing.idle();
  }

  /** Flushes and stops the minute timer. */
  async close(): Promise<void> {
    this.coalescing.stop();
    await this.coalescing.flush();
  }

  /**
   * Every entry matching the query (offset and limit ignored), newest first, read EXPORT_CHUNK rows
   * at a time by id so a large trail never sits in memory whole.
   */
  async *all(query: AuditQuery): AsyncGenerator<AuditEntry[]> {
    const { where, params } = whereOf(query);
    let below: number | null = null;
    for (;;) {
      const bound: unknown[] = below === null ? params : [...params, below];
      const idClause: string = below === null ? '' : `${where ? ' and' : 'where'} id < $${params.length + 1}`;
      const rows: AuditRow[] = await this.db.query<AuditRow>(`select * from audit_events ${where}${idClause} order by id desc limit ${EXPORT_CHUNK}`, bound);
      if (rows.length === 0) return;
      const entries = rows.map(toEntry);
      yield entries;
      if (rows.length < EXPORT_CHUNK) return;
      below = entries[entries.length - 1]!.id;
    }
  }

  /** A page of entries matching the query, newest first, and how many match in all. */
  async query(query: AuditQuery): Promise<{ items: AuditEntry[]; total: number }> {
    const { where, params } = whereOf(query);
    const [count] = await this.db.query<{ total: string | number }>(`select count(*) as total from audit_events ${where}`, params);
    const rows = await this.db.query<AuditRow>(
      `select * from audit_events ${where} order by id desc limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, query.limit, query.offset],
    );
    return { items: rows.map(toEntry), total: Number(count?.total ?? 0) };
  }
}

/** Inserts one entry on any connection or transaction (a workflow action keeps its entry in its own transaction). */
export async function insertAudit(db: Queryable, entry: AuditRecord, at: string): Promise<void> {
  await db.query(
    `insert into audit_events (at, category, action, actor_user_id, actor_role, subject, outcome, code, remote_address, details)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [at, entry.category, entry.action, entry.actorUserId, entry.actorRole, entry.subject, entry.outcome, entry.code, entry.remoteAddress, JSON.stringify(entry.details)],
  );
}

/** Bucharest calendar dates as instants: the day starts at local midnight (EET/EEST). */
function bucharestMidnight(date: string): string {
  const probe = new Date(`${date}T12:00:00Z`);
  const local = new Date(probe.toLocaleString('en-US', { timeZone: 'Europe/Bucharest' }));
  const offsetMs = local.getTime() - new Date(probe.toLocaleString('en-US', { timeZone: 'UTC' })).getTime();
  return new Date(Date.parse(`${date}T00:00:00Z`) - offsetMs).toISOString();
}

function whereOf(query: AuditQuery): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    clauses.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (query.category) add('category = ?', query.category);
  if (query.action) add('action = ?', query.action);
  if (query.actorUserId) add('actor_user_id = ?', query.actorUserId);
  if (query.outcome) add('outcome = ?', query.outcome);
  if (query.q) add('(subject ilike ? or details::text ilike ?)', `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (query.from) add('at >= ?', bucharestMidnight(query.from));
  if (query.to) {
    const next = new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    add('at < ?', bucharestMidnight(next));
  }
  return { where: clauses.length ? `where ${clauses.join(' and ')}` : '', params };
}
