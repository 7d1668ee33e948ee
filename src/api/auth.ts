import {
  loginHistoryResponseSchema,
  loginResponseSchema,
  preferencesSchema,
  userInfoSchema,
  type ChangePasswordRequest,
  type LoginHistoryEntry,
  type LoginRequest,
  type LoginResponse,
  type Preferences,
  type ResetExpiredPasswordRequest,
  type UserInfo,
} from '../../protocol/auth.ts';
import { authedRequest, noBody, requestJson } from './http.ts';

/** POST /login: credentials plus verification code -> bearer token (SPEC §7). */
export function login(credentials: LoginRequest, signal?: AbortSignal): Promise<LoginResponse> {
  return requestJson('/login', (body) => loginResponseSchema.safeParse(body).data ?? null, {
    method: 'POST',
    body: credentials,
    ...(signal ? { signal } : {}),
  });
}

/** POST /password/reset-expired: sets a new password for an expired one and signs the user in. */
export function resetExpiredPassword(request: ResetExpiredPasswordRequest): Promise<LoginResponse> {
  return requestJson('/password/reset-expired', (body) => loginResponseSchema.safeParse(body).data ?? null, {
    method: 'POST',
    body: request,
  });
}

/** GET /user/info with the bearer token. */
export function fetchUserInfo(token: string, signal?: AbortSignal): Promise<UserInfo> {
  return requestJson('/user/info', (body) => userInfoSchema.safeParse(body).data ?? null, {
    token,
    ...(signal ? { signal } : {}),
  });
}

/** POST /user/password (204). */
export async function changePassword(request: ChangePasswordRequest): Promise<void> {
  await authedRequest('/user/password', noBody, { method: 'POST', body: request });
}

/** PUT /user/preferences: answers with the saved preferences. */
export function savePreferences(preferences: Preferences): Promise<Preferences> {
  return authedRequest('/user/preferences', (body) => preferencesSchema.safeParse(body).data ?? null, {
    method: 'PUT',
    body: preferences,
  });
}

/** GET /user/login-history. */
export async function fetchLoginHistory(signal?: AbortSignal): Promise<LoginHistoryEntry[]> {
  const { items } = await authedRequest('/user/login-history', (body) => loginHistoryResponseSchema.safeParse(body).data ?? null, {
    ...(signal ? { signal } : {}),
  });
  return items;
}
