/**
 * Throughput of one book alone on the benchmark stream, repeated, for profiling (`node --cpu-prof`,
 * `--trace-gc`) and instruction counts (`valgrind --tool=callgrind`: the difference between 3 and 2
 * repetitions is one steady pass).
 *
 * Usage: tsx bench/engine-profile.ts [ops=1000000] [reps=3] [engine|reference]
 */
import { Engine } from '../server/engine/engine.ts';
import { buildCommands, buildReference, configure, runReference } from './engine-setup.ts';
import { generateStream } from './engine-stream.ts';

const n = Number(process.argv[2] ?? 1_000_000);
const reps = Number(process.argv[3] ?? 3);
const reference = process.argv[4] === 'reference';
const stream = generateStream(n);
const commands = reference ? [] : buildCommands(stream);
const refOps = reference ? buildReference(stream) : [];

function runEngine(): number {
  const engine = new Engine();
  configure(engine);
  const t = process.hrtime.bigint();
  for (let i = 0; i < commands.length; i++) engine.execute(commands[i]!);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

let best = Infinity;
for (let rep = 0; rep < reps; rep++) {
  if (process.env.MARK) console.log('MARK start');
  const cpu = process.cpuUsage();
  const ms = reference ? runReference(refOps, n).ms : runEngine();
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  best = Math.min(best, ms);
  if (process.env.MARK) console.log('MARK end');
  if (process.env.VERBOSE) console.log(`run ${rep}: ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms cpu, ${Math.round((n / ms) * 1000).toString()} ops/s wall, ${Math.round((n / cpuMs) * 1000).toLocaleString('en')} ops/s cpu`);
}
console.log(`${reference ? 'reference' : 'engine'} best of ${reps}: ${best.toFixed(0)} ms, ${Math.round((n / best) * 1000).toString()} ops/s`);
