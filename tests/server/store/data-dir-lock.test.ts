import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentOwner, DataDirInUseError, FOREIGN_STALE_MS, lockDataDir, LOCK_FILE, ownerAlive } from '../../../server/store/data-dir-lock.ts';

const CHILD = join(import.meta.dirname, 'lock-child.ts');
const dirs: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
  dirs.push(dir);
  return dir;
}

/** A lock child; resolves with its first line ("locked" or "refused ...") and the child. */
function lockChild(dir: string): { child: ChildProcessWithoutNullStreams; verdict: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], { stdio: 'pipe' });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const verdict = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`lock child exited with ${code} before a verdict: ${stderr}`)));
  });
  return { child, verdict };
}

function killed(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('data directory lock', () => {
  it('refuses a second holder while the first lives, and is free again once released', async () => {
    const dir = freshDir();
    const release = await lockDataDir(dir);
    const owner = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number };
    expect(owner.pid).toBe(process.pid);
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirInUseError);
    const other = lockChild(dir);
    expect(await other.verdict).toMatch(/^refused The data directory .* is in use by another exchange process \(pid \d+\)/);
    await release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const again = await lockDataDir(dir);
    await again();
  });

  it('takes over at once from an owner killed with SIGKILL', async () => {
    const dir = freshDir();
    const first = lockChild(dir);
    expect(await first.verdict).toBe('locked');
    await killed(first.child);
    // The dead owner's file is still there: nothing cleaned up after it.
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    const started = performance.now();
    const release = await lockDataDir(dir);
    const elapsed = performance.now() - started;
    console.log(`lock taken over from a SIGKILLed owner in ${elapsed.toFixed(1)} ms`);
    // proper-lockfile made this wait 10 s (the lock went stale only then)
    expect(elapsed).toBeLessThan(1000);
    await release();
  });

  it('tells a live owner from a reused pid or an earlier boot', async () => {
    const me = currentOwner();
    expect(ownerAlive(me, 0)).toBe(true);
    if (me.start !== null) expect(ownerAlive({ ...me, start: String(Number(me.start) + 1) }, 0)).toBe(false);
    if (me.boot !== null) expect(ownerAlive({ ...me, boot: '00000000-0000-0000-0000-000000000000' }, 0)).toBe(false);
    // A pid that runs no process (above the kernel's pid_max limit of 2^22).
    expect(ownerAlive({ ...me, pid: 2 ** 22 + 1 }, 0)).toBe(false);

    // A lock naming this very pid with another start time (a container restarted with the same pid): taken over.
    const dir = freshDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ ...me, start: me.start === null ? null : String(Number(me.start) + 1) }));
    if (me.start !== null) {
      const release = await lockDataDir(dir);
      await release();
    }
  });

  it('goes by the heartbeat for an owner on another host or in another pid namespace (its pid means nothing here)', async () => {
    const me = currentOwner();
    for (const foreign of [{ ...me, host: 'another-host' }, { ...me, pid: 2 ** 22 + 1, ns: 'pid:[1]' }]) {
      expect(ownerAlive(foreign, 0)).toBe(true);
      expect(ownerAlive(foreign, FOREIGN_STALE_MS - 1)).toBe(true);
      expect(ownerAlive(foreign, FOREIGN_STALE_MS)).toBe(false);
    }
    const dir = freshDir();
    const lock = join(dir, LOCK_FILE);
    writeFileSync(lock, JSON.stringify({ ...me, host: 'another-host' }));
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirInUseError);
    const old = (Date.now() - FOREIGN_STALE_MS - 1000) / 1000;
    utimesSync(lock, old, old);
    const release = await lockDataDir(dir);
    // The holder keeps its own lock fresh for such newcomers.
    utimesSync(lock, old, old);
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    expect(Date.now() - statSync(lock).mtimeMs).toBeLessThan(1_000);
    await release();
  });

  it('takes over an unreadable lock file and a takeover left half done', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, LOCK_FILE), 'not json');
    const takeover = join(dir, `${LOCK_FILE}.takeover`);
    mkdirSync(takeover);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(takeover, old, old);
    const release = await lockDataDir(dir);
    expect(existsSync(takeover)).toBe(false);
    await release();
  });

  it('gives up with a message on a lock that cannot be read (a directory of its name)', async () => {
    const dir = freshDir();
    mkdirSync(join(dir, LOCK_FILE));
    await expect(lockDataDir(dir)).rejects.toThrow(/exchange\.lock exists but cannot be read/);
  });

  it('refuses while a fresh lock of the older version is held, and clears a stale one', async () => {
    const dir = freshDir();
    mkdirSync(join(dir, '.lock'));
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirInUseError);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(join(dir, '.lock'), old, old);
    const release = await lockDataDir(dir);
    expect(existsSync(join(dir, '.lock'))).toBe(false);
    await release();
  });

  it('of processes racing for one directory, exactly one wins, also when they race to take over a dead owner', async () => {
    for (const withDeadOwner of [false, true, false, true]) {
      const dir = freshDir();
      if (withDeadOwner) {
        const dead = lockChild(dir);
        expect(await dead.verdict).toBe('locked');
        await killed(dead.child);
      }
      const racers = Array.from({ length: 5 }, () => lockChild(dir));
      const verdicts = await Promise.all(racers.map((racer) => racer.verdict));
      expect(verdicts.filter((verdict) => verdict === 'locked')).toHaveLength(1);
      expect(verdicts.filter((verdict) => verdict.startsWith('refused '))).toHaveLength(4);
      await Promise.all(racers.map((racer) => killed(racer.child)));
    }
  }, 60_000);

  it('makes the server exit 1 with the message and no stack trace when the directory is held', async () => {
    const dir = freshDir();
    const release = await lockDataDir(dir);
    try {
      const server = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../../server/main.ts')], {
        env: { ...process.env, DATA_DIR: dir, PORT: '0', SIMULATOR: 'false' },
        stdio: 'pipe',
      });
      children.push(server);
      let stderr = '';
      server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exitCode = await new Promise<number | null>((resolve) => server.on('exit', resolve));
      expect(exitCode).toBe(1);
      expect(stderr.trim()).toBe(`The data directory ${dir} is in use by another exchange process (pid ${process.pid}). Stop it, or set DATA_DIR to another folder.`);
    } finally {
      await release();
    }
  }, 30_000);
});
