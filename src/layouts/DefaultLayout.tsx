import { Outlet } from '@tanstack/react-router';
import { LayoutContext } from './LayoutContext.ts';
import { AppFooter, AppHeader } from './AppHeader.tsx';
import { TradingDeskProvider } from '../trading/TradingDesk.tsx';
import { ChatPanel } from '../trading/chat/ChatPanel.tsx';
import { ChatProvider } from '../trading/chat/ChatProvider.tsx';

/** The default layout: header with navigation and tools, the page, a footer. */
export function DefaultLayout() {
  return (
    <LayoutContext.Provider value="default">
      <TradingDeskProvider>
        <ChatProvider>
          <div className="layout layout-default">
            <AppHeader />
            <main className="app-main" id="main">
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
