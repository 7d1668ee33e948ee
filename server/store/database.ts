import pg from 'pg';
import { apiError, ExchangeError } from '../../protocol/error-codes.ts';

/** The little the server needs from a SQL database; PGlite (pglite-thread.ts) and PostgreSQL both provide it. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

/** Rows for one table in COPY's text format: a line a row, a tab between columns, `\N` for null (copyText). */
export interface CopyLoad {
  table: string;
  /** The columns the lines hold, in order, as COPY's column list says them: `a, b, c`. */
  columns: string;
  text: string;
}

/** A statement and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * PGlite only: COPYs each load into its table, then runs the statements, all in one transaction
   * and one round trip to its thread. COPY is PGlite's cheapest way in for many rows: no protocol
   * message of parameters to encode, no JSON array to parse before the rows' own columns.
   */
  copyThenRun?(loads: CopyLoad[], statements: Statement[]): Promise<void>;
  /** Runs `work` in one transaction; rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** Node's network errors, and PostgreSQL's SQLSTATE classes 08 (connection exception) and 57P (shut down, cannot connect now). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND']);

/** True when `error` says the database could not be reached, not that the statement was wrong. */
export function isConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('08') || code.startsWith('57P'))) return true;
  // pg's own words when the socket ends under a query or a connect times out
  return typeof message === 'string' && /^Connection terminated|^timeout exceeded when trying to connect|^Client has encountered a connection error/.test(message);
}

/**
 * A database that cannot be reached is the catalogue's SERVICE_UNAVAILABLE (503): the caller may
 * retry, and the cause stays attached for the log. Any other error passes as it is.
 */
function unavailableIfUnreachable(error: unknown): never {
  if (isConnectionError(error)) throw Object.assign(new ExchangeError(apiError('SERVICE_UNAVAILABLE')), { cause: error });
  throw error;
}

export async function openPostgres(connectionString: string): Promise<Database> {
  // A connect that hangs (a dead host, a cut network) fails after 5 s instead of holding the request.
  const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client's network error must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  await pool.query('select 1');
  return {
    kind: 'postgres',
    async query<Row>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params).catch(unavailableIfUnreachable)).rows as Row[];
    },
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect().catch(unavailableIfUnreachable);
      let broken = false;
      try {
        await client.query('begin');
        const result = await work({ query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[] });
        await client.query('commit');
        return result;
      } catch (error) {
        broken = isConnectionError(error);
        if (!broken) await client.query('rollback').catch(() => {});
        return unavailableIfUnreachable(error);
      } finally {
        // A connection that broke is not given back to the pool: the next query opens a new one.
        client.release(broken);
      }
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async close() {
      await pool.end();
    },
  };
}
