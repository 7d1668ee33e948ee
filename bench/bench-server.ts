/**
 * What the server benchmarks share: the exchange in its own process on a fresh data directory, a
 * keep-alive HTTP client for its API, demo sign-in, percentiles.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { currentCode } from '../server/auth/totp.ts';
import { readDemoUsers } from '../server/demo/demo-exchange.ts';

/** A reply body as the bench reads it: untyped JSON (the routes' own tests check the shapes). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any reply shape, read field by field
type JsonBody = any;

export interface BenchServer {
  port: number;
  call(method: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: JsonBody }>;
  signIn(username: string): Promise<string>;
  /** CPU time (user + system) the server process has used so far, in ms; NaN where /proc is missing. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** The Node flags `npm start` gives the server (package.json), so the benches measure it as it runs. */
const serverNodeFlags = ['--max-semi-space-size=64'];

/** What to run: the exchange by default; `ready` is what it prints once it listens. */
export interface BenchServerEntry {
  script: string;
  ready: string;
}

const exchangeEntry: BenchServerEntry = { script: 'server/main.ts', ready: 'Exchange running' };

/**
 * With DATABASE_URL set, a schema of its own for one server (as fresh as its data directory: no read
 * models or watermark of an earlier run), dropped by `drop`.
 */
async function freshSchema(databaseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  // pg takes the user from the URL, else PGUSER, else USER (which a bare environment may lack).
  process.env.PGUSER ??= process.env.USER ?? userInfo().username;
  const schema = `bench_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create schema ${schema}`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => run(`drop schema ${schema} cascade`) };
}

/**
 * Starts server/main.ts (simulator off) or `entry`; BENCH_CPU_PROF=1 writes its CPU profile to .tmp/prof.
 * With DATABASE_URL set the exchange keeps its read models in a fresh schema of that PostgreSQL database.
 */
export async function startBenchServer(name: string, maxSockets: number, entry: BenchServerEntry = exchangeEntry): Promise<BenchServer> {
  const port = 18_000 + Math.floor(Math.random() * 4000);
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const agent = new Agent({ keepAlive: true, maxSockets });
  const schema = process.env.DATABASE_URL && entry === exchangeEntry ? await freshSchema(process.env.DATABASE_URL) : null;
  const child = spawn(process.execPath, [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=.tmp/prof'] : []), ...serverNodeFlags, '--import', 'tsx', entry.script], {
    env: { ...process.env, ...(schema ? { DATABASE_URL: schema.url } : {}), PORT: String(port), DATA_DIR: dataDir, SIMULATOR: 'false',
      // Every bench client comes from loopback, many as one user: the per-address and per-user caps would refuse them.
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      MAX_SESSIONS_PER_USER: '0', CLIENT_DIR: join(dataDir, 'no-client') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(entry.ready)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });

  function call(method: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: JsonBody }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: `/session/api${path}`,
          agent,
          headers: {
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
          });
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  return {
    port,
    call,
    cpuMs: () => processCpuMs(child.pid!),
    async signIn(username) {
      const user = readDemoUsers().find((candidate) => candidate.username === username)!;
      const result = await call('POST', '/login', { username, password: user.password, code: currentCode(user.totpSecret, Date.now()) });
      if (result.status !== 200) throw new Error(`sign-in of ${username} failed: ${JSON.stringify(result.body)}`);
      return result.body.token;
    },
    async stop() {
      agent.destroy();
      // The data directory goes only once the server has closed (a snapshot may still be being written).
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(dataDir, { recursive: true, force: true });
      await schema?.drop();
    },
  };
}

/** Clock ticks per second of /proc/<pid>/stat times. */
let clockTicks: number | undefined;

function processCpuMs(pid: number): number {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th of the line.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return Number.NaN;
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
