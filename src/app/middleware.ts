import { redirect } from '@tanstack/react-router';
import type { Locale } from '../../protocol/enums.ts';
import { isTokenError } from '../api/http.ts';
import { activeToken, getSession, leaveExpiredSession, peekSessionEndReason } from '../auth/session.ts';
import { ensureUser } from '../auth/sign-in.ts';
import { localePath, writeLocaleCookie } from '../i18n/locale.ts';
import type { MessageKey } from '../i18n/messages/index.ts';

/** A route failure shown by the error page with its status (SPEC §2: default 500) and message. */
export class RouteError extends Error {
  readonly status: number;
  readonly messageKey: MessageKey;
  constructor(status: number, messageKey: MessageKey) {
    super(messageKey);
    this.name = 'RouteError';
    this.status = status;
    this.messageKey = messageKey;
  }
}

/** SPEC §2 auth redirects: login goes to /login, logout to /, home is /, callback is /login. */
export const authRedirects = { login: '/login', logout: '/', home: '/', callback: '/login' } as const;

export interface MiddlewareContext {
  locale: Locale;
  /** The router path being opened, with its locale prefix and search (e.g. '/en/my-account?x=1'). */
  href: string;
}
export type Middleware = (context: MiddlewareContext) => void | Promise<void>;

/** A path the login page may send the user back to: internal to the app, never another origin. */
export function isSafeRedirect(path: unknown): path is string {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.includes('\\') && path.length <= 512;
}

/**
 * The named middleware registry (SPEC §2). Every route runs `sign-in` and `language`; then its own:
 * `auth` (signed-in users only; the default for a page that is not marked), `guest` (signed-out users
 * only, e.g. the login page) or `public` (anyone).
 */
const registry = new Map<string, Middleware>([
  [
    // Sign-in handling: a remembered token is checked and the user loaded once per session; a token the
    // server refuses ends the session (the page then decides, by its own middleware, what to show).
    'sign-in',
    async () => {
      if (!activeToken()) return;
      try {
        await ensureUser();
      } catch (error) {
        if (!isTokenError(error)) throw error;
      }
    },
  ],
  [
    // Language handling: the locale comes from the URL and is remembered in the cookie (365 days).
    'language',
    ({ locale }) => {
      if (typeof document !== 'undefined') writeLocaleCookie(locale);
    },
  ],
  [
    'auth',
    ({ locale, href }) => {
      if (activeToken()) return;
      const expired = peekSessionEndReason() === 'expired';
      // An expired session kept its page; going elsewhere means signing in on the sign-in page instead.
      if (expired) leaveExpiredSession();
      const target = expired ? authRedirects.callback : authRedirects.login;
      const home = localePath(locale, authRedirects.home);
      throw redirect({
        to: localePath(locale, target),
        search: { ...(href !== home ? { redirect: href } : {}), ...(expired ? { reason: 'expired' } : {}) },
      });
    },
  ],
  [
    'guest',
    ({ locale }) => {
      if (activeToken()) throw redirect({ to: localePath(locale, authRedirects.home) });
    },
  ],
  ['public', () => {}],
  [
    // Administrators only (the operator console, issue 16): after `auth`, anyone else gets the error page's 403.
    'administrator',
    () => {
      if (!getSession()?.user?.roles.includes('administrator')) throw new RouteError(403, 'page.error.forbidden');
    },
  ],
]);

/** The middleware every route runs before its own (SPEC §2: sign-in and language handling). */
export const GLOBAL_MIDDLEWARE = ['sign-in', 'language'] as const;

export function registerMiddleware(name: string, middleware: Middleware): void {
  registry.set(name, middleware);
}

export function hasMiddleware(name: string): boolean {
  return registry.has(name);
}

/**
 * Runs the named middleware in order. An unknown name fails before any of them runs:
 * a 500 'Unknown middleware' (SPEC §2).
 */
export async function runMiddleware(names: readonly string[], context: MiddlewareContext): Promise<void> {
  const chain = names.map((name) => {
    const middleware = registry.get(name);
    if (!middleware) throw new RouteError(500, 'page.error.unknownMiddleware');
    return middleware;
  });
  for (const middleware of chain) await middleware(context);
}

/** The full chain of a page: the global middleware, then the page's own (default `auth`). */
export function routeMiddleware(own: readonly string[] = ['auth']): string[] {
  return [...GLOBAL_MIDDLEWARE, ...own];
}
