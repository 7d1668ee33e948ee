/**
 * The gateway's attacks of `npm run security:check` (scripts/security/gateway.attacks.ts) on one real
 * server, in their order (the token expiry, which moves the clock, comes last); the runner gives each
 * attack a fresh server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attacks } from '../../../scripts/security/gateway.attacks.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

let target: TestServer;
beforeAll(async () => {
  target = await startTestServer({}, Date.now());
}, 60_000);
afterAll(async () => {
  await target.server.close();
});

describe('gateway attacks', () => {
  it.each(attacks.map((attack) => [attack.name, attack] as const))('%s: held', async (_name, attack) => {
    const { held, outcome } = await attack.run(target);
    console.log(`${attack.name}: ${outcome}`);
    expect({ held, outcome }).toEqual({ held: true, outcome });
    // Each attack leaves nothing open behind it.
    const deadline = Date.now() + 5000;
    while (target.server.gateway.connectionCount() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(target.server.gateway.connectionCount()).toBe(0);
  }, 30_000);
});
