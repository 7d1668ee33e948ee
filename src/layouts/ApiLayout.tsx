import { Outlet } from '@tanstack/react-router';
import { LayoutContext } from './LayoutContext.ts';
import { AppFooter, AppHeader } from './AppHeader.tsx';

/** The api layout: the header, then a wide documentation area (the page brings its own side index). */
export function ApiLayout() {
  return (
    <LayoutContext.Provider value="api">
      <div className="layout layout-api">
        <AppHeader />
        <main className="app-main app-main-wide" id="main">
          <Outlet />
        </main>
        <AppFooter />
      </div>
    </LayoutContext.Provider>
  );
}
