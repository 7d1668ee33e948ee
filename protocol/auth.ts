import { z } from 'zod';
import { locales, roles, themes } from './enums.ts';

/** Constants of SPEC §9 that both sides use. */
export const TOKEN_MAX_AGE_SECONDS = 1800;
export const TOKEN_EXPIRY_MARGIN_MS = 500;
export const PASSWORD_MIN_LENGTH = 8;
/** A password older than this must be changed before the next sign-in. */
export const PASSWORD_MAX_AGE_DAYS = 90;

const username = z.string().trim().min(1).max(64);
const password = z.string().min(1).max(128);
/** Six digits; the login schema accepts an empty string so the server can answer AUTH_CODE_MISSING. */
const verificationCode = z.string().trim().max(12);

export const loginRequestSchema = z.strictObject({ username, password, code: verificationCode.optional() });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.strictObject({ token: z.string(), expiresAt: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const changePasswordRequestSchema = z.strictObject({
  currentPassword: password,
  newPassword: password,
  confirmPassword: password,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** Reset of an expired password: the user proves who they are with the old password and a code. */
export const resetExpiredPasswordRequestSchema = z.strictObject({
  username,
  currentPassword: password,
  code: verificationCode,
  newPassword: password,
  confirmPassword: password,
});
export type ResetExpiredPasswordRequest = z.infer<typeof resetExpiredPasswordRequestSchema>;

export const preferencesSchema = z.strictObject({
  language: z.enum(locales),
  theme: z.enum(themes),
  notifications: z.boolean(),
  soundNotifications: z.boolean(),
});
export type Preferences = z.infer<typeof preferencesSchema>;
export const defaultPreferences: Preferences = { language: 'ro', theme: 'light', notifications: true, soundNotifications: false };

export const userInfoSchema = z.strictObject({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  roles: z.array(z.enum(roles)),
  scopes: z.array(z.string()),
  broker: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
  agency: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
  terminal: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
  clientCodes: z.array(z.string()),
  marketIds: z.array(z.string()),
  passwordExpiresAt: z.string(),
  preferences: preferencesSchema,
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const loginHistoryEntrySchema = z.strictObject({ id: z.string(), ip: z.string(), timestamp: z.string() });
export type LoginHistoryEntry = z.infer<typeof loginHistoryEntrySchema>;
export const loginHistoryResponseSchema = z.strictObject({ items: z.array(loginHistoryEntrySchema) });

/** SPEC §5: at least 8 characters, one uppercase, one lowercase, one digit and one symbol. */
export function passwordMeetsPolicy(candidate: string): boolean {
  return (
    candidate.length >= PASSWORD_MIN_LENGTH &&
    /[A-Z]/.test(candidate) &&
    /[a-z]/.test(candidate) &&
    /\d/.test(candidate) &&
    /[^A-Za-z0-9]/.test(candidate)
  );
}

/** Claims the server puts in a token. */
export interface TokenClaims {
  sub: string;
  username: string;
  roles: string[];
  scopes: string[];
}
