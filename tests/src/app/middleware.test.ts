import { isRedirect } from '@tanstack/react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  authRedirects,
  GLOBAL_MIDDLEWARE,
  hasMiddleware,
  isSafeRedirect,
  registerMiddleware,
  RouteError,
  routeMiddleware,
  runMiddleware,
} from '../../../src/app/middleware.ts';
import { endSession, getSession, startSession } from '../../../src/auth/session.ts';

const user = {
  userId: 'u-1',
  username: 'ipopescu',
  name: 'Ion Popescu',
  roles: ['broker'],
  scopes: [],
  broker: null,
  agency: null,
  terminal: null,
  clientCodes: [],
  marketIds: [],
  passwordExpiresAt: '2099-01-01T00:00:00Z',
  preferences: { language: 'ro', theme: 'light', notifications: true, soundNotifications: false },
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

async function thrown(run: () => Promise<void>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const ro = { locale: 'ro' as const, href: '/my-account' };
const en = { locale: 'en' as const, href: '/en/my-account/login-history' };

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(async () => json(200, user));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

describe('the middleware registry', () => {
  it('runs sign-in and language on every route, then the page’s own (default auth)', () => {
    expect(GLOBAL_MIDDLEWARE).toEqual(['sign-in', 'language']);
    expect(routeMiddleware()).toEqual(['sign-in', 'language', 'auth']);
    expect(routeMiddleware(['guest'])).toEqual(['sign-in', 'language', 'guest']);
    for (const name of ['sign-in', 'language', 'auth', 'guest', 'public']) expect(hasMiddleware(name)).toBe(true);
  });

  it("an unknown name is a 500 'Unknown middleware', before any middleware runs", async () => {
    const spy = vi.fn();
    registerMiddleware('spy', spy);
    const error = await thrown(() => runMiddleware(['spy', 'nope'], ro));
    expect(error).toBeInstanceOf(RouteError);
    expect((error as RouteError).status).toBe(500);
    expect((error as RouteError).messageKey).toBe('page.error.unknownMiddleware');
    expect(spy).not.toHaveBeenCalled();
    expect(await thrown(() => runMiddleware(['toString'], ro))).toBeInstanceOf(RouteError);
    expect(await thrown(() => runMiddleware(['__proto__'], ro))).toBeInstanceOf(RouteError);
  });

  it('runs registered middleware in order with the route context', async () => {
    const calls: string[] = [];
    registerMiddleware('first', ({ locale }) => void calls.push(`first:${locale}`));
    registerMiddleware('second', async ({ href }) => {
      await Promise.resolve();
      calls.push(`second:${href}`);
    });
    await runMiddleware(['first', 'second'], en);
    expect(calls).toEqual(['first:en', 'second:/en/my-account/login-history']);
  });

  it('auth sends a signed-out user to the login page of the locale, remembering where they were going', async () => {
    const error = await thrown(() => runMiddleware(['auth'], en));
    expect(isRedirect(error)).toBe(true);
    const options = (error as { options: { to: string; search: Record<string, string> } }).options;
    expect(options.to).toBe(`/en${authRedirects.login}`);
    expect(options.search).toEqual({ redirect: '/en/my-account/login-history' });
  });

  it('after an expired session, auth goes to the callback page and says why', async () => {
    startSession('t', new Date(Date.now() + 60_000).toISOString());
    endSession('expired');
    const error = await thrown(() => runMiddleware(['auth'], ro));
    const options = (error as { options: { to: string; search: Record<string, string> } }).options;
    expect(options.to).toBe(authRedirects.callback);
    expect(options.search).toEqual({ redirect: '/my-account', reason: 'expired' });
  });

  it('guest sends a signed-in user home; public lets anyone in; an expired token counts as signed out', async () => {
    startSession('t', new Date(Date.now() + 60_000).toISOString());
    const error = await thrown(() => runMiddleware(['guest'], ro));
    expect((error as { options: { to: string } }).options.to).toBe(authRedirects.home);
    expect(await thrown(() => runMiddleware(['auth', 'public'], ro))).toBeUndefined();

    startSession('t', new Date(Date.now() + 400).toISOString()); // inside the 500 ms margin
    expect(await thrown(() => runMiddleware(['guest'], ro))).toBeUndefined();
  });

  it('sign-in loads the user once per session and drops a token the server refuses', async () => {
    await runMiddleware(['sign-in'], ro);
    expect(fetchMock).not.toHaveBeenCalled(); // signed out: nothing to check

    startSession('tok', new Date(Date.now() + 60_000).toISOString());
    await runMiddleware(['sign-in'], ro);
    await runMiddleware(['sign-in'], ro);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(getSession()?.user?.name).toBe('Ion Popescu');

    fetchMock.mockResolvedValueOnce(json(401, { error: { code: 'AUTH_TOKEN_INVALID', params: {} } }));
    startSession('bad', new Date(Date.now() + 60_000).toISOString());
    await runMiddleware(['sign-in'], ro);
    expect(getSession()).toBeNull();
  });

  it('sign-in lets other failures reach the error page', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    startSession('tok', new Date(Date.now() + 60_000).toISOString());
    const error = await thrown(() => runMiddleware(['sign-in'], ro));
    expect((error as { code: string }).code).toBe('CLIENT_NETWORK_ERROR');
  });

  it('only redirects back to paths inside the app', () => {
    expect(isSafeRedirect('/en/my-account')).toBe(true);
    expect(isSafeRedirect('//evil.example')).toBe(false);
    expect(isSafeRedirect('https://evil.example')).toBe(false);
    expect(isSafeRedirect('/\\evil')).toBe(false);
    expect(isSafeRedirect(42)).toBe(false);
  });
});
