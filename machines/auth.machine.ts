/**
 * Sign-in and the token's life:
 *
 *   signedOut --SIGN_IN--> signingIn --ok--> signedIn
 *                               |--AUTH_PASSWORD_EXPIRED--> passwordExpired --RESET_PASSWORD--> resetting --ok--> signedIn
 *                               '--other error--> signedOut (error kept)
 *   signedIn is parallel:
 *     user:  loadingUser -> ready | userUnavailable (a refused token here: tokenExpired, there is no user to keep)
 *     token: valid --(expiresAt - 2 min)--> expiring --(expiresAt - 500 ms)--> expired
 *            expiring | expired --RENEW (password, new code)--> renewing --ok--> valid | --error--> expiring or expired
 *            any --TOKEN_RENEWED (another window signed in again)--> valid
 *   signedIn | tokenExpired | passwordExpired --SIGN_OUT / CANCEL--> signedOut
 *
 * The token counts as expired TOKEN_EXPIRY_MARGIN_MS before its real expiry: delayed transitions
 * computed from expiresAt and the injectable clock (`input.now`). A request refused with
 * AUTH_TOKEN_EXPIRED/INVALID (TOKEN_REJECTED) expires it the same way. An expired token keeps the
 * user and the page (signedIn.token.expired): the screens say so and offer no actions until RENEW.
 * `canRequest` blocks requests with an expired token. Errors are kept as `{ code, params }`.
 * The calls are injected actors (fromPromise): `authMachineWithApi(createAuthApi())` for the real ones.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { TOKEN_EXPIRY_MARGIN_MS, TOKEN_MAX_AGE_SECONDS, type LoginResponse, type UserInfo } from '../protocol/auth.ts';
import { toClientError, type AuthApi, type ClientError } from '../streams/api.ts';

export interface Credentials {
  username: string;
  password: string;
  code: string;
}

export interface PasswordReset {
  currentPassword: string;
  code: string;
  newPassword: string;
  confirmPassword: string;
}

export type AuthEvent =
  | ({ type: 'SIGN_IN' } & Credentials)
  | ({ type: 'RESET_PASSWORD' } & PasswordReset)
  | { type: 'SIGN_OUT' }
  /** Leave the reset flow. */
  | { type: 'CANCEL' }
  /** A session kept from before (tab reload): used only if its token is still valid. */
  | { type: 'RESTORE'; token: string; expiresAt: string }
  /** A request was refused with AUTH_TOKEN_EXPIRED or AUTH_TOKEN_INVALID. */
  | { type: 'TOKEN_REJECTED'; code: string }
  | { type: 'RETRY_USER' }
  /** The signed-in user's data changed (preferences saved, password changed): the server's new copy. */
  | { type: 'USER_UPDATED'; user: UserInfo }
  /** Sign in again as the same user before (or after) the token expires, keeping the page. */
  | ({ type: 'RENEW' } & Renewal)
  /** Another window of the browser signed in again: its token replaces this one. */
  | { type: 'TOKEN_RENEWED'; token: string; expiresAt: string };

export interface Renewal {
  password: string;
  code: string;
}

export interface AuthContext {
  username: string | null;
  /** Kept for the reset flow only, dropped as soon as it is used. */
  pendingCredentials: Credentials | null;
  pendingReset: PasswordReset | null;
  token: string | null;
  /** Real expiry of the token, epoch ms. */
  expiresAt: number | null;
  user: UserInfo | null;
  error: ClientError | null;
  now: () => number;
}

export interface AuthInput {
  /** The clock; default Date.now. */
  now?: () => number;
}

/** How long before the token's expiry the warning (countdown and the dialog to sign in again) starts. */
export const TOKEN_WARNING_MS = 120_000;

/** Epoch ms of an expiresAt from the server; an unreadable one falls back to the maximum age. */
export function parseExpiry(expiresAt: string, now: number): number {
  const parsed = Date.parse(expiresAt);
  return Number.isNaN(parsed) ? now + TOKEN_MAX_AGE_SECONDS * 1000 : parsed;
}

/** True while `now` is before the token's expiry minus the margin. */
export function tokenUsable(expiresAt: number | null, now: number): boolean {
  return expiresAt !== null && now < expiresAt - TOKEN_EXPIRY_MARGIN_MS;
}

function notProvided(name: string): never {
  throw new Error(`${name} actor not provided: use authMachine.provide() or authMachineWithApi()`);
}

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
  },
  actors: {
    login: fromPromise<LoginResponse, Credentials>(async () => notProvided('login')),
    resetExpiredPassword: fromPromise<LoginResponse, PasswordReset & { username: string }>(async () => notProvided('resetExpiredPassword')),
    userInfo: fromPromise<UserInfo, { token: string }>(async () => notProvided('userInfo')),
  },
  guards: {
    isPasswordExpired: ({ event }) => toClientError((event as { error?: unknown }).error).code === 'AUTH_PASSWORD_EXPIRED',
    isTokenRejection: ({ event }) => {
      const code = toClientError((event as { error?: unknown }).error).code;
      return code === 'AUTH_TOKEN_EXPIRED' || code === 'AUTH_TOKEN_INVALID' || code === 'AUTH_TOKEN_REVOKED';
    },
    isSameUser: ({ context, event }) => event.type === 'USER_UPDATED' && context.user?.userId === event.user.userId,
    restoredTokenUsable: ({ context, event }) => event.type === 'RESTORE' && tokenUsable(parseExpiry(event.expiresAt, context.now()), context.now()),
    /**
     * Another window's token, or the one a password change returned: a different, usable one that lasts
     * at least as long as ours (as long: a change in the second of the sign-in; whole-second expiries).
     */
    isNewerToken: ({ context, event }) => {
      if (event.type !== 'TOKEN_RENEWED' || event.token === context.token) return false;
      const expiresAt = parseExpiry(event.expiresAt, context.now());
      return tokenUsable(expiresAt, context.now()) && expiresAt >= (context.expiresAt ?? 0);
    },
    tokenStillUsable: ({ context }) => context.token !== null && tokenUsable(context.expiresAt, context.now()),
  },
  actions: {
    rememberCredentials: assign(({ event }) =>
      event.type === 'SIGN_IN'
        ? { username: event.username, pendingCredentials: { username: event.username, password: event.password, code: event.code }, error: null }
        : {},
    ),
    /** The renewal signs in as the user already signed in, never another. */
    rememberRenewal: assign(({ context, event }) =>
      event.type === 'RENEW'
        ? { pendingCredentials: { username: context.user?.username ?? context.username ?? '', password: event.password, code: event.code }, error: null }
        : {},
    ),
    rememberReset: assign(({ event }) =>
      event.type === 'RESET_PASSWORD'
        ? { pendingReset: { currentPassword: event.currentPassword, code: event.code, newPassword: event.newPassword, confirmPassword: event.confirmPassword }, error: null }
        : {},
    ),
    storeToken: assign(({ context }, params: { token: string; expiresAt: string }) => ({
      token: params.token,
      expiresAt: parseExpiry(params.expiresAt, context.now()),
      pendingCredentials: null,
      pendingReset: null,
      error: null,
    })),
    storeUser: assign((_, params: { user: UserInfo }) => ({ user: params.user, username: params.user.username })),
    storeError: assign((_, params: { error: unknown }) => ({ error: toClientError(params.error) })),
    forgetSecrets: assign({ pendingCredentials: null, pendingReset: null }),
    clearSession: assign({ token: null, expiresAt: null, user: null }),
    clearAll: assign({ token: null, expiresAt: null, user: null, pendingCredentials: null, pendingReset: null, error: null, username: null }),
    markTokenExpired: assign({ token: null, error: { code: 'AUTH_TOKEN_EXPIRED', params: {} } }),
    dropToken: assign({ token: null }),
  },
  delays: {
    /** Until the warning: expiresAt - 2 min - now (never negative). */
    tokenWarning: ({ context }) => Math.max(0, (context.expiresAt ?? 0) - TOKEN_WARNING_MS - context.now()),
    /** Until the token counts as expired: expiresAt - margin - now (never negative). */
    tokenExpiry: ({ context }) => Math.max(0, (context.expiresAt ?? 0) - TOKEN_EXPIRY_MARGIN_MS - context.now()),
  },
}).createMachine({
  id: 'auth',
  context: ({ input }) => ({
    username: null,
    pendingCredentials: null,
    pendingReset: null,
    token: null,
    expiresAt: null,
    user: null,
    error: null,
    now: input?.now ?? Date.now,
  }),
  initial: 'signedOut',
  states: {
    signedOut: {
      on: {
        SIGN_IN: { target: 'signingIn', actions: 'rememberCredentials' },
        RESTORE: {
          guard: 'restoredTokenUsable',
          target: 'signedIn',
          actions: { type: 'storeToken', params: ({ event }) => ({ token: event.token, expiresAt: event.expiresAt }) },
        },
      },
    },
    signingIn: {
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ context }) => context.pendingCredentials!,
        onDone: { target: 'signedIn', actions: { type: 'storeToken', params: ({ event }) => ({ token: event.output.token, expiresAt: event.output.expiresAt }) } },
        onError: [
          // The reset asks for the old password and a new code again: nothing is kept but the username.
          { guard: 'isPasswordExpired', target: 'passwordExpired', actions: [{ type: 'storeError', params: ({ event }) => ({ error: event.error }) }, 'forgetSecrets'] },
          { target: 'signedOut', actions: [{ type: 'storeError', params: ({ event }) => ({ error: event.error }) }, 'forgetSecrets'] },
        ],
      },
    },
    passwordExpired: {
      on: {
        RESET_PASSWORD: { target: 'resetting', actions: 'rememberReset' },
        CANCEL: { target: 'signedOut', actions: 'clearAll' },
      },
    },
    resetting: {
      invoke: {
        id: 'resetExpiredPassword',
        src: 'resetExpiredPassword',
        input: ({ context }) => ({ username: context.username ?? '', ...context.pendingReset! }),
        onDone: { target: 'signedIn', actions: { type: 'storeToken', params: ({ event }) => ({ token: event.output.token, expiresAt: event.output.expiresAt }) } },
        onError: { target: 'passwordExpired', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    signedIn: {
      type: 'parallel',
      on: {
        SIGN_OUT: { target: 'signedOut', actions: 'clearAll' },
      },
      states: {
        user: {
          initial: 'loadingUser',
          states: {
            loadingUser: {
              invoke: {
                id: 'userInfo',
                src: 'userInfo',
                input: ({ context }) => ({ token: context.token! }),
                onDone: { target: 'ready', actions: { type: 'storeUser', params: ({ event }) => ({ user: event.output }) } },
                onError: [
                  { guard: 'isTokenRejection', target: '#auth.tokenExpired', actions: 'markTokenExpired' },
                  { target: 'userUnavailable', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
                ],
              },
            },
            ready: {
              on: {
                USER_UPDATED: { guard: 'isSameUser', actions: { type: 'storeUser', params: ({ event }) => ({ user: event.user }) } },
              },
            },
            userUnavailable: {
              on: { RETRY_USER: 'loadingUser' },
            },
          },
        },
        token: {
          initial: 'valid',
          on: {
            // A child target exits and enters the active child again: the timers start over for the new expiry.
            TOKEN_RENEWED: {
              guard: 'isNewerToken',
              target: '.valid',
              actions: { type: 'storeToken', params: ({ event }) => ({ token: event.token, expiresAt: event.expiresAt }) },
            },
          },
          states: {
            valid: {
              after: { tokenWarning: 'expiring' },
              on: { TOKEN_REJECTED: { target: 'expired', actions: 'markTokenExpired' } },
            },
            expiring: {
              after: { tokenExpiry: { target: 'expired', actions: 'markTokenExpired' } },
              on: {
                RENEW: { target: 'renewing', actions: 'rememberRenewal' },
                TOKEN_REJECTED: { target: 'expired', actions: 'markTokenExpired' },
              },
            },
            // The old token serves requests until it expires; a refusal meanwhile waits for the answer.
            renewing: {
              invoke: {
                id: 'renew',
                src: 'login',
                input: ({ context }) => context.pendingCredentials!,
                onDone: { target: 'valid', actions: { type: 'storeToken', params: ({ event }) => ({ token: event.output.token, expiresAt: event.output.expiresAt }) } },
                onError: [
                  { guard: 'tokenStillUsable', target: 'expiring', actions: [{ type: 'storeError', params: ({ event }) => ({ error: event.error }) }, 'forgetSecrets'] },
                  { target: 'expired', actions: ['dropToken', { type: 'storeError', params: ({ event }) => ({ error: event.error }) }, 'forgetSecrets'] },
                ],
              },
            },
            expired: {
              on: { RENEW: { target: 'renewing', actions: 'rememberRenewal' } },
            },
          },
        },
      },
    },
    tokenExpired: {
      entry: 'clearSession',
      on: {
        SIGN_IN: { target: 'signingIn', actions: 'rememberCredentials' },
        RESTORE: {
          guard: 'restoredTokenUsable',
          target: 'signedIn',
          actions: { type: 'storeToken', params: ({ event }) => ({ token: event.token, expiresAt: event.expiresAt }) },
        },
        SIGN_OUT: { target: 'signedOut', actions: 'clearAll' },
      },
    },
  },
});

export type AuthSnapshot = SnapshotFrom<typeof authMachine>;

/** A request may go out only when signed in with a token that is not (about to be) expired. */
export function canRequest(snapshot: AuthSnapshot, now: number = snapshot.context.now()): boolean {
  return snapshot.matches('signedIn') && snapshot.context.token !== null && tokenUsable(snapshot.context.expiresAt, now);
}

/** The bearer token for a request, or null when requests are blocked. */
export function requestToken(snapshot: AuthSnapshot, now: number = snapshot.context.now()): string | null {
  return canRequest(snapshot, now) ? snapshot.context.token : null;
}

export type TokenPhase = 'valid' | 'expiring' | 'renewing' | 'expired';

/** Where the signed-in session's token is in its life; null when not signed in. */
export function tokenPhase(snapshot: AuthSnapshot): TokenPhase | null {
  if (!snapshot.matches('signedIn')) return null;
  for (const phase of ['valid', 'expiring', 'renewing', 'expired'] as const) if (snapshot.matches({ signedIn: { token: phase } })) return phase;
  return null;
}

/** The machine with the real REST calls (streams/api.ts). */
export function authMachineWithApi(api: AuthApi) {
  return authMachine.provide({
    actors: {
      login: fromPromise<LoginResponse, Credentials>(({ input, signal }) => api.login({ username: input.username, password: input.password, code: input.code }, signal)),
      resetExpiredPassword: fromPromise<LoginResponse, PasswordReset & { username: string }>(({ input, signal }) => api.resetExpiredPassword(input, signal)),
      userInfo: fromPromise<UserInfo, { token: string }>(({ input, signal }) => api.userInfo(input.token, signal)),
    },
  });
}
