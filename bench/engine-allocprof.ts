/** Sampling allocation profile of the engine on the benchmark stream (including objects that die young). */
import { Session } from 'node:inspector';
import { Engine } from '../server/engine/engine.ts';
import { buildCommands, configure } from './engine-setup.ts';
import { generateStream } from './engine-stream.ts';

const n = Number(process.argv[2] ?? 300_000);
const commands = buildCommands(generateStream(n));
const warm = new Engine();
configure(warm);
for (let i = 0; i < commands.length; i++) warm.execute(commands[i]!);
const session = new Session();
session.connect();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- inspector replies differ per method
const post = (method: string, params?: object): Promise<any> => new Promise((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
await post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
const engine = new Engine();
configure(engine);
for (let i = 0; i < commands.length; i++) engine.execute(commands[i]!);
const { profile } = await post('HeapProfiler.stopSampling');
const self = new Map<string, number>();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a heap-profile node as the inspector sends it
const walk = (node: any): void => {
  const k = `${node.callFrame.functionName}:${node.callFrame.lineNumber + 1}`;
  self.set(k, (self.get(k) ?? 0) + node.selfSize);
  node.children.forEach(walk);
};
walk(profile.head);
const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log(`sampled ${(total / 1e6).toFixed(1)} MB for ${n} ops = ${(total / n).toFixed(0)} B/op`);
for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(v / n).toFixed(0).padStart(6)} B/op  ${k}`);
