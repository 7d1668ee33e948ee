import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { messagesFor } from '../../../src/i18n/messages/index.ts';

/** Renders children in a language (the catalogue the app uses). */
export function WithIntl({ locale = 'en', children }: { locale?: 'en' | 'ro'; children: ReactNode }) {
  return (
    <IntlProvider locale={locale} defaultLocale="ro" messages={messagesFor(locale)}>
      {children}
    </IntlProvider>
  );
}
