import {
  createBrowserHistory,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  notFound,
  type AnyRoute,
  type RouteComponent,
  type RouterHistory,
} from '@tanstack/react-router';
import type { Locale } from '../../protocol/enums.ts';
import { isTokenError } from '../api/http.ts';
import { BASE_PATH } from '../i18n/locale.ts';
import { ApiLayout } from '../layouts/ApiLayout.tsx';
import { DefaultLayout } from '../layouts/DefaultLayout.tsx';
import { EmptyLayout } from '../layouts/EmptyLayout.tsx';
import type { LayoutName } from '../layouts/LayoutContext.ts';
import { isAccountTab } from '../pages/my-account/tabs.ts';
import { ErrorPage } from '../pages/ErrorPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { loadAsset, loadMarketAccount, loadWorkspace, parseAssetParams, parseMarketParams } from '../pages/trading/loaders.ts';
import { loadChunk } from './chunk-reload.ts';
import { routeMiddleware, runMiddleware } from './middleware.ts';
import '../qa/access.ts';
import { RootLayout } from './RootLayout.tsx';
import { validateLoginSearch, validateResetPasswordSearch } from './search.ts';

/** A page component in its own chunk (code split per route), reloading the app when a chunk is gone. */
function lazyPage<M extends Record<string, unknown>>(importer: () => Promise<M>, name: keyof M & string): RouteComponent {
  return lazyRouteComponent(() => loadChunk(importer), name) as RouteComponent;
}

const pages = {
  home: lazyPage(() => import('../pages/HomePage.tsx'), 'HomePage'),
  login: lazyPage(() => import('../pages/LoginPage.tsx'), 'LoginPage'),
  resetPassword: lazyPage(() => import('../pages/ResetPasswordPage.tsx'), 'ResetPasswordPage'),
  myAccount: lazyPage(() => import('../pages/my-account/MyAccountPage.tsx'), 'MyAccountPage'),
  accountIndex: lazyPage(() => import('../pages/my-account/MyAccountPage.tsx'), 'AccountIndexPanel'),
  accountTab: lazyPage(() => import('../pages/my-account/MyAccountPage.tsx'), 'AccountTabPanel'),
  apiDocs: lazyPage(() => import('../pages/ApiDocsPage.tsx'), 'ApiDocsPage'),
  tradingAccount: lazyPage(() => import('../pages/trading/TradingAccountPage.tsx'), 'TradingAccountPage'),
  marketAccount: lazyPage(() => import('../pages/trading/TradingAccountPage.tsx'), 'MarketAccountPage'),
  workspace: lazyPage(() => import('../pages/trading/WorkspacePage.tsx'), 'WorkspacePage'),
  workspacesBetter: lazyPage(() => import('../pages/trading/WorkspacePage.tsx'), 'WorkspacesBetterPage'),
  workspacesHorizontal: lazyPage(() => import('../pages/trading/WorkspacePage.tsx'), 'WorkspacesHorizontalPage'),
  workspacesVertical: lazyPage(() => import('../pages/trading/WorkspacePage.tsx'), 'WorkspacesVerticalPage'),
  asset: lazyPage(() => import('../pages/trading/AssetPage.tsx'), 'AssetPage'),
  bookWindow: lazyPage(() => import('../pages/trading/BookWindowPage.tsx'), 'BookWindowPage'),
  operator: lazyPage(() => import('../operator/OperatorPage.tsx'), 'OperatorPage'),
  qaReplay: lazyPage(() => import('../qa/QaReplayPage.tsx'), 'QaReplayPage'),
};

/**
 * The route table of SPEC §2, as one function so Romanian (no prefix) and English (/en) get the same
 * routes. Each page names its layout and its middleware (default `auth`; `guest` or `public`).
 */
function localeRoutes(locale: Locale, parent: AnyRoute) {
  const layouts: Record<LayoutName, AnyRoute> = {
    default: createRoute({ getParentRoute: () => parent, id: 'layout-default', component: DefaultLayout }),
    api: createRoute({ getParentRoute: () => parent, id: 'layout-api', component: ApiLayout }),
    empty: createRoute({ getParentRoute: () => parent, id: 'layout-empty', component: EmptyLayout }),
  };
  const guard =
    (middleware?: readonly string[]) =>
    ({ location }: { location: { href: string } }) =>
      runMiddleware(routeMiddleware(middleware), { locale, href: location.href });

  /** A loader whose refused token sends the user to sign in again (rather than an error page). */
  const signedInLoader =
    <A, T>(load: (args: A) => Promise<T>) =>
    async (args: A & { location: { href: string } }): Promise<T> => {
      try {
        return await load(args);
      } catch (error) {
        if (isTokenError(error)) await runMiddleware(['auth'], { locale, href: args.location.href });
        throw error;
      }
    };

  const home = createRoute({
    getParentRoute: () => layouts.default,
    path: '/',
    beforeLoad: guard(['public']),
    component: pages.home,
  });
  const login = createRoute({
    getParentRoute: () => layouts.empty,
    path: 'login',
    validateSearch: validateLoginSearch,
    beforeLoad: guard(['guest']),
    component: pages.login,
  });
  const resetPassword = createRoute({
    getParentRoute: () => layouts.empty,
    path: 'reset-password',
    validateSearch: validateResetPasswordSearch,
    beforeLoad: guard(['guest']),
    component: pages.resetPassword,
  });
  const myAccount = createRoute({
    getParentRoute: () => layouts.default,
    path: 'my-account',
    beforeLoad: guard(),
    component: pages.myAccount,
  });
  const myAccountIndex = createRoute({ getParentRoute: () => myAccount, path: '/', component: pages.accountIndex });
  const myAccountTab = createRoute({
    getParentRoute: () => myAccount,
    path: '$tab',
    params: {
      parse: (params: { tab: string }) => {
        if (!isAccountTab(params.tab) || params.tab === 'profile') throw notFound();
        return params;
      },
      stringify: (params: { tab: string }) => params,
    },
    component: pages.accountTab,
  });
  const apiDocs = createRoute({
    getParentRoute: () => layouts.api,
    path: 'api-docs',
    beforeLoad: guard(['public']),
    component: pages.apiDocs,
  });
  const tradingAccount = createRoute({
    getParentRoute: () => layouts.default,
    path: 'trading/account',
    beforeLoad: guard(),
    loader: signedInLoader(() => loadMarketAccount(undefined)),
    component: pages.tradingAccount,
  });
  const workspace = (path: string, component: RouteComponent) =>
    createRoute({
      getParentRoute: () => layouts.default,
      path,
      beforeLoad: guard(),
      loader: signedInLoader(() => loadWorkspace()),
      component,
    });
  const marketAccount = createRoute({
    getParentRoute: () => layouts.default,
    path: 'trading/market/{-$marketId}/account',
    params: { parse: parseMarketParams, stringify: (params: { marketId?: string }) => params },
    beforeLoad: guard(),
    loader: signedInLoader(({ params }: { params: { marketId?: string } }) => loadMarketAccount(params.marketId)),
    component: pages.marketAccount,
  });
  const asset = createRoute({
    getParentRoute: () => layouts.default,
    path: 'trading/market/{-$marketId}/assets/$assetId',
    params: { parse: parseAssetParams, stringify: (params: { marketId?: string; assetId: string }) => params },
    beforeLoad: guard(),
    loader: signedInLoader(({ params }: { params: { marketId?: string; assetId: string } }) =>
      loadAsset(params.marketId, params.assetId),
    ),
    component: pages.asset,
  });
  // One book in its own window (pop out from a book's header): the empty layout, the shared sign-in.
  const bookWindow = createRoute({
    getParentRoute: () => layouts.empty,
    path: 'trading/book/$assetId',
    params: { parse: (params: { assetId: string }) => parseAssetParams(params), stringify: (params: { assetId: string }) => params },
    beforeLoad: guard(),
    loader: signedInLoader(({ params }: { params: { assetId: string } }) => loadAsset(undefined, params.assetId)),
    component: pages.bookWindow,
  });

  // The operator console (issue 16): signed in, and the administrator only.
  const operator = createRoute({
    getParentRoute: () => layouts.default,
    path: 'operator',
    beforeLoad: guard(['auth', 'administrator']),
    component: pages.operator,
  });
  // The QA player (issue 16): qa and administrator only (src/qa/access.ts).
  const qaReplay = createRoute({ getParentRoute: () => layouts.default, path: 'qa/replay', beforeLoad: guard(['auth', 'qa']), component: pages.qaReplay });

  return [
    layouts.default.addChildren([
      home,
      myAccount.addChildren([myAccountIndex, myAccountTab]),
      tradingAccount,
      workspace('trading/workspace', pages.workspace),
      workspace('trading/workspaces_better', pages.workspacesBetter),
      workspace('trading/workspaces_horizontal', pages.workspacesHorizontal),
      workspace('trading/workspaces_vertical', pages.workspacesVertical),
      marketAccount,
      asset,
      operator,
      qaReplay,
    ]),
    layouts.api.addChildren([apiDocs]),
    layouts.empty.addChildren([login, resetPassword, bookWindow]),
  ];
}

export function createAppRouter(options: { history?: RouterHistory } = {}) {
  const rootRoute = createRootRoute({ component: RootLayout, notFoundComponent: NotFoundPage, errorComponent: ErrorPage });
  const enRoute = createRoute({ getParentRoute: () => rootRoute, path: 'en' });
  const routeTree = rootRoute.addChildren([...localeRoutes('ro', rootRoute), enRoute.addChildren(localeRoutes('en', enRoute))]);
  return createRouter({
    routeTree,
    basepath: BASE_PATH,
    history: options.history ?? createBrowserHistory(),
    defaultErrorComponent: ErrorPage,
    defaultNotFoundComponent: NotFoundPage,
    defaultPendingMs: 300,
    defaultPreload: 'intent',
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
