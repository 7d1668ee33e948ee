import type { LoginRequest, Preferences, ResetExpiredPasswordRequest, UserInfo } from '../../protocol/auth.ts';
import { httpStatusOf, isErrorCode } from '../../protocol/error-codes.ts';
import type { ClientError } from '../../streams/api.ts';
import { savePreferences } from '../api/auth.ts';
import { ApiRequestError } from '../api/errors.ts';
import { setTheme } from '../theme/theme.ts';
import { activeToken, authActor, authApi, endSession, getSession, setSessionUser, settledAuth, startSession } from './session.ts';

function toRequestError(error: ClientError | null | undefined): ApiRequestError {
  const code = error?.code ?? 'UNKNOWN_ERROR';
  return new ApiRequestError(code, error?.params ?? {}, isErrorCode(code) ? httpStatusOf(code) : 0);
}

/** The user of a session that reached signedIn.ready, or the refusal as an ApiRequestError. */
async function userOfSettledSession(): Promise<UserInfo> {
  const snapshot = await settledAuth();
  if (snapshot.matches({ signedIn: { user: 'ready' } })) {
    const user = getSession()?.user ?? snapshot.context.user;
    if (user) return user;
  }
  if (snapshot.matches('passwordExpired')) throw toRequestError(snapshot.context.error ?? { code: 'AUTH_PASSWORD_EXPIRED', params: {} });
  if (snapshot.matches({ signedIn: { user: 'userUnavailable' } })) {
    const error = toRequestError(snapshot.context.error);
    // The session only stays if the user could be loaded too.
    endSession();
    throw error;
  }
  throw toRequestError(snapshot.context.error ?? { code: 'AUTH_TOKEN_EXPIRED', params: {} });
}

/** Sign in (SIGN_IN): login, then the user's profile. AUTH_PASSWORD_EXPIRED leaves the machine in passwordExpired. */
export async function signIn(credentials: LoginRequest): Promise<UserInfo> {
  const snapshot = authActor.getSnapshot();
  if (!snapshot.matches('signedOut') && !snapshot.matches('tokenExpired')) authActor.send({ type: 'SIGN_OUT' });
  authActor.send({ type: 'SIGN_IN', username: credentials.username, password: credentials.password, code: credentials.code ?? '' });
  return userOfSettledSession();
}

/**
 * Reset of an expired password; the server signs the user in with the new one. After a sign-in that
 * found the password expired, the machine runs it (RESET_PASSWORD); opened directly, the page calls
 * the API and hands the token to the machine.
 */
export async function resetPasswordAndSignIn(request: ResetExpiredPasswordRequest): Promise<UserInfo> {
  const snapshot = authActor.getSnapshot();
  const { currentPassword, code, newPassword, confirmPassword } = request;
  if (snapshot.matches('passwordExpired') && snapshot.context.username === request.username) {
    authActor.send({ type: 'RESET_PASSWORD', currentPassword, code, newPassword, confirmPassword });
    return userOfSettledSession();
  }
  let answer;
  try {
    answer = await authApi.resetExpiredPassword(request);
  } catch (error) {
    throw toRequestError(error as ClientError);
  }
  startSession(answer.token, answer.expiresAt);
  return userOfSettledSession();
}

/** The signed-in user, loaded once per session by the machine. Requests with an expired token are never sent. */
export async function ensureUser(): Promise<UserInfo> {
  const cached = getSession()?.user;
  if (cached) return cached;
  if (authActor.getSnapshot().matches({ signedIn: { user: 'userUnavailable' } })) authActor.send({ type: 'RETRY_USER' });
  const snapshot = await settledAuth();
  if (snapshot.matches({ signedIn: { user: 'userUnavailable' } })) throw toRequestError(snapshot.context.error);
  const user = getSession()?.user;
  if (!user) throw new ApiRequestError('AUTH_TOKEN_EXPIRED', {}, 401);
  return user;
}

/** Fetches the user again (after a password change, for the new expiry date). */
export async function refreshUser(): Promise<UserInfo> {
  const token = activeToken();
  if (!token) throw new ApiRequestError('AUTH_TOKEN_EXPIRED', {}, 401);
  try {
    const user = await authApi.userInfo(token);
    setSessionUser(user);
    return user;
  } catch (error) {
    const refusal = toRequestError(error as ClientError);
    if (refusal.code.startsWith('AUTH_TOKEN_')) endSession('expired');
    throw refusal;
  }
}

/** Saves the preferences (PUT /user/preferences) and applies them. */
export async function updatePreferences(changes: Partial<Preferences>): Promise<Preferences> {
  const user = await ensureUser();
  const saved = await savePreferences({ ...user.preferences, ...changes });
  const latest = getSession()?.user ?? user;
  setSessionUser({ ...latest, preferences: saved });
  setTheme(saved.theme);
  return saved;
}

export function signOut(): void {
  endSession('signOut');
}

/** The signed-in user's theme applies as soon as the user is loaded (SPEC: kept in the preferences). */
let themedUser: UserInfo | null = null;
authActor.subscribe((snapshot) => {
  const user = snapshot.context.user;
  if (user && user !== themedUser) {
    themedUser = user;
    setTheme(user.preferences.theme);
  }
  if (!user) themedUser = null;
});
