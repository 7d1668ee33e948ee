import {
  apiError,
  ExchangeError,
  PASSWORD_MAX_AGE_DAYS,
  PASSWORD_MIN_LENGTH,
  passwordMeetsPolicy,
  type ChangePasswordRequest,
  type LoginRequest,
  type LoginResponse,
  type Preferences,
  type ResetExpiredPasswordRequest,
  type TokenClaims,
  type UserInfo,
  type Role,
} from '../../protocol/index.ts';
import type { AuditRecord } from '../../protocol/audit.ts';
import type { Store } from '../store/store.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { LoginLimiter, type AttemptSlot } from './login-limiter.ts';
import { hashPassword, verifyPassword, type DeriveKey } from './password-hash.ts';
import { PasswordHasherPool } from './password-hasher-pool.ts';
import { TokenService, type VerifiedClaims } from './tokens.ts';
import { matchingStep } from './totp.ts';

/** How many earlier passwords a new one must differ from. */
export const PASSWORD_HISTORY_DEPTH = 12;
const DAY_MS = 86_400_000;
const MAX_CACHED_TOKENS = 10_000;

/** The `exp` of a token already verified by TokenService, in ms. */
function tokenExpiry(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: number };
  return (payload.exp ?? 0) * 1000;
}

export interface AuthServiceOptions {
  store: Store;
  tokens: TokenService;
  limiter?: LoginLimiter;
  /** Where passwords are hashed (default: a pool of its own, closed by close()). */
  hasher?: PasswordHasherPool;
  now?: () => number;
  /**
   * Where security events go (the audit log's `note`: returns at once, coalesced per minute): failed
   * sign-ins, lockouts, password changes and resets. Nothing is awaited, so the timing of sign-in is
   * the same with or without it.
   */
  audit?: { note(entry: AuditRecord): void };
}

/** The refusals of a sign-in that are a failed attempt (a missing code or a busy hasher tried nothing). */
const failedSignInCodes = new Set(['AUTH_CODE_INVALID', 'AUTH_CREDENTIALS_INVALID', 'AUTH_CODE_ALREADY_USED']);

/** Sign-in, tokens, passwords and preferences. Every refusal is an ExchangeError with a catalogue code. */
export class AuthService {
  private readonly store: Store;
  readonly tokens: TokenService;
  private readonly limiter: LoginLimiter;
  private readonly now: () => number;
  /** Worker threads of its own: a sign-in burst never takes libuv's pool, where the journal's fsyncs wait. */
  readonly hasher: PasswordHasherPool;
  private readonly derive: DeriveKey;
  private readonly verifiedTokens = new Map<string, { claims: VerifiedClaims; expiresAt: number }>();
  private readonly usersById = new Map<string, UserRecord>();
  /**
   * The credentials version each change of this process set: a lookup that started before the change
   * and ends after it brings back the old record, which must neither pass an old token nor be cached.
   */
  private readonly changedVersions = new Map<string, number>();
  private readonly credentialsListeners = new Set<(userId: string) => void>();
  private readonly audit: AuthServiceOptions['audit'];

  constructor(options: AuthServiceOptions) {
    this.audit = options.audit;
    this.store = options.store;
    this.tokens = options.tokens;
    this.limiter = options.limiter ?? new LoginLimiter();
    this.now = options.now ?? Date.now;
    this.hasher = options.hasher ?? new PasswordHasherPool();
    this.derive = (password, salt, params) => this.hasher.derive(password, salt, params);
  }

  /**
   * Called after a password change or reset has committed, with the user's id: whoever holds sessions
   * of that user (the STOMP gateway) ends them. Returns the unsubscribe.
   */
  onCredentialsChanged(listener: (userId: string) => void): () => void {
    this.credentialsListeners.add(listener);
    return () => this.credentialsListeners.delete(listener);
  }

  /** Stops the hashing threads (server shutdown). */
  async close(): Promise<void> {
    await this.hasher.close();
  }

  async login(request: LoginRequest, ip: string): Promise<LoginResponse> {
    const user = await this.verifyCredentials(request.username, request.password, request.code, ip);
    if (this.passwordExpired(user)) throw new ExchangeError(apiError('AUTH_PASSWORD_EXPIRED'));
    return this.signIn(user, ip);
  }

  /** Sets a new password for a user whose password has expired, then signs them in. */
  async resetExpiredPassword(request: ResetExpiredPasswordRequest, ip: string): Promise<LoginResponse> {
    this.checkNewPassword(request.newPassword, request.confirmPassword);
    const user = await this.verifyCredentials(request.username, request.currentPassword, request.code, ip);
    if (!this.passwordExpired(user)) throw new ExchangeError(apiError('AUTH_PASSWORD_NOT_EXPIRED'));
    const credentialsVersion = await this.replacePassword(user, request.newPassword);
    this.noteSecurity('password.reset', user.username, user, ip, null, {});
    return this.signIn({ ...user, credentialsVersion }, ip);
  }

  /**
   * A wrong current password is a failed sign-in of the account and address (the same limits): a
   * stolen session cannot guess the password without a limit, and a blocked one costs no hash.
   * Every earlier token of the user is revoked; the session that changed it gets a fresh token, so it
   * stays signed in.
   */
  async changePassword(userId: string, request: ChangePasswordRequest, ip: string): Promise<LoginResponse> {
    this.checkNewPassword(request.newPassword, request.confirmPassword);
    const user = await this.requireUser(userId);
    try {
      const slot = this.reserveAttempt(user.username, ip);
      if (!(await this.verifyCounted(slot, request.currentPassword, user.passwordHash))) {
        throw new ExchangeError(apiError('AUTH_CREDENTIALS_INVALID'));
      }
      this.limiter.succeeded(slot);
    } catch (error) {
      this.noteRefusedSignIn(error, user.username, user, ip);
      throw error;
    }
    const credentialsVersion = await this.replacePassword(user, request.newPassword);
    this.noteSecurity('password.changed', user.username, user, ip, null, {});
    return this.issueToken({ ...user, credentialsVersion });
  }

  /**
   * Resolves a bearer token to its user. Verified tokens and user records are cached (every order
   * request authenticates): a token until its expiry, a user until this service changes it.
   */
  async authenticate(token: string): Promise<{ claims: TokenClaims; user: UserRecord }> {
    const cached = this.verifiedTokens.get(token);
    const claims = cached && cached.expiresAt > this.now() ? cached.claims : await this.verifyAndCache(token);
    const user = await this.currentUser(claims.sub);
    // Checked on every call, cached token or not: a password change drops the user's cached record and
    // notes its new version, so the next request sees it.
    if (claims.credentialsVersion < Math.max(user.credentialsVersion, this.changedVersions.get(user.id) ?? 0)) {
      this.verifiedTokens.delete(token);
      throw new ExchangeError(apiError('AUTH_TOKEN_REVOKED'));
    }
    return { claims, user };
  }

  /**
   * The user's record as authenticate reads it (cached until a credentials change): for a STOMP session,
   * whose token the gateway checked at CONNECT and keeps checking for expiry.
   */
  async currentUser(userId: string): Promise<UserRecord> {
    const cached = this.usersById.get(userId);
    if (cached) return cached;
    const found = await this.store.users.findById(userId);
    if (!found) throw new ExchangeError(apiError('AUTH_TOKEN_INVALID'));
    if (found.credentialsVersion >= (this.changedVersions.get(found.id) ?? 0)) this.usersById.set(found.id, found);
    return found;
  }

  private async verifyAndCache(token: string): Promise<VerifiedClaims> {
    const claims = await this.tokens.verify(token);
    if (this.verifiedTokens.size >= MAX_CACHED_TOKENS) this.verifiedTokens.clear();
    this.verifiedTokens.set(token, { claims, expiresAt: tokenExpiry(token) });
    return claims;
  }

  async userInfo(user: UserRecord): Promise<UserInfo> {
    const [broker, agency, terminal] = await Promise.all([
      user.brokerId ? this.store.reference.broker(user.brokerId) : null,
      user.agencyId ? this.store.reference.agency(user.agencyId) : null,
      user.terminalId ? this.store.reference.terminal(user.terminalId) : null,
    ]);
    return {
      userId: user.id,
      username: user.username,
      name: user.name,
      roles: user.roles as Role[],
      scopes: user.scopes,
      broker: broker ? { id: broker.id, name: broker.name } : null,
      agency: agency ? { id: agency.id, name: agency.name } : null,
      terminal: terminal ? { id: terminal.id, name: terminal.name } : null,
      clientCodes: user.clientCodes,
      marketIds: user.marketIds,
      passwordExpiresAt: new Date(user.passwordChangedAt.getTime() + PASSWORD_MAX_AGE_DAYS * DAY_MS).toISOString(),
      preferences: user.preferences,
    };
  }

  async setPreferences(userId: string, preferences: Preferences): Promise<void> {
    await this.store.users.setPreferences(userId, preferences);
    this.usersById.delete(userId);
  }

  async loginHistory(userId: string, limit = 100) {
    return this.store.users.loginHistory(userId, limit);
  }

  /**
   * The attempt is counted before anything is awaited (a slot of the account and the address), so
   * parallel attempts cannot all pass the limit; only a success gives the slot back.
   */
  private async verifyCredentials(username: string, password: string, code: string | undefined, ip: string): Promise<UserRecord> {
    const now = this.now();
    let user: UserRecord | null = null;
    try {
      const slot = this.reserveAttempt(username, ip);
      if (!code) {
        this.limiter.released(slot); // nothing was tried
        throw new ExchangeError(apiError('AUTH_CODE_MISSING'));
      }

      user = await this.store.users.findByUsername(username);
      // The code is judged first, and a wrong one costs no hash: whether the password was right is told
      // only to someone holding the second factor, and an unknown user (no code fits) is answered the
      // same way and as fast as a known one with a wrong code. A burst without codes hashes nothing.
      const step = user ? matchingStep(user.totpSecret, code, now) : null;
      if (!user || step === null) throw new ExchangeError(apiError('AUTH_CODE_INVALID'));
      if (!(await this.verifyCounted(slot, password, user.passwordHash))) throw new ExchangeError(apiError('AUTH_CREDENTIALS_INVALID'));
      if (!(await this.store.users.consumeTotpStep(user.id, step))) throw new ExchangeError(apiError('AUTH_CODE_ALREADY_USED'));
      this.limiter.succeeded(slot);
      return user;
    } catch (error) {
      // Noted without awaiting (the audit coalesces floods): the refusal leaves as fast as before.
      this.noteRefusedSignIn(error, username, user, ip);
      throw error;
    }
  }

  /** A failed attempt or a lockout, for the audit trail; other refusals (no code, busy) tried nothing. */
  private noteRefusedSignIn(error: unknown, username: string, user: UserRecord | null, ip: string): void {
    if (!(error instanceof ExchangeError)) return;
    if (error.code === 'AUTH_TOO_MANY_ATTEMPTS') this.noteSecurity('signIn.lockedOut', username, user, ip, error.code, error.params as Record<string, number>);
    else if (failedSignInCodes.has(error.code)) this.noteSecurity('signIn.failed', username, user, ip, error.code, {});
  }

  private noteSecurity(
    action: 'signIn.failed' | 'signIn.lockedOut' | 'password.changed' | 'password.reset',
    username: string,
    user: UserRecord | null,
    ip: string,
    code: ExchangeError['code'] | null,
    details: Record<string, number>,
  ): void {
    this.audit?.note({
      category: 'security',
      action,
      actorUserId: user?.id ?? null,
      actorRole: user ? user.roles.join(',') || null : null,
      subject: `login ${username}`.slice(0, 200),
      outcome: code === null ? 'ok' : 'refused',
      code,
      remoteAddress: ip,
      details,
    });
  }

  /** A slot of the account and the address, or AUTH_TOO_MANY_ATTEMPTS. */
  private reserveAttempt(username: string, ip: string): AttemptSlot {
    const reservation = this.limiter.reserve(username, ip, this.now());
    if (!reservation.slot) throw new ExchangeError(apiError('AUTH_TOO_MANY_ATTEMPTS', { retryAfterSeconds: reservation.retryAfterSeconds }));
    return reservation.slot;
  }

  /** Verifies a password for a counted attempt; a hash that did not run (AUTH_BUSY, shutdown) gives the slot back. */
  private async verifyCounted(slot: AttemptSlot, password: string, hash: string): Promise<boolean> {
    try {
      return await verifyPassword(password, hash, this.derive);
    } catch (error) {
      this.limiter.released(slot);
      throw error;
    }
  }

  private async signIn(user: UserRecord, ip: string): Promise<LoginResponse> {
    await this.store.users.recordLogin(user.id, ip, new Date(this.now()));
    return this.issueToken(user);
  }

  private async issueToken(user: UserRecord): Promise<LoginResponse> {
    const issued = await this.tokens.issue({ sub: user.id, username: user.username, roles: user.roles, scopes: user.scopes }, user.credentialsVersion);
    return { token: issued.token, expiresAt: issued.expiresAt.toISOString() };
  }

  private checkNewPassword(newPassword: string, confirmPassword: string): void {
    if (newPassword !== confirmPassword) throw new ExchangeError(apiError('AUTH_PASSWORDS_NOT_MATCHING'));
    if (!passwordMeetsPolicy(newPassword)) throw new ExchangeError(apiError('AUTH_PASSWORD_INVALID', { minLength: PASSWORD_MIN_LENGTH }));
  }

  /** Sets the new password, revokes every earlier token, tells the listeners; returns the new credentials version. */
  private async replacePassword(user: UserRecord, newPassword: string): Promise<number> {
    const history = await this.store.users.passwordHistory(user.id, PASSWORD_HISTORY_DEPTH);
    for (const oldHash of history) {
      if (await verifyPassword(newPassword, oldHash, this.derive)) throw new ExchangeError(apiError('AUTH_PASSWORD_USED_BEFORE'));
    }
    const credentialsVersion = await this.store.users.setPassword(user.id, await hashPassword(newPassword, this.derive), new Date(this.now()));
    this.changedVersions.set(user.id, Math.max(credentialsVersion, this.changedVersions.get(user.id) ?? 0));
    this.usersById.delete(user.id);
    for (const [token, cached] of this.verifiedTokens) {
      if (cached.claims.sub === user.id && cached.claims.credentialsVersion < credentialsVersion) this.verifiedTokens.delete(token);
    }
    for (const listener of this.credentialsListeners) {
      try {
        listener(user.id);
      } catch (error) {
        console.error('credentials-changed listener failed:', error);
      }
    }
    return credentialsVersion;
  }

  private passwordExpired(user: UserRecord): boolean {
    return user.passwordChangedAt.getTime() + PASSWORD_MAX_AGE_DAYS * DAY_MS <= this.now();
  }

  private async requireUser(userId: string): Promise<UserRecord> {
    const user = await this.store.users.findById(userId);
    if (!user) throw new ExchangeError(apiError('AUTH_TOKEN_INVALID'));
    return user;
  }
}
