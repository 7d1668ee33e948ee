import { useIntl } from 'react-intl';
import type { Locale } from '../../protocol/enums.ts';

/** The active locale, as set on the IntlProvider from the URL. */
export function useLocale(): Locale {
  return useIntl().locale === 'en' ? 'en' : 'ro';
}
