import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { IntlProvider } from 'react-intl';
import { DialogProvider } from '../components/dialogs/DialogProvider.tsx';
import { DEFAULT_LOCALE, intlLocale, localeFromPath } from '../i18n/locale.ts';
import { messagesFor } from '../i18n/messages/index.ts';
import { RealtimeProvider } from '../realtime/RealtimeProvider.tsx';
import type { AppRouter } from './router.tsx';

/**
 * The IntlProvider sits above the router so every page, the 404 and the error page are translated.
 * The locale comes from the URL (the `language` middleware remembers it in the cookie); English
 * formats as en-GB (`intlLocale`: day-first dates, never 12/6/26).
 */
export function App({ router, realtime = true }: { router: AppRouter; realtime?: boolean }) {
  const pathname = useSyncExternalStore(
    router.history.subscribe,
    () => router.history.location.pathname,
    () => router.history.location.pathname,
  );
  const locale = localeFromPath(pathname);
  const messages = useMemo(() => messagesFor(locale), [locale]);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  return (
    <IntlProvider locale={intlLocale(locale)} defaultLocale={DEFAULT_LOCALE} messages={messages}>
      <DialogProvider>
        <RealtimeProvider enabled={realtime}>
          <RouterProvider router={router} />
        </RealtimeProvider>
      </DialogProvider>
    </IntlProvider>
  );
}
