import { Link, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { locales } from '../../protocol/enums.ts';
import { endSession, useSession } from '../auth/session.ts';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import { localePath, switchLocalePath, writeLocaleCookie } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';

/** The default layout: header (title, language, sign-out) and the page. The full shell comes later. */
export function Layout() {
  const intl = useIntl();
  const locale = useLocale();
  const pathname = useLocation({ select: (location) => location.pathname });
  const session = useSession();
  const navigate = useNavigate();

  const signOut = () => {
    endSession();
    void navigate({ to: localePath(locale, '/') });
  };

  return (
    <div className="layout">
      <header className="app-header">
        <Link to={localePath(locale, '/')} className="app-title">
          <FormattedMessage id="app.title" />
        </Link>
        <nav className="app-nav" aria-label={intl.formatMessage({ id: 'app.language' })}>
          {locales.map((target) =>
            target === locale ? (
              <span key={target} className="locale-current" aria-current="true" lang={target}>
                <FormattedMessage id={enumLabelKey('locale', target)} />
              </span>
            ) : (
              <Link
                key={target}
                to={switchLocalePath(pathname, target)}
                lang={target}
                hrefLang={target}
                onClick={() => writeLocaleCookie(target)}
              >
                <FormattedMessage id={enumLabelKey('locale', target)} />
              </Link>
            ),
          )}
          {session && (
            <button type="button" className="button-link" onClick={signOut}>
              <FormattedMessage id="nav.logout" />
            </button>
          )}
        </nav>
      </header>
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
