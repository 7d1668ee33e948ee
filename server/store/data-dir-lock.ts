import { linkSync, mkdirSync, readFileSync, readlinkSync, rmdirSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * PGlite does not lock its data directory, and the journal must have one writer: two processes on one
 * directory would corrupt it. The lock is the file `exchange.lock` naming its owner (pid, boot and the
 * process's start time). It is created whole and atomically (written beside, then hard-linked: link
 * fails when the name exists), so exactly one of two racing processes gets it.
 *
 * A lock whose owner is no longer running (killed with SIGKILL, power cut) is taken over at once: no
 * wait for a lock to age. A live owner is told apart from a dead one whose pid was reused by its start
 * time (and the boot id: a pid from before a reboot is dead).
 *
 * An owner on another host or in another pid namespace (another container on a shared volume) cannot
 * be looked up by pid: its pid means nothing here. For those the owner's heartbeat decides: the holder
 * touches the file every HEARTBEAT_MS, and such a lock is taken over only once it is FOREIGN_STALE_MS
 * old, as with the lock before this one.
 */
export const LOCK_FILE = 'exchange.lock';
/** Held while a dead owner's lock is removed, so two newcomers never both remove and re-create it. */
const TAKEOVER_DIR = 'exchange.lock.takeover';
/** A takeover lasts milliseconds; one older than this was left by a process killed in the middle of it. */
const TAKEOVER_STALE_MS = 5_000;
/** The lock directory proper-lockfile kept (before this file): its holder refreshed its mtime every 2 s. */
const LEGACY_LOCK_DIR = '.lock';
const LEGACY_STALE_MS = 10_000;
/** How often the holder touches its lock file. */
const HEARTBEAT_MS = 2_000;
/** A lock of an owner this process cannot look up counts as dead once untouched for this long. */
export const FOREIGN_STALE_MS = 10_000;

/** Refused: another live process holds the directory. main.ts prints the message and exits 1 (no stack). */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number | null,
  ) {
    super(`The data directory ${dataDir} is in use by another exchange process${ownerPid === null ? '' : ` (pid ${ownerPid})`}. Stop it, or set DATA_DIR to another folder.`);
    this.name = 'DataDirInUseError';
  }
}

export interface LockOwner {
  pid: number;
  /** Linux boot id; null where /proc is missing. */
  boot: string | null;
  /** The process's start time in clock ticks since boot (Linux /proc/<pid>/stat); null where /proc is missing. */
  start: string | null;
  /** The host, and the pid namespace (Linux, e.g. `pid:[4026531836]`) the pid belongs to; null where unknown. */
  host: string | null;
  ns: string | null;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function bootId(): string | null {
  return readText('/proc/sys/kernel/random/boot_id')?.trim() ?? null;
}

function startTimeOf(pid: number): string | null {
  const stat = readText(`/proc/${pid}/stat`);
  // Field 22 (starttime); counted after the parenthesised command name, which may hold spaces.
  return stat === null ? null : (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null);
}

function pidNamespace(): string | null {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

export function currentOwner(): LockOwner {
  return { pid: process.pid, boot: bootId(), start: startTimeOf(process.pid), host: hostname(), ns: pidNamespace() };
}

/**
 * Whether the process that wrote `owner` still runs. `lockAgeMs`: how long ago its lock file was last
 * touched, which decides for an owner whose pid cannot be looked up from here.
 */
export function ownerAlive(owner: LockOwner, lockAgeMs: number): boolean {
  const ns = pidNamespace();
  if ((owner.host !== null && owner.host !== hostname()) || (owner.ns !== null && ns !== null && owner.ns !== ns)) return lockAgeMs < FOREIGN_STALE_MS;
  const boot = bootId();
  if (owner.boot !== null && boot !== null && owner.boot !== boot) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: a process of another user has that pid; it is alive (it may be the owner).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // The pid runs: the owner only if it started when the owner did (else the pid was reused).
  const start = startTimeOf(owner.pid);
  return owner.start === null || start === null || start === owner.start;
}

function parseOwner(text: string | null): LockOwner | null {
  if (text === null) return null;
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    if (!Number.isSafeInteger(owner.pid) || (owner.pid ?? 0) <= 0) return null;
    const stringOr = (value: unknown) => (typeof value === 'string' ? value : null);
    return { pid: owner.pid!, boot: stringOr(owner.boot), start: stringOr(owner.start), host: stringOr(owner.host), ns: stringOr(owner.ns) };
  } catch {
    return null;
  }
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

function ageMs(path: string): number | null {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** A lock of the older proper-lockfile version: refused while its holder keeps it fresh, removed once stale. */
function clearLegacyLock(dataDir: string): void {
  const path = join(dataDir, LEGACY_LOCK_DIR);
  const age = ageMs(path);
  if (age === null) return;
  if (age < LEGACY_STALE_MS) throw new DataDirInUseError(dataDir, null);
  rmSync(path, { recursive: true, force: true });
}

/**
 * Removes the lock of `dead` if it is still the lock, under the takeover directory. False when another
 * process is taking over right now (the caller tries again).
 */
function takeOver(dataDir: string, lockPath: string, dead: string): boolean {
  const takeoverPath = join(dataDir, TAKEOVER_DIR);
  try {
    mkdirSync(takeoverPath);
  } catch (error) {
    if (code(error) !== 'EEXIST') throw error;
    const age = ageMs(takeoverPath);
    // Left by a process killed in the middle of a takeover (a double fault): cleared, then tried again.
    if (age !== null && age > TAKEOVER_STALE_MS) rmSync(takeoverPath, { recursive: true, force: true });
    return false;
  }
  try {
    // Only the holder of the takeover directory removes a lock, so the file read here is still the dead one.
    if (readText(lockPath) === dead) rmSync(lockPath, { force: true });
    return true;
  } finally {
    rmdirSync(takeoverPath);
  }
}

/** Takes the directory's lock or throws DataDirInUseError; resolves with its release. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  clearLegacyLock(dataDir);
  const lockPath = join(dataDir, LOCK_FILE);
  const text = JSON.stringify(currentOwner());
  const draft = join(dataDir, `${LOCK_FILE}.${process.pid}.${Math.random().toString(36).slice(2)}`);
  writeFileSync(draft, text);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(draft, lockPath);
        break;
      } catch (error) {
        if (code(error) !== 'EEXIST') throw error;
      }
      const found = readText(lockPath);
      if (found === null) {
        // Released between link and read: tried again. Never readable (a directory of that name): refused.
        if (attempt > 200) throw new Error(`The lock ${lockPath} exists but cannot be read; remove it if no exchange process uses ${dataDir}.`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      const owner = parseOwner(found);
      if (owner !== null && ownerAlive(owner, ageMs(lockPath) ?? 0)) throw new DataDirInUseError(dataDir, owner.pid);
      // Dead owner (or a file no owner wrote whole: links are atomic, so not ours): removed, tried again.
      if (!takeOver(dataDir, lockPath, found)) {
        if (attempt > 200) throw new DataDirInUseError(dataDir, owner?.pid ?? null);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  } finally {
    rmSync(draft, { force: true });
  }
  let released = false;
  // The heartbeat owners in other namespaces go by; it never keeps the process alive.
  const heartbeat = setInterval(() => {
    if (readText(lockPath) !== text) return;
    try {
      const now = new Date();
      utimesSync(lockPath, now, now);
    } catch {
      // the next beat tries again
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return async () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    // Removed only while it is still ours (never a successor's).
    if (readText(lockPath) === text) {
      try {
        unlinkSync(lockPath);
      } catch (error) {
        if (code(error) !== 'ENOENT') throw error;
      }
    }
  };
}
