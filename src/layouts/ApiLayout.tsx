import { Outlet } from '@tanstack/react-router';
import { LayoutContext } from './LayoutContext.ts';
import { AppFooter, AppHeader } from './AppHeader.tsx';

/**
 * The api layout: the header, then the documentation in the reading pages' 1320 px column (the page
 * brings its own side index); at 1920 px its endpoint tables and examples fit it without wrapping, and
 * longer prose lines would only be harder to read.
 */
export function ApiLayout() {
  return (
    <LayoutContext.Provider value="api">
      <div className="layout layout-api">
        <AppHeader />
        <main className="app-main" id="main">
          <Outlet />
        </main>
        <AppFooter />
      </div>
    </LayoutContext.Provider>
  );
}
