// REST fuzzing, the long run (issue 13, Build 3): every route of the real server gets random and
// mutated parameters, queries and bodies derived from its schema, as a broker and signed out.
// `npm run fuzz:rest [-- <runs per route> [seed]]`. Last line:
// `fuzz:rest routes=N requests=N 5xx=0 uncoded=0`; exit code 1 on any 5xx or uncoded refusal.
import { addKnownValues, fuzzRoutes, seedObjects } from '../tests/helpers/rest-fuzzer.ts';
import { startTestServer } from '../tests/helpers/test-server.ts';

const runsPerRoute = Number(process.argv[2] ?? 500);
const seed = Number(process.argv[3] ?? Date.now() % 2 ** 31);
if (!Number.isInteger(runsPerRoute) || runsPerRoute < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz:rest -- [runs per route] [seed]');
  process.exit(2);
}

const t = await startTestServer({}, Date.now());
const started = Date.now();
try {
  const brokerToken = await t.login('broker1');
  addKnownValues(await seedObjects(t, brokerToken, 'RO-HIDRO'));
  addKnownValues(await seedObjects(t, await t.login('broker2'), 'RO-TERMO'));
  const report = await fuzzRoutes(t, { runsPerRoute, seed, brokerToken });
  const statuses = new Map<string, number>();
  for (const [key, count] of report.byStatus) {
    const status = key.split(' ')[0]!;
    statuses.set(status, (statuses.get(status) ?? 0) + count);
  }
  console.log(`seed=${seed} runsPerRoute=${runsPerRoute} seconds=${Math.round((Date.now() - started) / 1000)}`);
  console.log(`answers by status: ${[...statuses].sort().map(([status, count]) => `${status}=${count}`).join(' ')}`);
  if (report.unlisted.length > 0) console.log(`routes without a schema entry (fuzzed generically): ${report.unlisted.join(', ')}`);
  for (const failure of report.failures.slice(0, 20)) console.log(`FAILED ${failure.status} ${failure.request.method} ${failure.request.path} -> ${failure.body}`);
  console.log(`fuzz:rest routes=${report.routes} requests=${report.requests} 5xx=${report.fiveXX} uncoded=${report.uncoded}`);
  process.exitCode = report.failures.length === 0 ? 0 : 1;
} finally {
  await t.server.close();
}
