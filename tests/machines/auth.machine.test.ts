/** Auth machine: coverage, sign-in flows, token expiry 500 ms early on an injected clock, the REST defaults. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { LoginResponse, UserInfo } from '../../protocol/auth.ts';
import { TOKEN_EXPIRY_MARGIN_MS } from '../../protocol/auth.ts';
import { authMachine, authMachineWithApi, canRequest, parseExpiry, requestToken, type Credentials, type PasswordReset } from '../../machines/auth.machine.ts';
import { ApiCallError, createAuthApi, NETWORK_ERROR } from '../../streams/api.ts';
import { coverMachine } from './coverage.ts';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

const user: UserInfo = {
  userId: 'u1',
  username: 'broker1',
  name: 'Broker One',
  roles: ['broker'],
  scopes: [],
  broker: { id: 'b1', name: 'B1' },
  agency: null,
  terminal: null,
  clientCodes: ['C1'],
  marketIds: ['M1'],
  passwordExpiresAt: iso(T0 + 86_400_000),
  preferences: { language: 'ro', theme: 'light', notifications: true, soundNotifications: false },
};

const signIn = { type: 'SIGN_IN' as const, username: 'broker1', password: 'Secret#1', code: '123456' };
const reset = { type: 'RESET_PASSWORD' as const, currentPassword: 'Old#12345', code: '654321', newPassword: 'New#12345', confirmPassword: 'New#12345' };

describe('authMachine coverage', () => {
  it('reaches every state and every transition', () => {
    const refusal = (code: string) => ({ code, params: {} });
    const report = coverMachine(authMachine, {
      input: { now: () => T0 },
      samples: {
        SIGN_IN: [signIn],
        RESET_PASSWORD: [reset],
        RESTORE: [
          { type: 'RESTORE', token: 'kept', expiresAt: iso(T0 + 60_000) },
          { type: 'RESTORE', token: 'old', expiresAt: iso(T0 + 100) },
        ],
        TOKEN_REJECTED: [{ type: 'TOKEN_REJECTED', code: 'AUTH_TOKEN_EXPIRED' }],
        USER_UPDATED: [{ type: 'USER_UPDATED', user: { ...user, preferences: { ...user.preferences, theme: 'dark' } } }],
        'xstate.done.actor.login': [{ type: 'xstate.done.actor.login', output: { token: 'tok', expiresAt: iso(T0 + 1_800_000) } }],
        'xstate.error.actor.login': [
          { type: 'xstate.error.actor.login', error: refusal('AUTH_PASSWORD_EXPIRED') },
          { type: 'xstate.error.actor.login', error: refusal('AUTH_CREDENTIALS_INVALID') },
        ],
        'xstate.done.actor.resetExpiredPassword': [{ type: 'xstate.done.actor.resetExpiredPassword', output: { token: 'tok2', expiresAt: iso(T0 + 1_800_000) } }],
        'xstate.error.actor.resetExpiredPassword': [{ type: 'xstate.error.actor.resetExpiredPassword', error: refusal('AUTH_PASSWORD_USED_BEFORE') }],
        'xstate.done.actor.userInfo': [{ type: 'xstate.done.actor.userInfo', output: user }],
        'xstate.error.actor.userInfo': [
          { type: 'xstate.error.actor.userInfo', error: refusal('AUTH_TOKEN_EXPIRED') },
          { type: 'xstate.error.actor.userInfo', error: refusal('SERVICE_UNAVAILABLE') },
        ],
      } as never,
    });
    expect(report.states).toEqual([
      'auth.passwordExpired',
      'auth.resetting',
      'auth.signedIn',
      'auth.signedIn.loadingUser',
      'auth.signedIn.ready',
      'auth.signedIn.userUnavailable',
      'auth.signedOut',
      'auth.signingIn',
      'auth.tokenExpired',
    ]);
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.transitions).toContain('auth.signedIn --xstate.after.tokenExpiry.auth.signedIn#0--> auth.tokenExpired');
    expect(report.paths).toContainEqual(['SIGN_IN', 'xstate.error.actor.login', 'RESET_PASSWORD']);
  });
});

interface Calls {
  login: Credentials[];
  reset: Array<PasswordReset & { username: string }>;
  userInfo: string[];
}

/** The machine with scripted calls: each queue entry is an answer or an error to throw. */
function scripted(answers: { login?: Array<LoginResponse | Error | object>; reset?: Array<LoginResponse | object>; userInfo?: Array<UserInfo | object> }) {
  const calls: Calls = { login: [], reset: [], userInfo: [] };
  const next = async <T,>(queue: Array<T | object> | undefined): Promise<T> => {
    const answer = queue?.shift();
    if (answer === undefined) throw new Error('no scripted answer');
    if (answer instanceof Error || (typeof answer === 'object' && answer !== null && 'code' in answer && !('token' in answer))) throw answer;
    return answer as T;
  };
  const machine = authMachine.provide({
    actors: {
      login: fromPromise<LoginResponse, Credentials>(async ({ input }) => {
        calls.login.push(input);
        return next<LoginResponse>(answers.login);
      }),
      resetExpiredPassword: fromPromise<LoginResponse, PasswordReset & { username: string }>(async ({ input }) => {
        calls.reset.push(input);
        return next<LoginResponse>(answers.reset);
      }),
      userInfo: fromPromise<UserInfo, { token: string }>(async ({ input }) => {
        calls.userInfo.push(input.token);
        return next<UserInfo>(answers.userInfo);
      }),
    },
  });
  return { machine, calls };
}

/** A clock the test moves together with the fake timers. */
function manualClock(start = T0) {
  let t = start;
  return {
    now: () => t,
    async advance(ms: number) {
      t += ms;
      await vi.advanceTimersByTimeAsync(ms);
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('sign-in', () => {
  it('signs in, loads the user, allows requests, and treats the token as expired 500 ms before expiresAt', async () => {
    const clock = manualClock();
    const expiresAt = T0 + 10_000;
    const { machine, calls } = scripted({ login: [{ token: 'tok-1', expiresAt: iso(expiresAt) }], userInfo: [user] });
    const actor = createActor(machine, { input: { now: clock.now } }).start();
    expect(canRequest(actor.getSnapshot())).toBe(false);
    actor.send(signIn);
    expect(actor.getSnapshot().value).toBe('signingIn');
    await clock.advance(0);
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'ready' });
    expect(calls.login).toEqual([{ username: 'broker1', password: 'Secret#1', code: '123456' }]);
    expect(calls.userInfo).toEqual(['tok-1']);
    expect(actor.getSnapshot().context).toMatchObject({ token: 'tok-1', expiresAt, user, error: null, pendingCredentials: null });
    expect(requestToken(actor.getSnapshot())).toBe('tok-1');
    // One millisecond before the margin: still usable.
    await clock.advance(10_000 - TOKEN_EXPIRY_MARGIN_MS - 1);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(canRequest(actor.getSnapshot())).toBe(true);
    // At expiresAt - 500 ms the token counts as expired.
    await clock.advance(1);
    expect(actor.getSnapshot().value).toBe('tokenExpired');
    expect(actor.getSnapshot().context).toMatchObject({ token: null, error: { code: 'AUTH_TOKEN_EXPIRED', params: {} } });
    expect(canRequest(actor.getSnapshot())).toBe(false);
    expect(requestToken(actor.getSnapshot())).toBeNull();
    actor.stop();
  });

  it('blocks requests once the clock passes the margin, even before the timer fires (a sleeping laptop)', async () => {
    const clock = manualClock();
    const { machine } = scripted({ login: [{ token: 'tok', expiresAt: iso(T0 + 60_000) }], userInfo: [user] });
    const actor = createActor(machine, { input: { now: clock.now } }).start();
    actor.send(signIn);
    await clock.advance(0);
    expect(canRequest(actor.getSnapshot(), T0 + 60_000 - 501)).toBe(true);
    expect(canRequest(actor.getSnapshot(), T0 + 60_000 - 500)).toBe(false);
    expect(canRequest(actor.getSnapshot(), T0 + 60_000)).toBe(false);
    actor.stop();
  });

  it('keeps a refusal as {code, params} and forgets the password', async () => {
    const { machine } = scripted({ login: [new ApiCallError('AUTH_TOO_MANY_ATTEMPTS', { retryAfterSeconds: 900 }, 429)] });
    const actor = createActor(machine, { input: { now: () => T0 } }).start();
    actor.send(signIn);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.error).toEqual({ code: 'AUTH_TOO_MANY_ATTEMPTS', params: { retryAfterSeconds: 900 } });
    expect(actor.getSnapshot().context.pendingCredentials).toBeNull();
    actor.stop();
  });

  it('an unknown failure becomes UNKNOWN_ERROR', async () => {
    const { machine } = scripted({ login: [new Error('boom')] });
    const actor = createActor(machine, { input: { now: () => T0 } }).start();
    actor.send(signIn);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.error).toEqual({ code: 'UNKNOWN_ERROR', params: {} });
    actor.stop();
  });
});

describe('expired password', () => {
  it('goes to the reset flow, resets with the username and signs in; a refused reset stays there with the error', async () => {
    const { machine, calls } = scripted({
      login: [new ApiCallError('AUTH_PASSWORD_EXPIRED', {}, 403)],
      reset: [new ApiCallError('AUTH_PASSWORD_USED_BEFORE', {}, 422), { token: 'tok-r', expiresAt: iso(T0 + 1_800_000) }],
      userInfo: [user],
    });
    const actor = createActor(machine, { input: { now: () => T0 } }).start();
    actor.send(signIn);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('passwordExpired');
    expect(actor.getSnapshot().context).toMatchObject({ username: 'broker1', error: { code: 'AUTH_PASSWORD_EXPIRED', params: {} }, pendingCredentials: null });
    actor.send(reset);
    expect(actor.getSnapshot().value).toBe('resetting');
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('passwordExpired');
    expect(actor.getSnapshot().context.error).toEqual({ code: 'AUTH_PASSWORD_USED_BEFORE', params: {} });
    actor.send({ ...reset, newPassword: 'Newer#123', confirmPassword: 'Newer#123' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'ready' });
    expect(calls.reset.at(-1)).toEqual({ username: 'broker1', currentPassword: 'Old#12345', code: '654321', newPassword: 'Newer#123', confirmPassword: 'Newer#123' });
    expect(actor.getSnapshot().context).toMatchObject({ token: 'tok-r', pendingReset: null });
    actor.stop();
  });

  it('CANCEL leaves the reset flow for signedOut', async () => {
    const { machine } = scripted({ login: [new ApiCallError('AUTH_PASSWORD_EXPIRED', {}, 403)] });
    const actor = createActor(machine, { input: { now: () => T0 } }).start();
    actor.send(signIn);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context).toMatchObject({ username: null, error: null });
    actor.stop();
  });
});

describe('token rejection, restore, sign out', () => {
  it('TOKEN_REJECTED and a rejected userInfo end the session; signing in again works', async () => {
    const { machine } = scripted({
      login: [
        { token: 'a', expiresAt: iso(T0 + 1_800_000) },
        { token: 'b', expiresAt: iso(T0 + 1_800_000) },
      ],
      userInfo: [user, new ApiCallError('AUTH_TOKEN_INVALID', {}, 401)],
    });
    const actor = createActor(machine, { input: { now: () => T0 } }).start();
    actor.send(signIn);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'TOKEN_REJECTED', code: 'AUTH_TOKEN_EXPIRED' });
    expect(actor.getSnapshot().value).toBe('tokenExpired');
    expect(actor.getSnapshot().context.token).toBeNull();
    actor.send(signIn);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('tokenExpired');
    actor.send({ type: 'SIGN_OUT' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context).toMatchObject({ token: null, user: null, username: null, error: null });
    actor.stop();
  });

  it('a user info failure other than the token keeps the session and can be retried', async () => {
    const { machine } = scripted({ login: [{ token: 'a', expiresAt: iso(T0 + 1_800_000) }], userInfo: [new ApiCallError('SERVICE_UNAVAILABLE', {}, 503), user] });
    const actor = createActor(machine, { input: { now: () => T0 } }).start();
    actor.send(signIn);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'userUnavailable' });
    expect(canRequest(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'RETRY_USER' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'ready' });
    actor.stop();
  });

  it('RESTORE takes a kept token only while it is usable', async () => {
    const { machine } = scripted({ userInfo: [user] });
    const actor = createActor(machine, { input: { now: () => T0 } }).start();
    actor.send({ type: 'RESTORE', token: 'stale', expiresAt: iso(T0 + 500) });
    expect(actor.getSnapshot().value).toBe('signedOut');
    actor.send({ type: 'RESTORE', token: 'kept', expiresAt: iso(T0 + 501) });
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('tokenExpired');
    actor.stop();
  });

  it("USER_UPDATED replaces the signed-in user's data, never another user's", async () => {
    const { machine } = scripted({ userInfo: [user] });
    const actor = createActor(machine, { input: { now: () => T0 } }).start();
    actor.send({ type: 'RESTORE', token: 'kept', expiresAt: iso(T0 + 60_000) });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ signedIn: 'ready' })).toBe(true);
    const darker = { ...user, preferences: { ...user.preferences, theme: 'dark' as const } };
    actor.send({ type: 'USER_UPDATED', user: darker });
    expect(actor.getSnapshot().context.user?.preferences.theme).toBe('dark');
    actor.send({ type: 'USER_UPDATED', user: { ...darker, userId: 'someone-else', name: 'Other' } });
    expect(actor.getSnapshot().context.user?.name).toBe('Broker One');
    actor.stop();
  });

  it('parseExpiry falls back to the maximum age for an unreadable date', () => {
    expect(parseExpiry('not a date', T0)).toBe(T0 + 1_800_000);
    expect(parseExpiry(iso(T0 + 5), T0)).toBe(T0 + 5);
  });
});

describe('the default REST actors', () => {
  function fakeFetch(routes: Record<string, (init: RequestInit) => Response | Promise<Response>>) {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const fetchImpl = (async (url: string | URL | Request, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${String(url)}`;
      seen.push({ url: String(url), init });
      const route = routes[key];
      if (!route) throw new TypeError('fetch failed');
      return route(init);
    }) as typeof fetch;
    return { fetchImpl, seen };
  }
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('signs in over fetch with the protocol bodies and the bearer token', async () => {
    vi.useRealTimers();
    const { fetchImpl, seen } = fakeFetch({
      'POST /session/api/login': () => json(200, { token: 'jwt', expiresAt: iso(Date.now() + 1_800_000) }),
      'GET /session/api/user/info': () => json(200, user),
    });
    const actor = createActor(authMachineWithApi(createAuthApi({ fetch: fetchImpl })), { input: {} }).start();
    actor.send(signIn);
    await waitFor(actor, (s) => s.matches({ signedIn: 'ready' }), { timeout: 2_000 });
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ username: 'broker1', password: 'Secret#1', code: '123456' });
    expect((seen[1]!.init.headers as Record<string, string>)['Authorization']).toBe('Bearer jwt');
    expect(actor.getSnapshot().context.user).toEqual(user);
    actor.stop();
  });

  it('turns an error body into {code, params}, an expired password into the reset flow, and no answer into CLIENT_NETWORK_ERROR', async () => {
    vi.useRealTimers();
    const { fetchImpl, seen } = fakeFetch({
      'POST /api/login': () => json(403, { error: { code: 'AUTH_PASSWORD_EXPIRED', params: {} } }),
      'POST /api/password/reset-expired': () => json(422, { error: { code: 'AUTH_PASSWORD_INVALID', params: { minLength: 8 } } }),
    });
    const actor = createActor(authMachineWithApi(createAuthApi({ baseUrl: '/api', fetch: fetchImpl })), { input: {} }).start();
    actor.send(signIn);
    await waitFor(actor, (s) => s.matches('passwordExpired'), { timeout: 2_000 });
    actor.send(reset);
    await waitFor(actor, (s) => s.matches('passwordExpired') && s.context.error?.code === 'AUTH_PASSWORD_INVALID', { timeout: 2_000 });
    expect(actor.getSnapshot().context.error).toEqual({ code: 'AUTH_PASSWORD_INVALID', params: { minLength: 8 } });
    expect(JSON.parse(String(seen[1]!.init.body))).toEqual({ username: 'broker1', currentPassword: 'Old#12345', code: '654321', newPassword: 'New#12345', confirmPassword: 'New#12345' });
    actor.stop();

    const offline = createActor(authMachineWithApi(createAuthApi({ fetch: fakeFetch({}).fetchImpl })), { input: {} }).start();
    offline.send(signIn);
    await waitFor(offline, (s) => s.matches('signedOut') && s.context.error !== null, { timeout: 2_000 });
    expect(offline.getSnapshot().context.error).toEqual({ code: NETWORK_ERROR, params: {} });
    offline.stop();
  });
});
