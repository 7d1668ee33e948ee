import {
  loginHistoryResponseSchema,
  loginResponseSchema,
  preferencesSchema,
  type ChangePasswordRequest,
  type LoginHistoryEntry,
  type LoginResponse,
  type Preferences,
} from '../../protocol/auth.ts';
import { authedRequest } from './http.ts';

/** POST /user/password: answers with a fresh token (the change revokes every earlier one, this session's too). */
export function changePassword(request: ChangePasswordRequest): Promise<LoginResponse> {
  return authedRequest('/user/password', (body) => loginResponseSchema.safeParse(body).data ?? null, { method: 'POST', body: request });
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
