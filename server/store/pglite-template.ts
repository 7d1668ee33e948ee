import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadMigrations, migrate } from './migrations.ts';
import { openPgliteThread } from './pglite-thread.ts';

/**
 * A migrated, empty PGlite database as a tar file, for in-memory stores to start from (openStore's
 * `template`): PGlite's initdb costs 2-4 s of CPU per database, and the test suite opens hundreds.
 * The file is named by a hash of the migrations and PGlite's version, so a changed migration or a
 * new PGlite makes a new one; made once, it is reused by every process (written aside and renamed).
 */
export async function ensurePgliteTemplate(dir = tmpdir()): Promise<string> {
  const pgliteVersion = (JSON.parse(readFileSync(join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')) as { version: string }).version;
  const hash = createHash('sha256').update(pgliteVersion);
  for (const migration of loadMigrations()) hash.update(`\0${migration.version}\0${migration.sql}`);
  const file = join(dir, `energy-exchange-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
  if (existsSync(file)) return file;
  const db = await openPgliteThread(undefined);
  try {
    await migrate(db);
    await db.dumpTo(file);
  } finally {
    await db.close();
  }
  return file;
}
