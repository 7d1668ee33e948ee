import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { intlLocale } from '../../../src/i18n/locale.ts';
import { messagesFor } from '../../../src/i18n/messages/index.ts';

/** Renders children in a language (the catalogue and the formatting locale the app uses, as App does). */
export function WithIntl({ locale = 'en', children }: { locale?: 'en' | 'ro'; children: ReactNode }) {
  return (
    <IntlProvider locale={intlLocale(locale)} defaultLocale="ro" messages={messagesFor(locale)}>
      {children}
    </IntlProvider>
  );
}
