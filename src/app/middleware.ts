import { redirect } from '@tanstack/react-router';
import type { Locale } from '../../protocol/enums.ts';
import { activeToken } from '../auth/session.ts';
import { localePath } from '../i18n/locale.ts';
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

export interface MiddlewareContext {
  locale: Locale;
}
type Middleware = (context: MiddlewareContext) => void;

/**
 * Named route guards (SPEC §2: pages may be guest or public; every route passes sign-in handling).
 * Auth redirects: sign-in at /login, home at /.
 */
const middlewares: Record<string, Middleware> = {
  auth: ({ locale }) => {
    if (!activeToken()) throw redirect({ to: localePath(locale, '/login') });
  },
  guest: ({ locale }) => {
    if (activeToken()) throw redirect({ to: localePath(locale, '/') });
  },
  public: () => {},
};

/** Runs a route's guards in order; an unknown name is a 500 'Unknown middleware'. */
export function runMiddleware(names: readonly string[], context: MiddlewareContext): void {
  for (const name of names) {
    const middleware = Object.prototype.hasOwnProperty.call(middlewares, name) ? middlewares[name] : undefined;
    if (!middleware) throw new RouteError(500, 'page.error.unknownMiddleware');
    middleware(context);
  }
}
