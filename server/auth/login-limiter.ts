/**
 * Counts sign-in attempts per account and per address in a sliding window. An attempt is counted when
 * it starts (a slot is reserved before the password hash runs), so parallel attempts cannot all pass
 * the check before any of them is counted; a success gives its slot back. Over the limit, sign-in is
 * refused until the oldest attempt leaves the window. Kept in memory: a restart forgives, which a
 * single-process exchange accepts; a cluster would move this to Redis.
 */
export interface LoginLimiterOptions {
  windowMs: number;
  maxPerAccount: number;
  maxPerAddress: number;
}

export const defaultLoginLimits: LoginLimiterOptions = { windowMs: 15 * 60_000, maxPerAccount: 5, maxPerAddress: 20 };

/** One attempt's place in both counts, from reserve() until it fails (kept) or succeeds (given back). */
export interface AttemptSlot {
  readonly account: string;
  readonly address: string;
  readonly at: number;
}

export type Reservation = { slot: AttemptSlot; retryAfterSeconds: 0 } | { slot: null; retryAfterSeconds: number };

export class LoginLimiter {
  private readonly attempts = new Map<string, number[]>();
  constructor(private readonly options: LoginLimiterOptions = defaultLoginLimits) {}

  /** Seconds to wait before another attempt, or 0 when an attempt is allowed. Counts nothing. */
  retryAfterSeconds(account: string, address: string, now: number): number {
    const wait = Math.max(
      this.waitFor(accountKey(account), this.options.maxPerAccount, now),
      this.waitFor(addressKey(address), this.options.maxPerAddress, now),
    );
    return Math.ceil(wait / 1000);
  }

  /**
   * Checks and counts in one synchronous step (no await between them): of N parallel attempts at most
   * the limit get a slot, the others wait `retryAfterSeconds`. The slot counts as a failure unless
   * succeeded() or released() gives it back.
   */
  reserve(account: string, address: string, now: number): Reservation {
    const retryAfterSeconds = this.retryAfterSeconds(account, address, now);
    if (retryAfterSeconds > 0) return { slot: null, retryAfterSeconds };
    const slot: AttemptSlot = { account: accountKey(account), address: addressKey(address), at: now };
    for (const key of [slot.account, slot.address]) this.attempts.set(key, [...this.recent(key, now), now]);
    return { slot, retryAfterSeconds: 0 };
  }

  /** The attempt did not happen (the hash was refused as busy): its slot no longer counts. */
  released(slot: AttemptSlot): void {
    for (const key of [slot.account, slot.address]) this.remove(key, slot.at);
  }

  /**
   * A successful sign-in clears the account's failures, and gives back its own slot of the address
   * (not the address's failures: one address may try many accounts; an office behind one address
   * signing many users in is not an attack).
   */
  succeeded(slot: AttemptSlot): void {
    this.attempts.delete(slot.account);
    this.remove(slot.address, slot.at);
  }

  /** Counts a failure outright (tests and callers with no slot). */
  recordFailure(account: string, address: string, now: number): void {
    for (const key of [accountKey(account), addressKey(address)]) this.attempts.set(key, [...this.recent(key, now), now]);
  }

  private remove(key: string, at: number): void {
    const list = this.attempts.get(key);
    const index = list ? list.lastIndexOf(at) : -1;
    if (!list || index < 0) return;
    list.splice(index, 1);
    if (list.length === 0) this.attempts.delete(key);
  }

  private waitFor(key: string, max: number, now: number): number {
    const list = this.recent(key, now);
    if (list.length < max) return 0;
    return Math.max(1, list[list.length - max]! + this.options.windowMs - now);
  }

  private recent(key: string, now: number): number[] {
    const list = (this.attempts.get(key) ?? []).filter((at) => at > now - this.options.windowMs);
    if (list.length === 0) this.attempts.delete(key);
    else this.attempts.set(key, list);
    return list;
  }
}

const accountKey = (account: string) => `account:${account.toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;
