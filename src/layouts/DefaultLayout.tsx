import { Outlet, useLocation } from '@tanstack/react-router';
import { LayoutContext } from './LayoutContext.ts';
import { AppFooter, AppHeader } from './AppHeader.tsx';
import { TradingDeskProvider } from '../trading/TradingDesk.tsx';
import { ChatPanel } from '../trading/chat/ChatPanel.tsx';
import { ChatProvider } from '../trading/chat/ChatProvider.tsx';

/** The trading pages (workspaces, asset, accounts) fill the screen; traders' screens are 1920-2560 px wide. */
export function isFullWidthPath(pathname: string): boolean {
  return /\/trading(\/|$)/.test(pathname);
}

/** The default layout: header with navigation and tools, the page, a footer. */
export function DefaultLayout() {
  const fullWidth = useLocation({ select: (location) => isFullWidthPath(location.pathname) });
  return (
    <LayoutContext.Provider value="default">
      <TradingDeskProvider>
        <ChatProvider>
          <div className="layout layout-default">
            <AppHeader />
            <main className={fullWidth ? 'app-main app-main-full' : 'app-main'} id="main">
              <Outlet />
            </main>
            <AppFooter />
            <ChatPanel />
          </div>
        </ChatProvider>
      </TradingDeskProvider>
    </LayoutContext.Provider>
  );
}
