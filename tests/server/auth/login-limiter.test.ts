import { describe, expect, it } from 'vitest';
import { LoginLimiter } from '../../../server/auth/login-limiter.ts';

describe('LoginLimiter', () => {
  it('blocks an account after its limit until the window passes', () => {
    const limiter = new LoginLimiter({ windowMs: 1000, maxPerAccount: 2, maxPerAddress: 10 });
    limiter.recordFailure('Bob', '1.1.1.1', 0);
    expect(limiter.retryAfterSeconds('bob', '2.2.2.2', 10)).toBe(0);
    limiter.recordFailure('bob', '1.1.1.1', 100);
    expect(limiter.retryAfterSeconds('BOB', '2.2.2.2', 200)).toBe(1);
    expect(limiter.retryAfterSeconds('alice', '2.2.2.2', 200)).toBe(0);
    expect(limiter.retryAfterSeconds('bob', '2.2.2.2', 1001)).toBe(0);
  });

  it('blocks an address that tries many accounts, and a success clears only the account', () => {
    const limiter = new LoginLimiter({ windowMs: 10_000, maxPerAccount: 5, maxPerAddress: 3 });
    for (const name of ['a', 'b', 'c']) limiter.recordFailure(name, '9.9.9.9', 0);
    expect(limiter.retryAfterSeconds('d', '9.9.9.9', 1)).toBe(10);
    expect(limiter.retryAfterSeconds('d', '8.8.8.8', 1)).toBe(0);
    limiter.recordSuccess('a');
    expect(limiter.retryAfterSeconds('a', '8.8.8.8', 1)).toBe(0);
    expect(limiter.retryAfterSeconds('a', '9.9.9.9', 1)).toBe(10);
  });
});
