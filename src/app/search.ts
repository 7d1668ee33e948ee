import { isSafeRedirect } from './middleware.ts';

/** Search params of the sign-in pages, validated by their routes (kept out of the pages' chunks). */
export interface LoginSearch {
  /** Where to go after signing in (an internal path). */
  redirect?: string;
  /** Why the user is here: the previous session expired. */
  reason?: 'expired';
}

export function validateLoginSearch(search: Record<string, unknown>): LoginSearch {
  return {
    ...(isSafeRedirect(search.redirect) ? { redirect: search.redirect } : {}),
    ...(search.reason === 'expired' ? { reason: 'expired' as const } : {}),
  };
}

export interface ResetPasswordSearch {
  /** Filled in when the login page sends a user whose password expired. */
  username?: string;
}

export function validateResetPasswordSearch(search: Record<string, unknown>): ResetPasswordSearch {
  const username = typeof search.username === 'string' ? search.username.slice(0, 64) : '';
  return username ? { username } : {};
}
