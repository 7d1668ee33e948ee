import { isRedirect } from '@tanstack/react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { RouteError, runMiddleware } from '../../../src/app/middleware.ts';
import { endSession, startSession } from '../../../src/auth/session.ts';

afterEach(() => endSession());

function thrown(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('route middleware', () => {
  it("an unknown name is a 500 'Unknown middleware'", () => {
    const error = thrown(() => runMiddleware(['nope'], { locale: 'ro' }));
    expect(error).toBeInstanceOf(RouteError);
    expect((error as RouteError).status).toBe(500);
    expect((error as RouteError).messageKey).toBe('page.error.unknownMiddleware');
    expect(thrown(() => runMiddleware(['toString'], { locale: 'ro' }))).toBeInstanceOf(RouteError);
  });

  it('auth sends a signed-out user to the login page of the locale', () => {
    const error = thrown(() => runMiddleware(['auth'], { locale: 'en' }));
    expect(isRedirect(error)).toBe(true);
    expect((error as { options: { to: string } }).options.to).toBe('/en/login');
  });

  it('guest sends a signed-in user home; an expired token counts as signed out', () => {
    startSession('t', new Date(Date.now() + 60_000).toISOString());
    const error = thrown(() => runMiddleware(['guest'], { locale: 'ro' }));
    expect((error as { options: { to: string } }).options.to).toBe('/');
    expect(thrown(() => runMiddleware(['auth', 'public'], { locale: 'ro' }))).toBeUndefined();

    startSession('t', new Date(Date.now() + 400).toISOString()); // inside the 500 ms margin
    expect(thrown(() => runMiddleware(['guest'], { locale: 'ro' }))).toBeUndefined();
  });
});
