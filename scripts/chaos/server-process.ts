/**
 * The real exchange (server/main.ts) as a child process on one data directory and port, started
 * again after every kill, and a small HTTP client for its API whose connections die with it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');

/** A reply body as the chaos run reads it: untyped JSON (the routes' own tests check the shapes). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any reply shape, read field by field
export type JsonBody = any;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Clock ticks per second of /proc/<pid>/stat times. */
let clockTicks: number | undefined;

export class ServerProcess {
  private child: ChildProcess | null = null;
  private agent = new Agent({ keepAlive: true, maxSockets: 16 });
  /** What the server wrote to stderr, for the report when it fails. */
  stderr = '';

  constructor(
    readonly dataDir: string,
    readonly port: number,
  ) {}

  /** Starts server/main.ts (simulator off) and resolves once it prints that it runs. */
  start(): Promise<void> {
    this.agent = new Agent({ keepAlive: true, maxSockets: 16 });
    this.stderr = '';
    // The flags of `npm start` (package.json).
    const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', join(root, 'server/main.ts')], {
      cwd: root,
      env: { ...process.env, PORT: String(this.port), HOST: '127.0.0.1', DATA_DIR: this.dataDir, SIMULATOR: 'false', CLIENT_DIR: join(this.dataDir, 'no-client'), LOG_REQUESTS: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    return new Promise((resolve, reject) => {
      let out = '';
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Exchange running')) {
          child.stdout!.off('data', onData);
          child.stdout!.resume();
          child.off('exit', onExit);
          resolve();
        }
      };
      const onExit = (code: number | null) => reject(new Error(`server exited with ${code} before it ran: ${this.stderr.trim()}`));
      child.stdout!.on('data', onData);
      child.once('exit', onExit);
    });
  }

  /**
   * CPU time (user + system, all threads) the running server has used so far, ms; NaN without /proc.
   * Unlike wall time, it does not grow when other processes share the cores.
   */
  cpuMs(): number {
    try {
      clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
      const stat = readFileSync(`/proc/${this.child!.pid}/stat`, 'utf8');
      // utime and stime: fields 14 and 15, counted after the parenthesised command name.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
    } catch {
      return Number.NaN;
    }
  }

  /** SIGKILL: no shutdown, no flush; resolves once the process is gone. */
  kill(): Promise<void> {
    return this.end('SIGKILL');
  }

  /** SIGTERM: the clean shutdown of main.ts. */
  stop(): Promise<void> {
    return this.end('SIGTERM');
  }

  private end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    this.child = null;
    this.agent.destroy();
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  /** One API call; rejects when no answer comes (connection refused or reset: the server died). */
  call(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: JsonBody }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path: `/session/api${path}`,
          agent: this.agent,
          headers: {
            ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            try {
              resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
            } catch (error) {
              reject(error as Error);
            }
          });
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }
}
