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

/** The first retry of an entry the store refused waits this long; each further one twice as long, up to AUDIT_RETRY_MAX_MS. */
export const AUDIT_RETRY_FIRST_MS = 250;
export const AUDIT_RETRY_MAX_MS = 5_000;

/** The audit trail in the store (migration 013): append-only, read newest first. */
export class AuditLog implements AuditRecorder {
  private readonly coalescing: CoalescingRecorder;
  /** Entries the store did not take yet, oldest first, each with the time it happened. */
  private readonly backlog: Array<{ entry: AuditRecord; at: string }> = [];
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private stopped = false;
  private drained: { promise: Promise<void>; resolve: () => void } | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number = Date.now,
    limits?: CoalescingLimits,
    private readonly onWriteError: (error: Error, waiting: number) => void = (error, waiting) =>
      console.error(`Audit trail not written (${waiting} entries waiting, retried): ${error.message}`),
  ) {
    this.coalescing = new CoalescingRecorder((entry) => this.record(entry), now, limits);
  }

  /**
   * Stores the entry, stamped with the time it happened. When the store refuses it (the database is
   * away), the entry waits in memory and is written, in order, by retries with backoff: the action it
   * records has happened, so its answer stands (an operator told 500 would repeat it), and the trail
   * loses nothing while the process lives. Resolves once the entry is stored or waiting.
   */
  async record(entry: AuditRecord): Promise<void> {
    const at = entry.at ?? new Date(this.now()).toISOString();
    if (this.backlog.length === 0) {
      try {
        await insertAudit(this.db, entry, at);
        return;
      } catch (error) {
        this.failures++;
        this.onWriteError(error as Error, 1);
      }
    }
    this.backlog.push({ entry, at });
    this.scheduleRetry();
  }

  /** Entries waiting for the store. */
  get waiting(): number {
    return this.backlog.length;
  }

  /** Resolves once no entry is waiting for the store. */
  async written(): Promise<void> {
    if (this.backlog.length === 0) return;
    if (!this.drained) {
      let resolve!: () => void;
      this.drained = { promise: new Promise<void>((done) => (resolve = done)), resolve };
    }
    await this.drained.promise;
  }

  private scheduleRetry(): void {
    if (this.retryTimer !== null || this.stopped) return;
    const delay = Math.min(AUDIT_RETRY_MAX_MS, AUDIT_RETRY_FIRST_MS * 2 ** Math.max(0, this.failures - 1));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.writeBacklog();
    }, delay);
    this.retryTimer.unref();
  }

  private async writeBacklog(): Promise<void> {
    while (this.backlog.length > 0) {
      const { entry, at } = this.backlog[0]!;
      try {
        await insertAudit(this.db, entry, at);
      } catch (error) {
        this.failures++;
        this.onWriteError(error as Error, this.backlog.length);
        this.scheduleRetry();
        return;
      }
      this.backlog.shift();
    }
    this.failures = 0;
    this.drained?.resolve();
    this.drained = null;
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

  /** Flushes, stops the minute timer, and tries once more to write what waits for the store. */
  async close(): Promise<void> {
    this.coalescing.stop();
    await this.coalescing.flush();
    this.stopped = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.writeBacklog();
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
