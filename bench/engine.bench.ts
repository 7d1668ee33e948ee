/**
 * `npm run bench:engine` (issue 3): one deterministic stream of 1,000,000 operations, generated before
 * timing (bench/engine-stream.ts), fed to our engine (every rule check on the path: phase, rights,
 * agency, steps, price bounds, imbalance/tradeable lookups, cross orders, clearing limits and funds)
 * and, in the same run, to nodejs-order-book as the reference. Both books must end with the same
 * depth (sha256 of the aggregated levels). Prints ops/s of each, their ratio and our per-operation
 * p50 / p99 latency (process.hrtime.bigint around every operation in a separate pass), then one line
 * for scripts. Throughput is the best of RUNS timed passes of each book, alternated (ours, reference,
 * ours, ...) after an untimed whole pass of each (warm-up), so that a noisy neighbour on the machine hurts both alike;
 * latency is taken from the better (lower p99) of two separate per-operation passes.
 *
 * Usage: npm run bench:engine [-- ops=1000000 seed=20240601 runs=3], i.e.
 * tsx --max-semi-space-size=64 bench/engine.bench.ts [ops] [seed] [runs] (the server's V8 flag: docs/engine.md).
 */
import { createHash } from 'node:crypto';
import type { OrderBook } from 'nodejs-order-book';
import { Engine } from '../server/engine/engine.ts';
import type { EngineCommand } from '../server/engine/types.ts';
import { ASSET, buildCommands, buildReference, configure, runReference } from './engine-setup.ts';
import { OP_CANCEL, OP_LIMIT, OP_MARKET, generateStream, type EngineStream } from './engine-stream.ts';

const OPS = Number(process.argv[2] ?? 1_000_000);
const SEED = Number(process.argv[3] ?? 20240601);
const RUNS = Math.max(1, Number(process.argv[4] ?? 3));
function runOurs(commands: EngineCommand[], n: number): { engine: Engine; ms: number; refused: number } {
  const engine = new Engine();
  configure(engine);
  let refused = 0;
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) if (engine.execute(commands[i]!).result !== 'OK') refused++;
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  return { engine, ms, refused };
}

/** Per-operation latency of our engine, and a check that every order got the id the stream predicted. */
function runLatency(commands: EngineCommand[], s: EngineStream): { engine: Engine; samples: Float64Array; idMismatches: number; unexpectedRefusals: number } {
  const engine = new Engine();
  configure(engine);
  const samples = new Float64Array(commands.length);
  let idMismatches = 0;
  let unexpectedRefusals = 0;
  for (let i = 0; i < commands.length; i++) {
    const t = process.hrtime.bigint();
    const r = engine.execute(commands[i]!);
    samples[i] = Number(process.hrtime.bigint() - t);
    if (r.result !== 'OK') {
      if (!(s.kind[i] === OP_MARKET && s.id[i] === 0 && r.result === 'ORDER_IOC_NOT_FILLED')) unexpectedRefusals++;
    } else if (s.kind[i] !== OP_CANCEL && r.orderId !== s.id[i]) idMismatches++;
  }
  return { engine, samples, idMismatches, unexpectedRefusals };
}

/** Aggressive limit orders are flagged by the generator. */
function isAggressive(s: EngineStream, i: number): boolean {
  return s.aggressive[i] === 1;
}

function depthHash(bids: Array<[number, number]>, asks: Array<[number, number]>): string {
  const b = [...bids].sort((x, y) => y[0] - x[0]);
  const a = [...asks].sort((x, y) => x[0] - y[0]);
  return createHash('sha256').update(JSON.stringify({ b, a })).digest('hex').slice(0, 16);
}

function ourDepth(engine: Engine): string {
  const book = engine.getBook(ASSET)!;
  return depthHash(
    book.bids.map((l) => [l.price, l.qty]),
    book.asks.map((l) => [l.price, l.qty]),
  );
}

function referenceDepth(book: OrderBook): string {
  const [asks, bids] = book.depth();
  return depthHash(bids, asks);
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The V8 flags this process runs with (package.json gives the server and this bench the same). */
function v8Flags(): string {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].filter((f) => /^--(max|min|single|no-|turbo)/.test(f));
  return flags.length === 0 ? 'none (npm run bench:engine adds --max-semi-space-size=64, as the server has)' : flags.join(' ');
}

function main(): void {
  const tg = Date.now();
  const stream = generateStream(OPS, SEED);
  const commands = buildCommands(stream);
  const refOps = buildReference(stream);
  console.log(`stream: ${OPS} ops (seed ${SEED}) generated in ${Date.now() - tg} ms; node ${process.version}, V8 flags: ${v8Flags()}`);
  console.log(
    `  passive ${stream.stats.passive}, cancels ${stream.stats.cancels}, aggressive limits ${stream.stats.aggressiveLimits}, market ${stream.stats.markets}; ` +
      `resting orders avg ${stream.stats.avgResting} (max ${stream.stats.maxResting}, end ${stream.stats.endResting}), levels per side avg ${stream.stats.avgLevelsPerSide}`,
  );

  // Warm-up of both, not timed: one whole pass each. Ours took two whole passes to reach its steady
  // pace after a 200,000-op prefix (passes of 1,120 / 885 / 717 / 752 / 780 / 747 ms; the reference
  // steady from its first), so best-of-three measured its warm-up as often as its pace.
  runOurs(commands, OPS);
  runReference(refOps, OPS);

  let ours = runOurs(commands, OPS);
  let reference = runReference(refOps, OPS);
  const oursMs = [ours.ms];
  const referenceMs = [reference.ms];
  for (let i = 1; i < RUNS; i++) {
    const o = runOurs(commands, OPS);
    oursMs.push(o.ms);
    if (o.ms < ours.ms) ours = o;
    const r = runReference(refOps, OPS);
    referenceMs.push(r.ms);
    if (r.ms < reference.ms) reference = r;
  }
  const latencyA = runLatency(commands, stream);
  const latencyB = runLatency(commands, stream);
  const p99Of = (l: { samples: Float64Array }) => percentile(l.samples.slice().sort(), 99);
  const latency = p99Of(latencyA) <= p99Of(latencyB) ? latencyA : latencyB;
  const otherLatency = latency === latencyA ? latencyB : latencyA;

  const ourHash = ourDepth(ours.engine);
  const refHash = referenceDepth(reference.book);
  const latencyHash = ourDepth(latency.engine);
  const problems = ours.engine.validateInternalState();
  const sameState = ours.engine.stateHash() === latency.engine.stateHash() && ours.engine.stateHash() === otherLatency.engine.stateHash();

  const opsPerSec = Math.round(OPS / (ours.ms / 1000));
  const refOpsPerSec = Math.round(OPS / (reference.ms / 1000));
  const ratio = opsPerSec / refOpsPerSec;
  const sorted = latency.samples.slice().sort();
  const p50 = percentile(sorted, 50) / 1000;
  const p99 = percentile(sorted, 99) / 1000;
  const p999 = percentile(sorted, 99.9) / 1000;

  const list = (ms: number[]) => ms.map((x) => x.toFixed(0)).join(' / ');
  console.log(`ours:      best ${ours.ms.toFixed(0)} ms of ${list(oursMs)} ms, ${opsPerSec.toLocaleString('en')} ops/s (refused ${ours.refused}: market orders against an empty side)`);
  console.log(`reference: best ${reference.ms.toFixed(0)} ms of ${list(referenceMs)} ms, ${refOpsPerSec.toLocaleString('en')} ops/s (nodejs-order-book)`);
  console.log(`ratio:     ${ratio.toFixed(1)}x`);
  console.log(`latency:   p50 ${p50.toFixed(2)} us, p99 ${p99.toFixed(2)} us, p99.9 ${p999.toFixed(2)} us (hrtime around each op; other pass p99 ${(p99Of(otherLatency) / 1000).toFixed(2)} us)`);
  const byKind = (label: string, keep: (i: number) => boolean): string => {
    const xs: number[] = [];
    for (let i = 0; i < latency.samples.length; i++) if (keep(i)) xs.push(latency.samples[i]!);
    const sortedKind = Float64Array.from(xs).sort();
    return `${label} p50 ${(percentile(sortedKind, 50) / 1000).toFixed(2)} / p99 ${(percentile(sortedKind, 99) / 1000).toFixed(2)} us`;
  };
  const passive = (i: number) => stream.kind[i] === OP_LIMIT && !isAggressive(stream, i);
  console.log(
    `           ${byKind('passive', passive)}; ${byKind('cancel', (i) => stream.kind[i] === OP_CANCEL)}; ` +
      `${byKind('aggressive', (i) => stream.kind[i] === OP_MARKET || (stream.kind[i] === OP_LIMIT && isAggressive(stream, i)))}`,
  );
  console.log(`depth:     ours ${ourHash}, reference ${refHash}, latency pass ${latencyHash} -> ${ourHash === refHash && ourHash === latencyHash ? 'EQUAL' : 'DIFFERENT'}`);
  console.log(`checks:    validateInternalState ${problems.length === 0 ? 'ok' : problems.slice(0, 3).join('; ')}, id predictions ${latency.idMismatches === 0 ? 'ok' : `${latency.idMismatches} mismatches`}, unexpected refusals ${latency.unexpectedRefusals}, state hash of both passes ${sameState ? 'equal' : 'DIFFERENT'}`);
  const ok = ourHash === refHash && ourHash === latencyHash && problems.length === 0 && latency.idMismatches === 0 && latency.unexpectedRefusals === 0 && otherLatency.idMismatches === 0 && sameState;
  console.log(`bench:engine ops_per_s=${opsPerSec} reference_ops_per_s=${refOpsPerSec} ratio=${ratio.toFixed(1)} p50_us=${p50.toFixed(2)} p99_us=${p99.toFixed(2)}`);
  if (!ok) process.exitCode = 1;
}

main();
