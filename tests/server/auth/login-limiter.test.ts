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

  it('blocks an address that tries many accounts, and a success clears the account but only its own slot of the address', () => {
    const limiter = new LoginLimiter({ windowMs: 10_000, maxPerAccount: 5, maxPerAddress: 3 });
    for (const name of ['a', 'b']) limiter.recordFailure(name, '9.9.9.9', 0);
    limiter.recordFailure('a', '8.8.8.8', 0);
    const success = limiter.reserve('a', '9.9.9.9', 1);
    expect(limiter.retryAfterSeconds('d', '9.9.9.9', 1)).toBe(10);
    expect(limiter.retryAfterSeconds('d', '8.8.8.8', 1)).toBe(0);
    limiter.succeeded(success.slot!);
    // a's failures are gone (from every address); the address keeps a's and b's failures, not the success.
    expect(limiter.reserve('a', '7.7.7.7', 1).slot).not.toBeNull();
    expect(limiter.retryAfterSeconds('d', '9.9.9.9', 1)).toBe(0);
    limiter.recordFailure('c', '9.9.9.9', 2);
    expect(limiter.retryAfterSeconds('d', '9.9.9.9', 2)).toBe(10);
  });

  it('counts an attempt when it is reserved: of 40 reservations at one instant, exactly the limit get a slot', () => {
    const limiter = new LoginLimiter({ windowMs: 60_000, maxPerAccount: 5, maxPerAddress: 20 });
    const onAccount = Array.from({ length: 40 }, () => limiter.reserve('bob', '1.1.1.1', 0));
    expect(onAccount.filter((reservation) => reservation.slot).length).toBe(5);
    expect(onAccount.filter((reservation) => !reservation.slot).every((reservation) => reservation.retryAfterSeconds === 60)).toBe(true);
    const sprayed = Array.from({ length: 400 }, (_, index) => limiter.reserve(`user${index}`, '2.2.2.2', 0));
    expect(sprayed.filter((reservation) => reservation.slot).length).toBe(20);
  });

  it('gives a released slot back: an attempt that never ran counts for nothing', () => {
    const limiter = new LoginLimiter({ windowMs: 60_000, maxPerAccount: 1, maxPerAddress: 1 });
    const first = limiter.reserve('bob', '1.1.1.1', 0);
    expect(limiter.reserve('bob', '1.1.1.1', 0).slot).toBeNull();
    limiter.released(first.slot!);
    expect(limiter.reserve('bob', '1.1.1.1', 0).slot).not.toBeNull();
  });
});
