// Load held: the exchange (in this process, PGlite in a temporary data directory, the market
// simulator on) under 200 STOMP clients and 20 order-sending clients (a child process,
// scripts/soak-load.ts) for 10 minutes. Prints memory (RSS, heap after a GC) at the start, every
// minute and at the end, event-loop delay p99, and every error the server logged.
// Usage: npm run soak [-- --minutes 10 --stomp 200 --senders 20]   (docs/reliability.md)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { MarketSimulator } from '../server/demo/market-simulator.ts';
import { startExchangeServer } from '../server/exchange-server.ts';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, stomp: { type: 'string', default: '200' }, senders: { type: 'string', default: '20' } } });
const minutes = Number(values.minutes);
const stompClients = Number(values.stomp);
const senders = Number(values.senders);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc (npm run soak does)');

// Every error or warning the server logs is counted and the first ones shown.
const logged: string[] = [];
for (const level of ['error', 'warn'] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    logged.push(`${level}: ${args.map((arg) => (arg instanceof Error ? arg.stack ?? arg.message : String(arg))).join(' ')}`.slice(0, 300));
    original(...args);
  };
}
process.on('uncaughtException', (error) => logged.push(`uncaught: ${error.stack ?? error.message}`));

const dataDir = mkdtempSync(join(tmpdir(), 'soak-'));
// No timetable: the books stay open whatever the hour, so the soak trades the whole time. No
// per-address cap: all of the soak's 220-odd sockets come from loopback.
const server = await startExchangeServer({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: undefined, clientDir: '/nonexistent-client-dir', timetables: null, openMarketsOnStart: true, maxConnectionsPerAddress: 0 });
const simulator = new MarketSimulator({ api: `${server.url}api`, intervalMs: 100, log: (message) => logged.push(message) });
await simulator.start();

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
function memory(label: string): { rss: number; heap: number } {
  gc!();
  const { rss, heapUsed } = process.memoryUsage();
  console.log(`soak ${label}: rss_mb=${mb(rss)} heap_mb=${mb(heapUsed)} journal_seq=${server.sequencer.lastJournalSeq} simulator_actions=${simulator.actions}`);
  return { rss, heap: heapUsed };
}

// Warm-up: the clients connect and subscribe before the first figure is taken.
const delay = monitorEventLoopDelay({ resolution: 10 });
const load = spawn(process.execPath, ['--import', 'tsx', 'scripts/soak-load.ts'], {
  env: { ...process.env, SOAK_PORT: String(server.port), SOAK_MINUTES: String(minutes), SOAK_STOMP: String(stompClients), SOAK_SENDERS: String(senders) },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let report = null as Record<string, unknown> | null;
let ready: () => void;
const connected = new Promise<void>((resolve) => (ready = resolve));
load.stdout.setEncoding('utf8');
load.stdout.on('data', (chunk: string) => {
  for (const line of chunk.split('\n').filter(Boolean)) {
    if (line.startsWith('READY')) ready();
    else if (line.startsWith('REPORT ')) report = JSON.parse(line.slice(7)) as Record<string, unknown>;
    else console.log(`load: ${line}`);
  }
});
const exited = new Promise<number>((resolve) => load.on('exit', (code) => resolve(code ?? 1)));
await connected;
const start = memory('start');
delay.enable();
const samples = [start];
const minute = setInterval(() => samples.push(memory(`minute ${samples.length}`)), 60_000);
const exitCode = await exited;
clearInterval(minute);
delay.disable();
const end = memory('end');
simulator.stop();
await server.close();
rmSync(dataDir, { recursive: true, force: true });

console.log(`load report: ${JSON.stringify(report)}`);
console.log(`errors logged: ${logged.length}`);
for (const line of logged.slice(0, 10)) console.log(`  ${line}`);
// Unbounded growth shows as the second half growing as fast as the first: compare the halves.
const half = samples[Math.floor(samples.length / 2)] ?? start;
console.log(
  `soak minutes=${minutes} stomp=${stompClients} senders=${senders} acked=${String(report?.acked ?? 0)} ` +
    `rss_start_mb=${mb(start.rss)} rss_end_mb=${mb(end.rss)} heap_start_mb=${mb(start.heap)} heap_mid_mb=${mb(half.heap)} heap_end_mb=${mb(end.heap)} ` +
    `loop_delay_p99_ms=${(delay.percentile(99) / 1e6).toFixed(1)} loop_delay_max_ms=${(delay.max / 1e6).toFixed(1)} errors=${logged.length} load_exit=${exitCode}`,
);
process.exit(exitCode === 0 && logged.length === 0 ? 0 : 1);
