import { Secret, TOTP } from 'otpauth';

/** RFC 6238 codes: 6 digits, 30 s steps, SHA-1 (what authenticator apps use). */
export const TOTP_PERIOD_SECONDS = 30;

function totpFor(secretBase32: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secretBase32), digits: 6, period: TOTP_PERIOD_SECONDS, algorithm: 'SHA1' });
}

export function currentCode(secretBase32: string, nowMs: number): string {
  return totpFor(secretBase32).generate({ timestamp: nowMs });
}

/**
 * The time step a code belongs to, within one step of clock drift either way; null when it matches none.
 * The caller accepts a step only when it is newer than the last accepted one, so a code works once.
 */
export function matchingStep(secretBase32: string, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}
