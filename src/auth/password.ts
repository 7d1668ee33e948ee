import { PASSWORD_MIN_LENGTH, passwordMeetsPolicy } from '../../protocol/auth.ts';
import type { MessageKey } from '../i18n/messages/index.ts';

export { PASSWORD_MIN_LENGTH };

/** SPEC §5 checks done before asking the server: the policy, then the confirmation. */
export interface NewPasswordErrors {
  newPassword?: MessageKey;
  confirmPassword?: MessageKey;
}

export function checkNewPassword(newPassword: string, confirmPassword: string): NewPasswordErrors {
  const errors: NewPasswordErrors = {};
  if (newPassword === '') errors.newPassword = 'validation.fieldRequired';
  else if (!passwordMeetsPolicy(newPassword)) errors.newPassword = 'validation.passwordInvalid';
  if (confirmPassword === '') errors.confirmPassword = 'validation.fieldRequired';
  else if (newPassword !== confirmPassword) errors.confirmPassword = 'validation.passwordsNotMatching';
  return errors;
}

/** Each rule of the policy, for the checklist under the new password field. */
export const passwordRules: ReadonlyArray<{ key: MessageKey; test: (candidate: string) => boolean }> = [
  { key: 'password.rule.length', test: (candidate) => candidate.length >= PASSWORD_MIN_LENGTH },
  { key: 'password.rule.uppercase', test: (candidate) => /[A-Z]/.test(candidate) },
  { key: 'password.rule.lowercase', test: (candidate) => /[a-z]/.test(candidate) },
  { key: 'password.rule.digit', test: (candidate) => /\d/.test(candidate) },
  { key: 'password.rule.symbol', test: (candidate) => /[^A-Za-z0-9]/.test(candidate) },
];

/** The password-expires-soon indicator shows from this many days before the expiry. */
export const PASSWORD_EXPIRY_WARNING_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PasswordExpiry {
  /** Whole days left, rounded up (0 when it expires today or has expired). */
  daysLeft: number;
  soon: boolean;
}

export function passwordExpiry(passwordExpiresAt: string, now = Date.now()): PasswordExpiry | null {
  const at = Date.parse(passwordExpiresAt);
  if (Number.isNaN(at)) return null;
  const daysLeft = Math.max(0, Math.ceil((at - now) / DAY_MS));
  return { daysLeft, soon: daysLeft <= PASSWORD_EXPIRY_WARNING_DAYS };
}

/**
 * The current password typed on the login page, handed to the reset page when the server says it
 * expired, so the user does not type it twice. Kept in memory only and read once.
 */
let handoff: { username: string; password: string } | null = null;
export function handOffExpiredPassword(username: string, password: string): void {
  handoff = { username, password };
}
export function takeExpiredPassword(username: string): string | null {
  const value = handoff && handoff.username === username ? handoff.password : null;
  handoff = null;
  return value;
}
