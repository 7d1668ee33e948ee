/**
 * Per-user send limit: at most `max` messages in any sliding window of `windowMs`. Kept in memory
 * (a restart forgives, like the sign-in limiter); a cluster would keep it next to the broker.
 */
export interface ChatRateLimits {
  max: number;
  windowMs: number;
}

export const defaultChatRateLimits: ChatRateLimits = { max: 10, windowMs: 10_000 };

export class ChatRateLimiter {
  private readonly sent = new Map<string, number[]>();

  constructor(
    private readonly limits: ChatRateLimits,
    private readonly now: () => number,
  ) {}

  /** Counts one send; returns the seconds to wait when over the limit (the send is not counted then). */
  take(userId: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.now();
    const recent = (this.sent.get(userId) ?? []).filter((at) => at > now - this.limits.windowMs);
    if (recent.length >= this.limits.max) {
      this.sent.set(userId, recent);
      const retryAfterMs = recent[0]! + this.limits.windowMs - now;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    }
    recent.push(now);
    this.sent.set(userId, recent);
    return { allowed: true };
  }
}
