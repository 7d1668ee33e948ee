import {
  createBrowserHistory,
  createRootRoute,
  createRoute,
  createRouter,
  redirect,
  type AnyRoute,
  type RouterHistory,
} from '@tanstack/react-router';
import type { Locale } from '../../protocol/enums.ts';
import { ApiRequestError } from '../api/errors.ts';
import { ensureUser } from '../auth/sign-in.ts';
import { BASE_PATH, localePath } from '../i18n/locale.ts';
import { ErrorPage } from '../pages/ErrorPage.tsx';
import { HomePage } from '../pages/HomePage.tsx';
import { LoginPage } from '../pages/LoginPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { Layout } from './Layout.tsx';
import { runMiddleware } from './middleware.ts';

/**
 * Routes of SPEC §2 that exist so far, each in Romanian (no prefix) and English (/en prefix):
 *   /  /login  /en  /en/login   — under the base path /session.
 * The locale itself is read from the URL by App (src/app/App.tsx).
 */
function localeRoutes(locale: Locale, parent: AnyRoute) {
  const home = createRoute({
    getParentRoute: () => parent,
    path: '/',
    beforeLoad: () => runMiddleware(['auth'], { locale }),
    loader: async () => {
      try {
        await ensureUser();
      } catch (error) {
        if (error instanceof ApiRequestError && error.code.startsWith('AUTH_TOKEN_')) {
          throw redirect({ to: localePath(locale, '/login') });
        }
        throw error;
      }
    },
    component: HomePage,
  });
  const login = createRoute({
    getParentRoute: () => parent,
    path: 'login',
    beforeLoad: () => runMiddleware(['guest'], { locale }),
    component: LoginPage,
  });
  return [home, login];
}

export function createAppRouter(options: { history?: RouterHistory } = {}) {
  const rootRoute = createRootRoute({ component: Layout, notFoundComponent: NotFoundPage });
  const enRoute = createRoute({ getParentRoute: () => rootRoute, path: 'en' });
  const routeTree = rootRoute.addChildren([
    ...localeRoutes('ro', rootRoute),
    enRoute.addChildren(localeRoutes('en', enRoute)),
  ]);
  return createRouter({
    routeTree,
    basepath: BASE_PATH,
    history: options.history ?? createBrowserHistory(),
    defaultErrorComponent: ErrorPage,
    defaultNotFoundComponent: NotFoundPage,
    defaultPendingMs: 300,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
