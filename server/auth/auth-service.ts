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
import type { Store } from '../store/store.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { LoginLimiter } from './login-limiter.ts';
import { hashPassword, verifyPassword } from './password-hash.ts';
import { TokenService } from './tokens.ts';
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
  now?: () => number;
}

/** Sign-in, tokens, passwords and preferences. Every refusal is an ExchangeError with a catalogue code. */
export class AuthService {
  private readonly store: Store;
  readonly tokens: TokenService;
  private readonly limiter: LoginLimiter;
  private readonly now: () => number;
  /** Verified against when the user does not exist, so an unknown username costs the same time. */
  private readonly decoyHash: Promise<string>;
  private readonly verifiedTokens = new Map<string, { claims: TokenClaims; expiresAt: number }>();
  private readonly usersById = new Map<string, UserRecord>();

  constructor(options: AuthServiceOptions) {
    this.store = options.store;
    this.tokens = options.tokens;
    this.limiter = options.limiter ?? new LoginLimiter();
    this.now = options.now ?? Date.now;
    this.decoyHash = hashPassword('decoy-password-never-matches');
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
    await this.replacePassword(user, request.newPassword);
    return this.signIn(user, ip);
  }

  /**
   * A wrong current password is a failed sign-in of the account and address (the same limits): a
   * stolen session cannot guess the password without a limit, and a blocked one costs no hash.
   */
  async changePassword(userId: string, request: ChangePasswordRequest, ip: string): Promise<void> {
    this.checkNewPassword(request.newPassword, request.confirmPassword);
    const user = await this.requireUser(userId);
    const now = this.now();
    const retryAfterSeconds = this.limiter.retryAfterSeconds(user.username, ip, now);
    if (retryAfterSeconds > 0) throw new ExchangeError(apiError('AUTH_TOO_MANY_ATTEMPTS', { retryAfterSeconds }));
    if (!(await verifyPassword(request.currentPassword, user.passwordHash))) {
      this.limiter.recordFailure(user.username, ip, now);
      throw new ExchangeError(apiError('AUTH_CREDENTIALS_INVALID'));
    }
    await this.replacePassword(user, request.newPassword);
  }

  /**
   * Resolves a bearer token to its user. Verified tokens and user records are cached (every order
   * request authenticates): a token until its expiry, a user until this service changes it.
   */
  async authenticate(token: string): Promise<{ claims: TokenClaims; user: UserRecord }> {
    const cached = this.verifiedTokens.get(token);
    const claims = cached && cached.expiresAt > this.now() ? cached.claims : await this.verifyAndCache(token);
    let user = this.usersById.get(claims.sub);
    if (!user) {
      const found = await this.store.users.findById(claims.sub);
      if (!found) throw new ExchangeError(apiError('AUTH_TOKEN_INVALID'));
      this.usersById.set(found.id, (user = found));
    }
    return { claims, user };
  }

  private async verifyAndCache(token: string): Promise<TokenClaims> {
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

  private async verifyCredentials(username: string, password: string, code: string | undefined, ip: string): Promise<UserRecord> {
    const now = this.now();
    const retryAfterSeconds = this.limiter.retryAfterSeconds(username, ip, now);
    if (retryAfterSeconds > 0) throw new ExchangeError(apiError('AUTH_TOO_MANY_ATTEMPTS', { retryAfterSeconds }));
    if (!code) throw new ExchangeError(apiError('AUTH_CODE_MISSING'));

    const user = await this.store.users.findByUsername(username);
    // The hash runs whatever happens (an unknown user against a decoy), so the time tells nothing.
    const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await this.decoyHash));
    // The code is judged first: whether the password was right is told only to someone holding the
    // second factor (an unknown user has no code that fits, so it is answered the same way).
    const step = user ? matchingStep(user.totpSecret, code, now) : null;
    if (!user || step === null) {
      this.limiter.recordFailure(username, ip, now);
      throw new ExchangeError(apiError('AUTH_CODE_INVALID'));
    }
    if (!passwordOk) {
      this.limiter.recordFailure(username, ip, now);
      throw new ExchangeError(apiError('AUTH_CREDENTIALS_INVALID'));
    }
    if (!(await this.store.users.consumeTotpStep(user.id, step))) {
      this.limiter.recordFailure(username, ip, now);
      throw new ExchangeError(apiError('AUTH_CODE_ALREADY_USED'));
    }
    this.limiter.recordSuccess(username);
    return user;
  }

  private async signIn(user: UserRecord, ip: string): Promise<LoginResponse> {
    await this.store.users.recordLogin(user.id, ip, new Date(this.now()));
    const issued = await this.tokens.issue({ sub: user.id, username: user.username, roles: user.roles, scopes: user.scopes });
    return { token: issued.token, expiresAt: issued.expiresAt.toISOString() };
  }

  private checkNewPassword(newPassword: string, confirmPassword: string): void {
    if (newPassword !== confirmPassword) throw new ExchangeError(apiError('AUTH_PASSWORDS_NOT_MATCHING'));
    if (!passwordMeetsPolicy(newPassword)) throw new ExchangeError(apiError('AUTH_PASSWORD_INVALID', { minLength: PASSWORD_MIN_LENGTH }));
  }

  private async replacePassword(user: UserRecord, newPassword: string): Promise<void> {
    const history = await this.store.users.passwordHistory(user.id, PASSWORD_HISTORY_DEPTH);
    for (const oldHash of history) {
      if (await verifyPassword(newPassword, oldHash)) throw new ExchangeError(apiError('AUTH_PASSWORD_USED_BEFORE'));
    }
    await this.store.users.setPassword(user.id, await hashPassword(newPassword), new Date(this.now()));
    this.usersById.delete(user.id);
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
