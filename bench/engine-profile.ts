/** Throughput of our engine alone on the benchmark stream, repeated (for profiling: node --cpu-prof). */
import { Engine } from '../server/engine/engine.ts';
import { buildCommands, configure } from './engine-setup.ts';
import { generateStream } from './engine-stream.ts';

const n = Number(process.argv[2] ?? 1_000_000);
const reps = Number(process.argv[3] ?? 3);
const commands = buildCommands(generateStream(n));
let best = Infinity;
for (let rep = 0; rep < reps; rep++) {
  const engine = new Engine();
  configure(engine);
  if (process.env.MARK) console.log('MARK start');
  const cpu = process.cpuUsage();
  const t = process.hrtime.bigint();
  for (let i = 0; i < commands.length; i++) engine.execute(commands[i]!);
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  best = Math.min(best, ms);
  if (process.env.MARK) console.log('MARK end');
  if (process.env.VERBOSE) console.log(`run ${rep}: ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms cpu, ${Math.round((n / ms) * 1000).toString()} ops/s wall, ${Math.round((n / cpuMs) * 1000).toLocaleString('en')} ops/s cpu`);
}
console.log(`best of ${reps}: ${best.toFixed(0)} ms, ${Math.round((n / best) * 1000).toString()} ops/s`);
