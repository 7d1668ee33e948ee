// Child process of settlement-crash.test.ts (argv: a PGlite dataDir or a postgres:// URL, killAtStep or 0): runs every pending
// settlement of the fixture in order, SIGKILLing itself at the given step (counted across runs), then
// prints "done <hash of every clearing table>".
import { createHash } from 'node:crypto';
import { SettlementRunner } from '../../../server/clearing/settlement-run.ts';
import { SettlementRepository } from '../../../server/store/settlement.repository.ts';
import { openStore } from '../../../server/store/store.ts';
import { CRASH_FIXTURE_DAYS, CRASH_FIXTURE_MARKETS, CRASH_FIXTURE_NOW } from './settlement-crash-fixture.ts';

const [target, killAt] = [process.argv[2]!, Number(process.argv[3] ?? 0)];
const store = await openStore(target.startsWith('postgres') ? { databaseUrl: target } : { dataDir: target });
const settlement = new SettlementRepository(store.db);
let steps = 0;
const runner = new SettlementRunner({
  settlement,
  reference: store.reference,
  isSessionClosed: () => true,
  now: () => CRASH_FIXTURE_NOW,
  onStep: () => {
    if (++steps === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
for (const sessionDate of CRASH_FIXTURE_DAYS) {
  for (const marketId of CRASH_FIXTURE_MARKETS) await runner.run(marketId, sessionDate);
}
const hash = createHash('sha256').update(await settlement.dumpTables()).digest('hex');
await store.close();
process.stdout.write(`done ${hash}\n`);
