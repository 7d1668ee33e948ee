/** Auth machine: coverage, sign-in flows, the expiry warning, renewal and expiry 500 ms early on an injected clock, the REST defaults. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { LoginResponse, UserInfo } from '../../protocol/auth.ts';
import { TOKEN_EXPIRY_MARGIN_MS } from '../../protocol/auth.ts';
import { authMachine, authMachineWithApi, canRequest, parseExpiry, requestToken, tokenPhase, TOKEN_WARNING_MS, type Credentials, type PasswordReset } from '../../machines/auth.machine.ts';
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
        RENEW: [{ type: 'RENEW', password: 'Secret#1', code: '222222' }],
        TOKEN_RENEWED: [{ type: 'TOKEN_RENEWED', token: 'from-another-window', expiresAt: iso(T0 + 1_900_000) }],
        'xstate.done.actor.renew': [{ type: 'xstate.done.actor.renew', output: { token: 'tok3', expiresAt: iso(T0 + 1_850_000) } }],
        'xstate.error.actor.renew': [{ type: 'xstate.error.actor.renew', error: refusal('AUTH_CODE_INVALID') }],
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
      'auth.signedIn.token',
      'auth.signedIn.token.expired',
      'auth.signedIn.token.expiring',
      'auth.signedIn.token.renewing',
      'auth.signedIn.token.valid',
      'auth.signedIn.user',
      'auth.signedIn.user.loadingUser',
      'auth.signedIn.user.ready',
      'auth.signedIn.user.userUnavailable',
      'auth.signedOut',
      'auth.signingIn',
      'auth.tokenExpired',
    ]);
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.transitions).toContain('auth.signedIn.token.valid --xstate.after.tokenWarning.auth.signedIn.token.valid#0--> auth.signedIn.token.expiring');
    expect(report.transitions).toContain('auth.signedIn.token.expiring --xstate.after.tokenExpiry.auth.signedIn.token.expiring#0--> auth.signedIn.token.expired');
    expect(report.transitions).toContain('auth.signedIn.token.renewing --xstate.error.actor.renew#0[tokenStillUsable]--> auth.signedIn.token.expiring');
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
  it('signs in, loads the user, allows requests, and treats the token as expired 500 ms before expiresAt (the user stays)', async () => {
    const clock = manualClock();
    const expiresAt = T0 + 10_000;
    const { machine, calls } = scripted({ login: [{ token: 'tok-1', expiresAt: iso(expiresAt) }], userInfo: [user] });
    const actor = createActor(machine, { input: { now: clock.now } }).start();
    expect(canRequest(actor.getSnapshot())).toBe(false);
    actor.send(signIn);
    expect(actor.getSnapshot().value).toBe('signingIn');
    await clock.advance(0);
    // Ten seconds of life is inside the two-minute warning: expiring at once.
    expect(actor.getSnapshot().value).toEqual({ signedIn: { user: 'ready', token: 'expiring' } });
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
    expect(actor.getSnapshot().value).toEqual({ signedIn: { user: 'ready', token: 'expired' } });
    expect(tokenPhase(actor.getSnapshot())).toBe('expired');
    expect(actor.getSnapshot().context).toMatchObject({ token: null, user, error: { code: 'AUTH_TOKEN_EXPIRED', params: {} } });
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
    expect(actor.getSnapshot().value).toEqual({ signedIn: { user: 'ready', token: 'valid' } });
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

describe('expiry warning and signing in again', () => {
  const LIFE = 1_800_000;

  it('warns two minutes before expiry; RENEW signs in again as the same user and the warning starts over', async () => {
    const clock = manualClock();
    const { machine, calls } = scripted({
      login: [
        { token: 'tok-1', expiresAt: iso(T0 + LIFE) },
        { token: 'tok-2', expiresAt: iso(T0 + 2 * LIFE) },
      ],
      userInfo: [user],
    });
    const actor = createActor(machine, { input: { now: clock.now } }).start();
    actor.send(signIn);
    await clock.advance(0);
    expect(tokenPhase(actor.getSnapshot())).toBe('valid');
    await clock.advance(LIFE - TOKEN_WARNING_MS - 1);
    expect(tokenPhase(actor.getSnapshot())).toBe('valid');
    await clock.advance(1);
    expect(tokenPhase(actor.getSnapshot())).toBe('expiring');
    expect(requestToken(actor.getSnapshot())).toBe('tok-1');

    actor.send({ type: 'RENEW', password: 'Secret#1', code: '222222' });
    expect(tokenPhase(actor.getSnapshot())).toBe('renewing');
    // The old token still serves requests while the renewal is on its way.
    expect(requestToken(actor.getSnapshot())).toBe('tok-1');
    await clock.advance(0);
    expect(calls.login.at(-1)).toEqual({ username: 'broker1', password: 'Secret#1', code: '222222' });
    expect(calls.userInfo).toEqual(['tok-1']); // the user is not loaded again
    expect(actor.getSnapshot().value).toEqual({ signedIn: { user: 'ready', token: 'valid' } });
    expect(actor.getSnapshot().context).toMatchObject({ token: 'tok-2', expiresAt: T0 + 2 * LIFE, user, pendingCredentials: null, error: null });

    // The timers follow the new expiry: no warning at the old one, a warning before the new one.
    await clock.advance(TOKEN_WARNING_MS);
    expect(tokenPhase(actor.getSnapshot())).toBe('valid');
    await clock.advance(LIFE - TOKEN_WARNING_MS);
    expect(tokenPhase(actor.getSnapshot())).toBe('expiring');
    actor.stop();
  });

  it('a refused renewal keeps the warning with the refusal and the old token; after expiry it keeps the user without a token', async () => {
    const clock = manualClock();
    const { machine } = scripted({
      login: [
        { token: 'tok-1', expiresAt: iso(T0 + 60_000) },
        new ApiCallError('AUTH_CODE_ALREADY_USED', {}, 401),
        new ApiCallError('AUTH_CODE_INVALID', {}, 401),
        { token: 'tok-2', expiresAt: iso(T0 + 60_000 + LIFE) },
      ],
      userInfo: [user],
    });
    const actor = createActor(machine, { input: { now: clock.now } }).start();
    actor.send(signIn);
    await clock.advance(0);
    expect(tokenPhase(actor.getSnapshot())).toBe('expiring');
    actor.send({ type: 'RENEW', password: 'Secret#1', code: '111111' });
    await clock.advance(0);
    expect(tokenPhase(actor.getSnapshot())).toBe('expiring');
    expect(actor.getSnapshot().context).toMatchObject({ token: 'tok-1', error: { code: 'AUTH_CODE_ALREADY_USED', params: {} }, pendingCredentials: null });

    await clock.advance(60_000);
    expect(tokenPhase(actor.getSnapshot())).toBe('expired');
    expect(actor.getSnapshot().context).toMatchObject({ token: null, user });
    expect(canRequest(actor.getSnapshot())).toBe(false);
    // Requests refused meanwhile change nothing.
    actor.send({ type: 'TOKEN_REJECTED', code: 'AUTH_TOKEN_EXPIRED' });
    expect(tokenPhase(actor.getSnapshot())).toBe('expired');

    actor.send({ type: 'RENEW', password: 'Secret#1', code: '333333' });
    await clock.advance(0);
    expect(tokenPhase(actor.getSnapshot())).toBe('expired');
    expect(actor.getSnapshot().context.error).toEqual({ code: 'AUTH_CODE_INVALID', params: {} });
    actor.send({ type: 'RENEW', password: 'Secret#1', code: '444444' });
    await clock.advance(0);
    expect(actor.getSnapshot().value).toEqual({ signedIn: { user: 'ready', token: 'valid' } });
    expect(requestToken(actor.getSnapshot())).toBe('tok-2');
    actor.stop();
  });

  it('a renewal that fails after the token ran out ends in expired without a token', async () => {
    const clock = manualClock();
    let fail!: (error: unknown) => void;
    const machine = authMachine.provide({
      actors: {
        login: fromPromise<LoginResponse, Credentials>(async ({ input }) =>
          input.code === '123456' ? { token: 'tok-1', expiresAt: iso(T0 + 10_000) } : new Promise<LoginResponse>((_, reject) => (fail = reject)),
        ),
        userInfo: fromPromise<UserInfo, { token: string }>(async () => user),
      },
    });
    const actor = createActor(machine, { input: { now: clock.now } }).start();
    actor.send(signIn);
    await clock.advance(0);
    actor.send({ type: 'RENEW', password: 'Secret#1', code: '999999' });
    await clock.advance(20_000);
    expect(tokenPhase(actor.getSnapshot())).toBe('renewing');
    fail(new ApiCallError('SERVICE_UNAVAILABLE', {}, 503));
    await clock.advance(0);
    expect(tokenPhase(actor.getSnapshot())).toBe('expired');
    expect(actor.getSnapshot().context).toMatchObject({ token: null, user, error: { code: 'SERVICE_UNAVAILABLE', params: {} } });
    actor.stop();
  });

  it('TOKEN_RENEWED (another window signed in again, or a password change) takes a newer or as long-lived token, in any phase, and ignores the same or an older one', async () => {
    const clock = manualClock();
    const { machine } = scripted({ login: [{ token: 'tok-1', expiresAt: iso(T0 + 60_000) }], userInfo: [user] });
    const actor = createActor(machine, { input: { now: clock.now } }).start();
    actor.send(signIn);
    await clock.advance(0);
    expect(tokenPhase(actor.getSnapshot())).toBe('expiring');
    actor.send({ type: 'TOKEN_RENEWED', token: 'tok-1', expiresAt: iso(T0 + LIFE) });
    actor.send({ type: 'TOKEN_RENEWED', token: 'older', expiresAt: iso(T0 + 30_000) });
    expect(actor.getSnapshot().context.token).toBe('tok-1');
    actor.send({ type: 'TOKEN_RENEWED', token: 'tok-w2', expiresAt: iso(T0 + LIFE) });
    expect(actor.getSnapshot().value).toEqual({ signedIn: { user: 'ready', token: 'valid' } });
    expect(actor.getSnapshot().context).toMatchObject({ token: 'tok-w2', expiresAt: T0 + LIFE });
    // A different token that lasts as long (a password change in the second of the sign-in) is taken too.
    actor.send({ type: 'TOKEN_RENEWED', token: 'tok-w2-changed', expiresAt: iso(T0 + LIFE) });
    expect(actor.getSnapshot().context).toMatchObject({ token: 'tok-w2-changed', expiresAt: T0 + LIFE });

    // Taken while valid: the warning follows the newest expiry, not the one before.
    actor.send({ type: 'TOKEN_RENEWED', token: 'tok-w2b', expiresAt: iso(T0 + LIFE + 60_000) });
    await clock.advance(LIFE - TOKEN_WARNING_MS);
    expect(tokenPhase(actor.getSnapshot())).toBe('valid');
    await clock.advance(60_000);
    expect(tokenPhase(actor.getSnapshot())).toBe('expiring');
    await clock.advance(TOKEN_WARNING_MS);
    expect(tokenPhase(actor.getSnapshot())).toBe('expired');
    actor.send({ type: 'TOKEN_RENEWED', token: 'tok-w3', expiresAt: iso(T0 + 3 * LIFE) });
    expect(tokenPhase(actor.getSnapshot())).toBe('valid');
    expect(requestToken(actor.getSnapshot())).toBe('tok-w3');
    actor.stop();
  });

  it('a window whose session ended without a user takes a kept token from another window (RESTORE in tokenExpired)', async () => {
    const { machine } = scripted({
      login: [{ token: 'a', expiresAt: iso(T0 + LIFE) }],
      userInfo: [new ApiCallError('AUTH_TOKEN_INVALID', {}, 401), user],
    });
    const actor = createActor(machine, { input: { now: () => T0 } }).start();
    actor.send(signIn);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('tokenExpired');
    actor.send({ type: 'RESTORE', token: 'b', expiresAt: iso(T0 + LIFE) });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toEqual({ signedIn: { user: 'ready', token: 'valid' } });
    actor.stop();
  });

  it('a token revoked by a password change elsewhere ends the session like an invalid one', async () => {
    const { machine } = scripted({ login: [{ token: 'a', expiresAt: iso(T0 + LIFE) }], userInfo: [new ApiCallError('AUTH_TOKEN_REVOKED', {}, 401)] });
    const actor = createActor(machine, { input: { now: () => T0 } }).start();
    actor.send(signIn);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('tokenExpired');
    actor.stop();
  });
});

describe('token rejection, restore, sign out', () => {
  it('TOKEN_REJECTED expires the token and keeps the user; a rejected userInfo ends the session; signing in again works', async () => {
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
    expect(actor.getSnapshot().value).toEqual({ signedIn: { user: 'ready', token: 'expired' } });
    expect(actor.getSnapshot().context).toMatchObject({ token: null, user });
    actor.send({ type: 'SIGN_OUT' });
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
    expect(actor.getSnapshot().value).toEqual({ signedIn: { user: 'userUnavailable', token: 'valid' } });
    expect(canRequest(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'RETRY_USER' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toEqual({ signedIn: { user: 'ready', token: 'valid' } });
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
    expect(tokenPhase(actor.getSnapshot())).toBe('expired');
    actor.stop();
  });

  it("USER_UPDATED replaces the signed-in user's data, never another user's", async () => {
    const { machine } = scripted({ userInfo: [user] });
    const actor = createActor(machine, { input: { now: () => T0 } }).start();
    actor.send({ type: 'RESTORE', token: 'kept', expiresAt: iso(T0 + 60_000) });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ signedIn: { user: 'ready' } })).toBe(true);
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
    await waitFor(actor, (s) => s.matches({ signedIn: { user: 'ready' } }), { timeout: 2_000 });
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
