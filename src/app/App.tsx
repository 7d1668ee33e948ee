import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { IntlProvider } from 'react-intl';
import { DEFAULT_LOCALE, localeFromPath, writeLocaleCookie } from '../i18n/locale.ts';
import { messagesFor } from '../i18n/messages/index.ts';
import type { AppRouter } from './router.tsx';

/**
 * The IntlProvider sits above the router so every page, the 404 and the error page are translated.
 * The locale comes from the URL; the one in use is remembered in the `locale` cookie (365 days).
 */
export function App({ router }: { router: AppRouter }) {
  const pathname = useSyncExternalStore(
    router.history.subscribe,
    () => router.history.location.pathname,
    () => router.history.location.pathname,
  );
  const locale = localeFromPath(pathname);
  const messages = useMemo(() => messagesFor(locale), [locale]);

  useEffect(() => {
    document.documentElement.lang = locale;
    document.title = messages['app.title'];
    writeLocaleCookie(locale);
  }, [locale, messages]);

  return (
    <IntlProvider locale={locale} defaultLocale={DEFAULT_LOCALE} messages={messages}>
      <RouterProvider router={router} />
    </IntlProvider>
  );
}
