import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Store tests run on PGlite always and on PostgreSQL when TEST_DATABASE_URL is set.
 * Each PostgreSQL test gets its own schema (via search_path), dropped afterwards.
 */
export interface TestDatabase {
  name: 'pglite' | 'postgres';
  /** Options for openStore / startExchangeServer. */
  create(): Promise<{ dataDir: string | undefined; databaseUrl: string | undefined; drop(): Promise<void> }>;
}

export const testDatabases: TestDatabase[] = [
  {
    name: 'pglite',
    async create() {
      return { dataDir: undefined, databaseUrl: undefined, async drop() {} };
    },
  },
];

const postgresUrl = process.env.TEST_DATABASE_URL;
if (postgresUrl) {
  testDatabases.push({
    name: 'postgres',
    async create() {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      const url = new URL(postgresUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return {
        dataDir: undefined,
        databaseUrl: url.toString(),
        async drop() {
          const client = new pg.Client({ connectionString: postgresUrl });
          await client.connect();
          await client.query(`drop schema ${schema} cascade`);
          await client.end();
        },
      };
    },
  });
}
