/**
 * Sign-in and the token's life:
 *
 *   signedOut --SIGN_IN--> signingIn --ok--> signedIn (loadingUser -> ready | userUnavailable)
 *                               |--AUTH_PASSWORD_EXPIRED--> passwordExpired --RESET_PASSWORD--> resetting --ok--> signedIn
 *                               '--other error--> signedOut (error kept)
 *   signedIn --(expiresAt - 500 ms)--> tokenExpired --SIGN_IN--> signingIn
 *   signedIn | tokenExpired | passwordExpired --SIGN_OUT / CANCEL--> signedOut
 *   signedIn.ready --USER_UPDATED (same user)--> signedIn.ready with the new user data
 *
 * The token counts as expired TOKEN_EXPIRY_MARGIN_MS before its real expiry: a delayed transition
 * computed from expiresAt and the injectable clock (`input.now`). A request refused with
 * AUTH_TOKEN_EXPIRED/INVALID (TOKEN_REJECTED) ends the session the same way. `canRequest` blocks
 * requests with an expired token. Errors are kept as `{ code, params }`.
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
  | { type: 'USER_UPDATED'; user: UserInfo };

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
      return code === 'AUTH_TOKEN_EXPIRED' || code === 'AUTH_TOKEN_INVALID';
    },
    isSameUser: ({ context, event }) => event.type === 'USER_UPDATED' && context.user?.userId === event.user.userId,
    restoredTokenUsable: ({ context, event }) => event.type === 'RESTORE' && tokenUsable(parseExpiry(event.expiresAt, context.now()), context.now()),
  },
  actions: {
    rememberCredentials: assign(({ event }) =>
      event.type === 'SIGN_IN'
        ? { username: event.username, pendingCredentials: { username: event.username, password: event.password, code: event.code }, error: null }
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
    storeUser: assign((_, params: { user: UserInfo }) => ({ user: params.user })),
    storeError: assign((_, params: { error: unknown }) => ({ error: toClientError(params.error) })),
    forgetSecrets: assign({ pendingCredentials: null, pendingReset: null }),
    clearSession: assign({ token: null, expiresAt: null, user: null }),
    clearAll: assign({ token: null, expiresAt: null, user: null, pendingCredentials: null, pendingReset: null, error: null, username: null }),
    markTokenExpired: assign({ token: null, error: { code: 'AUTH_TOKEN_EXPIRED', params: {} } }),
  },
  delays: {
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
      initial: 'loadingUser',
      after: { tokenExpiry: { target: 'tokenExpired', actions: 'markTokenExpired' } },
      on: {
        SIGN_OUT: { target: 'signedOut', actions: 'clearAll' },
        TOKEN_REJECTED: { target: 'tokenExpired', actions: 'markTokenExpired' },
      },
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
    tokenExpired: {
      entry: 'clearSession',
      on: {
        SIGN_IN: { target: 'signingIn', actions: 'rememberCredentials' },
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
