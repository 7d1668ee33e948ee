/**
 * Cancel-on-disconnect: a STOMP session that sends `cancel-on-disconnect: <graceMs>` in its CONNECT
 * asks that, if it ends without a DISCONNECT frame (socket dropped, heart-beat lost, token expired or
 * revoked, any ERROR), its user's orders be cancelled (the kill switch, TradingService.cancelAll)
 * once `graceMs` has passed, unless a new session of the same user that asks for it too connects
 * within the grace. The cancel is the user's: with several armed sessions, it starts when the last
 * one still open ends abnormally (another armed session still watches the orders). The gateway only
 * reports how sessions end (gateway/types.ts SessionEnd); the decisions are here. See docs/trading.md
 * "Kill switch and cancel-on-disconnect".
 */
import { apiError, ExchangeError } from '../../protocol/index.ts';
import type { Principal, SessionEnd } from '../gateway/types.ts';

export const CANCEL_ON_DISCONNECT_HEADER = 'cancel-on-disconnect';
/** The longest grace a session may ask for: a minute covers a reconnect, and orders never stay unattended for long. */
export const MAX_CANCEL_GRACE_MS = 60_000;

/** The header's grace in ms, null when absent; anything but a whole number in [0, MAX] is refused. */
export function cancelGraceOf(headers: Readonly<Record<string, string>>): number | null {
  const value = headers[CANCEL_ON_DISCONNECT_HEADER];
  if (value === undefined) return null;
  const ms = /^\s*\d{1,6}\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms > MAX_CANCEL_GRACE_MS) {
    throw new ExchangeError(apiError('STOMP_CANCEL_ON_DISCONNECT_INVALID', { max: MAX_CANCEL_GRACE_MS }));
  }
  return ms;
}

export interface CancelOnDisconnectOptions {
  /** Cancels every live order of the user's clients (the kill switch, as the user). */
  cancelAll(userId: string): Promise<unknown>;
  /** A cancel that failed (the user lost the right meanwhile, the journal is down): reported, not retried. */
  onError?(userId: string, error: unknown): void;
}

/** The gateway hooks of cancel-on-disconnect and its pending cancels, one per user. */
export class CancelOnDisconnect {
  /** Sessions that asked for it and are open, per user: user id -> session id -> grace ms. */
  private readonly sessions = new Map<string, Map<string, number>>();
  /** Pending cancels: user id -> timer. */
  private readonly pending = new Map<string, NodeJS.Timeout>();
  /** The cancels started and not settled yet (close() waits for them). */
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly options: CancelOnDisconnectOptions) {}

  /** A bad header refuses the CONNECT; so does an administrator's (the kill switch is a trader's). */
  readonly checkConnect = (principal: Principal, headers: Readonly<Record<string, string>>): void => {
    const grace = cancelGraceOf(headers);
    if (grace !== null && principal.roles.includes('administrator')) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'trading:write' }));
  };

  /** A session that asks for it arms it, and takes over a pending cancel of its user (a reconnect). */
  readonly sessionOpened = (principal: Principal, sessionId: string, headers: Readonly<Record<string, string>>): void => {
    const grace = cancelGraceOf(headers);
    if (grace === null) return;
    let armed = this.sessions.get(principal.userId);
    if (armed === undefined) this.sessions.set(principal.userId, (armed = new Map()));
    armed.set(sessionId, grace);
    const timer = this.pending.get(principal.userId);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.pending.delete(principal.userId);
    }
  };

  /**
   * The last armed session of a user that ended without DISCONNECT starts the user's cancel after its
   * grace; while another armed session of the user is open, nothing starts (that session still
   * watches the orders; it starts the cancel if it drops in its turn). A server shutdown does not:
   * it is not the client's failure, and the timer would not outlive the process. With a cancel
   * already pending the earlier deadline stands.
   */
  readonly sessionClosed = (principal: Principal, sessionId: string, end: SessionEnd): void => {
    const userId = principal.userId;
    const armed = this.sessions.get(userId);
    const grace = armed?.get(sessionId);
    if (armed === undefined || grace === undefined) return;
    armed.delete(sessionId);
    if (armed.size > 0) return;
    this.sessions.delete(userId);
    if (end.graceful || end.reason === 'shutdown' || this.pending.has(userId)) return;
    const timer = setTimeout(() => {
      this.pending.delete(userId);
      const run = this.options.cancelAll(userId).catch((error: unknown) => this.options.onError?.(userId, error));
      this.running.add(run);
      void run.finally(() => this.running.delete(run));
    }, grace);
    timer.unref();
    this.pending.set(userId, timer);
  };

  /** Users with a cancel waiting for its grace to end. */
  get pendingUsers(): string[] {
    return [...this.pending.keys()];
  }

  /** Drops the pending cancels (server shutdown) and waits for the running ones. */
  async close(): Promise<void> {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    this.sessions.clear();
    await Promise.all([...this.running]);
  }
}
