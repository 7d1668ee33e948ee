import { useIntl } from 'react-intl';
import type { Locale } from '../../protocol/enums.ts';
import { appLocale } from './locale.ts';

/** The active language, from the IntlProvider's locale (en-GB for English, `intlLocale`). */
export function useLocale(): Locale {
  return appLocale(useIntl().locale);
}
