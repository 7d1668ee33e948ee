/**
 * The HTTP attacks of `npm run security:check` (scripts/security/http.attacks.ts) on one real server,
 * with a 1 s header deadline instead of 10 s so the slow-loris and silent-connection floods end
 * quickly (the runner gives each attack a fresh server with the defaults). The authorisation matrix
 * runs in tests/server/http/authorization-matrix.test.ts (the same function), so it is not repeated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attacks } from '../../../scripts/security/http.attacks.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

let target: TestServer;
beforeAll(async () => {
  target = await startTestServer({ httpTimeouts: { headersMs: 1_000, connectionMs: 3_000 } }, Date.now());
}, 60_000);
afterAll(async () => {
  await target.server.close();
});

describe('HTTP attacks', () => {
  const quick = attacks.filter((attack) => !attack.name.startsWith('authorisation matrix'));
  it('runs every attack of the file but the matrix', () => {
    expect(quick.length).toBe(attacks.length - 1);
  });

  it.each(quick.map((attack) => [attack.name, attack] as const))('%s: held', async (_name, attack) => {
    const { held, outcome } = await attack.run(target);
    console.log(`${attack.name}: ${outcome}`);
    expect({ held, outcome }).toEqual({ held: true, outcome });
  }, 40_000);
});
