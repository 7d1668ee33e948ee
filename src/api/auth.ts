import {
  loginHistoryResponseSchema,
  preferencesSchema,
  type ChangePasswordRequest,
  type LoginHistoryEntry,
  type Preferences,
} from '../../protocol/auth.ts';
import { authedRequest, noBody } from './http.ts';

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
