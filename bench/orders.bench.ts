/**
 * npm run bench:orders — the whole server path: orders sent over the REST API by concurrent clients on
 * loopback, each acknowledged only after the engine's journal has synced it to disk.
 *
 * The server runs in its own process (as in production) on a fresh data directory; this process is the
 * load: CONCURRENCY keep-alive connections, each posting the next order as soon as the previous answer
 * arrives. Prints acknowledged orders/s and p50/p99 acknowledgement latency, then one line for scripts.
 *
 * Environment: BENCH_SECONDS (default 10), BENCH_CONCURRENCY (default 64).
 */
import { percentile, startBenchServer } from './bench-server.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const warmupSeconds = 2;


const server = await startBenchServer('orders', concurrency);
const { call, signIn } = server;
try {
  const traders = [
    { token: await signIn('broker1'), clients: ['RO-HIDRO', 'RO-GAZEST'] },
    { token: await signIn('broker2'), clients: ['RO-TERMO'] },
  ];
  const assets = ['GSPOT-DA', 'GSPOT-WD', 'ESPOT-DA-BASE', 'ESPOT-DA-PEAK', 'GFWD-M-2027-01', 'EFWD-M-2027-01-BASE'];
  let sequence = 0;
  let measuring = false;
  let running = true;
  let acked = 0;
  let refused = 0;
  const refusals = new Map<string, number>();
  const latencies: number[] = [];

  async function worker(index: number): Promise<void> {
    const trader = traders[index % traders.length]!;
    while (running) {
      const n = sequence++;
      const way = n % 2 === 0 ? 'bid' : 'ask';
      // Around a mid of 150.00 with a few crossing prices, so the books trade and stay populated.
      const offset = ((n * 7919) % 21) - 10;
      const body = {
        idempotencyKey: `bench-${process.pid}-${n}`,
        assetId: assets[n % assets.length],
        way,
        price: way === 'bid' ? 15_000 - offset : 15_000 + offset,
        qty: 10 * (1 + (n % 10)),
        validityType: 'day',
        clientCode: trader.clients[n % trader.clients.length],
      };
      const started = process.hrtime.bigint();
      const result = await call('POST', '/orders', body, trader.token);
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (!measuring) continue;
      if (result.status === 201) {
        acked++;
        latencies.push(elapsedMs);
      } else {
        refused++;
        const code = result.body?.error?.code ?? String(result.status);
        refusals.set(code, (refusals.get(code) ?? 0) + 1);
      }
    }
  }

  const workers = Array.from({ length: concurrency }, (_, index) => worker(index));
  await new Promise((resolve) => setTimeout(resolve, warmupSeconds * 1000));
  measuring = true;
  const started = Date.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  measuring = false;
  const elapsed = (Date.now() - started) / 1000;
  running = false;
  await Promise.all(workers);

  latencies.sort((a, b) => a - b);
  const ackedPerSecond = Math.round(acked / elapsed);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  console.log(`concurrency ${concurrency}, ${seconds} s measured after ${warmupSeconds} s warm-up; server in its own process, journal fdatasync per group commit`);
  console.log(`acknowledged ${acked} orders (${refused} refused by rules), ${ackedPerSecond} orders/s`);
  if (refusals.size > 0) console.log(`refusals: ${[...refusals].map(([code, n]) => `${code} ${n}`).join(', ')}`);
  console.log(`acknowledgement latency p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
  console.log(`bench:orders acked_per_s=${ackedPerSecond} p50_ms=${p50.toFixed(2)} p99_ms=${p99.toFixed(2)}`);
} finally {
  await server.stop();
}
