import { Link, useLocation } from '@tanstack/react-router';
import { useIntl } from 'react-intl';
import { locales, type Locale } from '../../protocol/enums.ts';
import { getSession } from '../auth/session.ts';
import { updatePreferences } from '../auth/sign-in.ts';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import { switchLocalePath, writeLocaleCookie } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';

/**
 * Switches the page to the other language (same page, other prefix). The choice goes in the cookie at
 * once, and into the signed-in user's preferences.
 */
export function LanguageSwitch() {
  const intl = useIntl();
  const locale = useLocale();
  const location = useLocation();
  const choose = (target: Locale) => {
    writeLocaleCookie(target);
    if (getSession()?.user) void updatePreferences({ language: target }).catch(() => {});
  };
  return (
    <nav className="segmented" aria-label={intl.formatMessage({ id: 'app.language' })}>
      {locales.map((target) =>
        target === locale ? (
          <span key={target} className="segmented-item segmented-current" aria-current="true" lang={target}>
            {target.toUpperCase()}
            <span className="visually-hidden"> {intl.formatMessage({ id: enumLabelKey('locale', target) })}</span>
          </span>
        ) : (
          <Link
            key={target}
            className="segmented-item"
            to={switchLocalePath(location.pathname, target)}
            search={location.search}
            lang={target}
            hrefLang={target}
            title={intl.formatMessage({ id: enumLabelKey('locale', target) })}
            onClick={() => choose(target)}
          >
            <span aria-hidden="true">{target.toUpperCase()}</span>
            <span className="visually-hidden">{intl.formatMessage({ id: enumLabelKey('locale', target) })}</span>
          </Link>
        ),
      )}
    </nav>
  );
}
