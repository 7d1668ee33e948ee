/**
 * Counts failed sign-ins per account and per address in a sliding window. Over the limit, sign-in is
 * refused until the oldest failure leaves the window. Kept in memory: a restart forgives, which a
 * single-process exchange accepts; a cluster would move this to Redis.
 */
export interface LoginLimiterOptions {
  windowMs: number;
  maxPerAccount: number;
  maxPerAddress: number;
}

export const defaultLoginLimits: LoginLimiterOptions = { windowMs: 15 * 60_000, maxPerAccount: 5, maxPerAddress: 20 };

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();
  constructor(private readonly options: LoginLimiterOptions = defaultLoginLimits) {}

  /** Seconds to wait before another attempt, or 0 when an attempt is allowed. */
  retryAfterSeconds(account: string, address: string, now: number): number {
    const wait = Math.max(
      this.waitFor(`account:${account.toLowerCase()}`, this.options.maxPerAccount, now),
      this.waitFor(`address:${address}`, this.options.maxPerAddress, now),
    );
    return Math.ceil(wait / 1000);
  }

  recordFailure(account: string, address: string, now: number): void {
    for (const key of [`account:${account.toLowerCase()}`, `address:${address}`]) {
      const list = this.recent(key, now);
      list.push(now);
      this.failures.set(key, list);
    }
  }

  /** A successful sign-in clears the account's failures (not the address's: one address may try many accounts). */
  recordSuccess(account: string): void {
    this.failures.delete(`account:${account.toLowerCase()}`);
  }

  private waitFor(key: string, max: number, now: number): number {
    const list = this.recent(key, now);
    if (list.length < max) return 0;
    return list[list.length - max]! + this.options.windowMs - now;
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((at) => at > now - this.options.windowMs);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }
}
