// STOMP fuzzing, the long run (issue 13, Build item 3): random and mutated client frames through the
// gateway's session over an in-memory socket. `npm run fuzz:stomp [-- <frames> [<seed>]]`, default 10^6
// frames. The last line: fuzz:stomp frames=N crashes=0 hangs=0 uncoded=0. docs/reliability.md.
import { fuzz } from '../tests/server/gateway/stomp-fuzz.ts';

const frames = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
if (!Number.isInteger(frames) || frames <= 0 || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz:stomp -- [frames] [seed]');
  process.exit(2);
}
console.log(`fuzz:stomp seed=${seed} target=${frames} frames`);
const started = performance.now();
let lastReport = 0;
const tally = await fuzz(frames, seed, undefined, (progress) => {
  if (progress.frames - lastReport < 100_000) return;
  lastReport = progress.frames;
  console.log(`  ${progress.frames} frames, ${progress.inputs} inputs, ${((performance.now() - started) / 1000).toFixed(0)} s`);
});
const codes = [...tally.codes.entries()].sort((a, b) => b[1] - a[1]);
console.log(`inputs=${tally.inputs} refused=${tally.refused} open-or-accepted=${tally.accepted} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
for (const [code, count] of codes) console.log(`  ${code.padEnd(32)} ${count}`);
for (const example of tally.examples) console.log(`  ${example}`);
console.log(`fuzz:stomp frames=${tally.frames} crashes=${tally.crashes} hangs=${tally.hangs} uncoded=${tally.uncoded}`);
process.exit(tally.crashes + tally.hangs + tally.uncoded === 0 ? 0 : 1);
