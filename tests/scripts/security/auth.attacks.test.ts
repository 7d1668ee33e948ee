/** The sign-in and token attacks of `npm run security:check`, in the suite: each on a fresh real server, each held. */
import { afterEach, describe, expect, it } from 'vitest';
import { attacks } from '../../../scripts/security/auth.attacks.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

let target: TestServer | undefined;
afterEach(async () => {
  await target?.server.close();
  target = undefined;
});

describe('auth and token attacks', () => {
  it('covers every attack the issue lists for tokens and sign-in', () => {
    const names = attacks.map((attack) => attack.name).join('\n');
    for (const topic of [/alg none/, /algorithm confusion/, /expired/, /not yet valid/, /forged signature/, /another user's sub/, /before a password change/, /TOTP replay \(/, /10 parallel uses/, /TOTP brute force/, /password spraying/]) {
      expect(names).toMatch(topic);
    }
    expect(new Set(attacks.map((attack) => attack.area))).toEqual(new Set(['tokens', 'auth']));
  });

  for (const attack of attacks) {
    it(`${attack.area}: ${attack.name} → ${attack.expected}`, async () => {
      // Real time, as the runner starts it: tokens and codes are checked on a clock near the wall clock.
      target = await startTestServer({}, Date.now());
      const { held, outcome } = await attack.run(target);
      console.log(`${attack.area} | ${attack.name} | ${outcome} | ${held ? 'held' : 'FAILED'}`);
      expect(held, outcome).toBe(true);
    }, 90_000); // a server start per attack, on a machine that may be busy
  }
});
