import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKnownValues, apiRoutes, fuzzRoutes, routeSchemas, seedObjects } from '../../helpers/rest-fuzzer.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/** Per route; `npm run fuzz:rest` runs many more (scripts/fuzz-rest.ts). */
const RUNS_PER_ROUTE = 40;

describe('every REST route under random and mutated input', () => {
  let t: TestServer;
  let brokerToken: string;
  beforeAll(async () => {
    t = await startTestServer();
    brokerToken = await t.login('broker1');
    // The broker's own order and workspace, and another broker's: ids worth aiming at.
    addKnownValues(await seedObjects(t, brokerToken, 'RO-HIDRO'));
    addKnownValues(await seedObjects(t, await t.login('broker2'), 'RO-TERMO'));
  });
  afterAll(async () => {
    await t?.server.close();
  });

  it('the fuzzer knows the schema of every route the app registered, and no more', () => {
    const registered = apiRoutes(t).map((route) => `${route.method} ${route.url.slice('/session/api'.length)}`).sort();
    expect(registered.length).toBeGreaterThan(30);
    expect(registered).toEqual(Object.keys(routeSchemas).sort());
  });

  it('never answers 500, and every refusal carries a catalogue code', async () => {
    const report = await fuzzRoutes(t, { runsPerRoute: RUNS_PER_ROUTE, seed: 20261125, brokerToken });
    console.log(`fuzz:rest (suite) routes=${report.routes} requests=${report.requests} 5xx=${report.fiveXX} uncoded=${report.uncoded}`);
    expect(report.failures.slice(0, 5)).toEqual([]);
    expect(report.requests).toBeGreaterThanOrEqual(report.routes * RUNS_PER_ROUTE * 0.95);
    // The server is still whole afterwards: the broker's token still works.
    expect((await t.get('/user/info', brokerToken)).status).toBe(200);
  }, 120_000);
});
