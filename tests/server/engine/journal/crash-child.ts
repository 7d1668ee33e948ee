// Child process of the kill-and-restart test: runs the workload through a Sequencer (engine + journal)
// (argv: dir seed count [snapshotEvery]) and prints "ack <n> <journal seq>" after each acknowledged command, until the parent kills it.
import { Sequencer } from '../../../../server/trading/sequencer.ts';
import { crashWorkload, steppingClock } from './crash-workload.ts';

const [dir, seed, count] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4])];
// optional: journaled commands between engine snapshots (the sequencer's default otherwise)
const snapshotEvery = process.argv[5] === undefined ? undefined : Number(process.argv[5]);
const { sequencer } = await Sequencer.open({ journalDir: dir, now: steppingClock(), tickIntervalMs: 0, ...(snapshotEvery === undefined ? {} : { snapshotEvery }) });
let acked = 0;
// Several commands in flight at once, as under load, so group commit batches them.
const inFlight = new Set<Promise<unknown>>();
for (const command of crashWorkload(seed, count)) {
  const done = sequencer.submit(command).then((result) => {
    acked++;
    process.stdout.write(`ack ${acked} ${result.journalSeq ?? 0}\n`);
  });
  inFlight.add(done);
  void done.finally(() => inFlight.delete(done));
  if (inFlight.size >= 32) await Promise.race(inFlight);
}
await Promise.all(inFlight);
process.stdout.write('done\n');
