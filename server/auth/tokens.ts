import { errors, jwtVerify, SignJWT } from 'jose';
import { apiError, ExchangeError, TOKEN_MAX_AGE_SECONDS, type TokenClaims } from '../../protocol/index.ts';

const algorithm = 'HS256';
const issuer = 'energy-exchange';

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

/**
 * What a verified token says. `credentialsVersion` (claim `cv`) is the user's credentials version when
 * it was issued: a password change or reset raises the user's, and AuthService refuses older tokens.
 * A counter rather than comparing `iat` with the change's time: `iat` has whole seconds, and a clock
 * that jumps backwards would let an older token pass or refuse a fresh one.
 */
export interface VerifiedClaims extends TokenClaims {
  credentialsVersion: number;
}

/** Signs and verifies bearer tokens: HS256 only, `exp` required, max age 1800 s (issued for `ttlSeconds`, at most that). */
export class TokenService {
  private readonly ttlSeconds: number;

  constructor(
    private readonly key: Uint8Array,
    private readonly now: () => number = Date.now,
    ttlSeconds: number = TOKEN_MAX_AGE_SECONDS,
  ) {
    this.ttlSeconds = Math.min(TOKEN_MAX_AGE_SECONDS, Math.max(1, Math.floor(ttlSeconds)));
  }

  async issue(claims: TokenClaims, credentialsVersion = 0): Promise<IssuedToken> {
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresAtSeconds = issuedAt + this.ttlSeconds;
    const token = await new SignJWT({ username: claims.username, roles: claims.roles, scopes: claims.scopes, cv: credentialsVersion })
      .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(issuer)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAtSeconds)
      .sign(this.key);
    return { token, expiresAt: new Date(expiresAtSeconds * 1000) };
  }

  /** Throws ExchangeError AUTH_TOKEN_EXPIRED or AUTH_TOKEN_INVALID. */
  async verify(token: string): Promise<VerifiedClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [algorithm],
        issuer,
        requiredClaims: ['exp', 'iat', 'sub'],
        maxTokenAge: TOKEN_MAX_AGE_SECONDS,
        currentDate: new Date(this.now()),
        clockTolerance: 0,
      });
      if (typeof payload.sub !== 'string' || typeof payload.username !== 'string') throw new ExchangeError(apiError('AUTH_TOKEN_INVALID'));
      return {
        sub: payload.sub,
        username: payload.username,
        roles: Array.isArray(payload.roles) ? payload.roles.map(String) : [],
        scopes: Array.isArray(payload.scopes) ? payload.scopes.map(String) : [],
        // Tokens made before versions existed carry none: version 0, which every user starts at.
        credentialsVersion: typeof payload.cv === 'number' ? payload.cv : 0,
      };
    } catch (error) {
      if (error instanceof ExchangeError) throw error;
      if (error instanceof errors.JWTExpired) throw new ExchangeError(apiError('AUTH_TOKEN_EXPIRED'));
      throw new ExchangeError(apiError('AUTH_TOKEN_INVALID'));
    }
  }
}

/** Pulls the token out of `Authorization: Bearer <token>`; throws AUTH_TOKEN_MISSING. */
export function bearerToken(header: string | undefined): string {
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null;
  if (!match?.[1]) throw new ExchangeError(apiError('AUTH_TOKEN_MISSING'));
  return match[1];
}
