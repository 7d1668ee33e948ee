import type { LoginRequest, UserInfo } from '../../protocol/auth.ts';
import { fetchUserInfo, login } from '../api/auth.ts';
import { ApiRequestError } from '../api/errors.ts';
import { activeToken, endSession, getSession, setSessionUser, startSession } from './session.ts';

/** Login, then the user's profile; the session only stays if both succeed. */
export async function signIn(credentials: LoginRequest): Promise<UserInfo> {
  const { token, expiresAt } = await login(credentials);
  startSession(token, expiresAt);
  try {
    const user = await fetchUserInfo(token);
    setSessionUser(user);
    return user;
  } catch (error) {
    endSession();
    throw error;
  }
}

/** The signed-in user, fetched once per session. Requests with an expired token are never sent. */
export async function ensureUser(): Promise<UserInfo> {
  const cached = getSession()?.user;
  if (cached) return cached;
  const token = activeToken();
  if (!token) throw new ApiRequestError('AUTH_TOKEN_EXPIRED', {}, 401);
  try {
    const user = await fetchUserInfo(token);
    setSessionUser(user);
    return user;
  } catch (error) {
    if (error instanceof ApiRequestError && error.code.startsWith('AUTH_TOKEN_')) endSession();
    throw error;
  }
}
