/** Token lifetime: issued for the configured TTL, never beyond the 1800 s maximum, checked on the clock. */
import { describe, expect, it } from 'vitest';
import { TokenService } from '../../../server/auth/tokens.ts';

const key = new Uint8Array(32).fill(7);
const claims = { sub: 'u1', username: 'broker1', roles: ['broker'], scopes: [] };

function clockAt(start: number) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('TokenService lifetime', () => {
  it('issues tokens for 1800 s by default', async () => {
    const clock = clockAt(Date.UTC(2026, 0, 5, 9));
    const issued = await new TokenService(key, clock.now).issue(claims);
    expect(issued.expiresAt.getTime() - clock.now()).toBe(1_800_000);
  });

  it('a shorter lifetime expires on time: valid one second before, AUTH_TOKEN_EXPIRED at the end', async () => {
    const clock = clockAt(Date.UTC(2026, 0, 5, 9));
    const tokens = new TokenService(key, clock.now, 150);
    const issued = await tokens.issue(claims);
    expect(issued.expiresAt.getTime() - clock.now()).toBe(150_000);
    clock.advance(149_000);
    await expect(tokens.verify(issued.token)).resolves.toMatchObject({ sub: 'u1', username: 'broker1' });
    clock.advance(1_000);
    await expect(tokens.verify(issued.token)).rejects.toMatchObject({ code: 'AUTH_TOKEN_EXPIRED' });
  });

  it('never issues beyond the maximum age', async () => {
    const clock = clockAt(Date.UTC(2026, 0, 5, 9));
    const issued = await new TokenService(key, clock.now, 7200).issue(claims);
    expect(issued.expiresAt.getTime() - clock.now()).toBe(1_800_000);
  });
});
