import { Outlet } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { LanguageSwitch } from '../components/LanguageSwitch.tsx';
import { ThemeToggle } from '../components/ThemeToggle.tsx';
import { BrandLink } from './AppHeader.tsx';
import { LayoutContext } from './LayoutContext.ts';

/** The frame of the empty layout: brand, language and theme, and one centred card. */
export function EmptyFrame({ children }: { children: ReactNode }) {
  return (
    <LayoutContext.Provider value="empty">
      <div className="layout layout-empty">
        <header className="empty-header">
          <BrandLink />
          <div className="header-tools">
            <LanguageSwitch />
            <ThemeToggle />
          </div>
        </header>
        <main className="empty-main" id="main">
          {children}
        </main>
        <footer className="empty-footer muted">
          <FormattedMessage id="footer.copyright" values={{ year: 2026 }} />
        </footer>
      </div>
    </LayoutContext.Provider>
  );
}

/** The empty layout (sign-in screens): no navigation, only the task at hand. */
export function EmptyLayout() {
  return (
    <EmptyFrame>
      <Outlet />
    </EmptyFrame>
  );
}
