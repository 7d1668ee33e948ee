import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../server/store/store.ts';
import { prng } from '../../helpers/prng.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { loadCrashFixture } from './settlement-crash-fixture.ts';

const CHILD = join(import.meta.dirname, 'settlement-crash-child.ts');
const KILLS = 20;
/** Steps of one run (settlement-run.ts and writeRun): kills land in the first pending run, now and then just after its commit or in the next. */
const KILL_STEPS = 14;
/** Kill sequences side by side, each on its own copy (a PGlite child spends most of its life opening the database). */
const LANES = 2;

/** Runs the child; resolves with its "done <hash>" line, or 'killed'. */
function runChild(target: string, killAt: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, target, String(killAt)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve('killed');
      else if (code === 0 && out.startsWith('done ')) resolve(out.trim());
      else reject(new Error(`child exited ${code} ${signal}: ${err}`));
    });
  });
}

/** LANES + 1 databases holding the fixture: one to run uninterrupted, one per kill sequence. */
async function prepare(database: (typeof testDatabases)[number], cleanups: Array<() => Promise<void>>): Promise<string[]> {
  if (database.name === 'pglite') {
    const root = mkdtempSync(join(tmpdir(), 'settlement-crash-'));
    cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
    const store = await openStore({ dataDir: join(root, 'prepared') });
    await loadCrashFixture(store);
    await store.close();
    return Array.from({ length: LANES + 1 }, (_, index) => {
      cpSync(join(root, 'prepared'), join(root, `copy-${index}`), { recursive: true });
      return join(root, `copy-${index}`);
    });
  }
  const targets: string[] = [];
  for (let index = 0; index <= LANES; index++) {
    const created = await database.create();
    cleanups.push(created.drop);
    const store = await openStore({ databaseUrl: created.databaseUrl });
    await loadCrashFixture(store);
    await store.close();
    targets.push(created.databaseUrl!);
  }
  return targets;
}

describe.each(testDatabases)('a settlement killed at random points ends as an uninterrupted one ($name)', (database) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it(`survives ${KILLS} SIGKILLs`, async () => {
    const [uninterrupted, ...lanes] = await prepare(database, cleanups);
    const killLane = async (target: string, lane: number): Promise<string> => {
      const random = prng(20261127 + lane);
      for (let kills = 0; kills < KILLS / LANES; kills++) {
        // A kill step past what was left would let the child finish: with this few steps it never is.
        expect(await runChild(target, 1 + Math.floor(random() * KILL_STEPS))).toBe('killed');
      }
      return runChild(target, 0);
    };
    const [reference, ...restarted] = await Promise.all([runChild(uninterrupted!, 0), ...lanes.map(killLane)]);
    expect(reference).toMatch(/^done [0-9a-f]{64}$/);
    expect(restarted).toEqual(lanes.map(() => reference));
  }, 180_000);
});
