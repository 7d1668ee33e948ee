import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The machine's PostgreSQL (trust auth); TEST_DATABASE_URL overrides it. */
export const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

export interface PostgresSchema {
  name: string;
  /** A connection string whose search_path is the schema; `port`: through 127.0.0.1:port instead (a proxy). */
  url(port?: number): string;
  /** One statement on a connection of its own, in the schema. */
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  drop(): Promise<void>;
}

async function onDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh schema of its own for one test, on the real PostgreSQL. */
export async function createPostgresSchema(): Promise<PostgresSchema> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await onDatabase((client) => client.query(`create schema ${name}`));
  return {
    name,
    url(port) {
      const url = new URL(postgresUrl);
      if (port !== undefined) url.host = `127.0.0.1:${port}`;
      url.searchParams.set('options', `-c search_path=${name}`);
      return url.toString();
    },
    query: <Row>(sql: string, params: unknown[] = []) =>
      onDatabase(async (client) => {
        await client.query(`set search_path = ${name}`);
        return (await client.query(sql, params)).rows as Row[];
      }),
    drop: () => onDatabase(async (client) => void (await client.query(`drop schema if exists ${name} cascade`))),
  };
}
