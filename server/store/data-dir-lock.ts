import { mkdirSync } from 'node:fs';
import lockfile from 'proper-lockfile';

/**
 * PGlite does not lock its data directory; two processes on one directory would corrupt it.
 * proper-lockfile keeps a lock directory whose mtime it refreshes, so a crashed holder's lock goes stale.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, { lockfilePath: `${dataDir}/.lock`, stale: 10_000, update: 2_000, realpath: false });
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') {
      throw new Error(`The data directory ${dataDir} is in use by another exchange process. Stop it, or set DATA_DIR to another folder.`, { cause: error });
    }
    throw error;
  }
}
