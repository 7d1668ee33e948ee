import { ChatRepository } from './chat.repository.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { openPostgres, type Database } from './database.ts';
import { openPgliteThread } from './pglite-thread.ts';
import { migrate } from './migrations.ts';
import { ReferenceRepository } from './reference.repository.ts';
import { TradingRepository } from './trading.repository.ts';
import { UsersRepository } from './users.repository.ts';

export interface Store {
  db: Database;
  users: UsersRepository;
  reference: ReferenceRepository;
  trading: TradingRepository;
  chat: ChatRepository;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; when absent, PGlite in `dataDir`. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; absent means in memory (tests only). */
  dataDir?: string | undefined;
  /**
   * A tar file of a migrated empty database (pglite-template.ts) that a new PGlite database (in memory, or
   * a data directory that holds none yet) starts from instead of initdb, which costs seconds of CPU.
   * Defaults to PGLITE_TEMPLATE, which only the test setup sets; a database that exists is opened as it is.
   */
  template?: string | undefined;
}

export async function openStore(options: StoreOptions): Promise<Store> {
  let unlock: (() => Promise<void>) | null = null;
  let db: Database;
  if (options.databaseUrl) {
    db = await openPostgres(options.databaseUrl);
  } else {
    if (options.dataDir) unlock = await lockDataDir(options.dataDir);
    try {
      db = await openPgliteThread(options.dataDir ? `${options.dataDir}/pglite` : undefined, options.template ?? process.env.PGLITE_TEMPLATE);
    } catch (error) {
      await unlock?.();
      throw error;
    }
  }
  await migrate(db);
  return {
    db,
    users: new UsersRepository(db),
    reference: new ReferenceRepository(db),
    trading: new TradingRepository(db),
    chat: new ChatRepository(db),
    async close() {
      await db.close();
      await unlock?.();
    },
  };
}
