import { Link, useNavigate } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { authRedirects } from '../app/middleware.ts';
import { signOut } from '../auth/sign-in.ts';
import { SessionCountdown } from '../auth/SessionExpiry.tsx';
import { useAuth } from '../auth/use-auth.ts';
import { ConnectionIndicator } from '../components/ConnectionIndicator.tsx';
import { useDialogs } from '../components/dialogs/DialogProvider.tsx';
import { LanguageSwitch } from '../components/LanguageSwitch.tsx';
import { PasswordExpiryIndicator } from '../components/PasswordExpiryIndicator.tsx';
import { ServerHealthBadge, useServerHealth } from '../components/ServerHealthBadge.tsx';
import { ThemeToggle } from '../components/ThemeToggle.tsx';
import { localePath } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { useConnectionStatus } from '../realtime/RealtimeProvider.tsx';
import { ChatButton } from '../trading/chat/ChatButton.tsx';
import { NotificationBell } from '../trading/notifications/NotificationBell.tsx';
import { MuteSwitch } from '../trading/notifications/MuteSwitch.tsx';
import { ToastTray } from '../trading/notifications/ToastTray.tsx';
import { RecordSessionButton } from '../qa/RecordSessionButton.tsx';
import { MainNav, type NavItem } from './MainNav.tsx';

export function BrandLink() {
  const locale = useLocale();
  return (
    <Link to={localePath(locale, '/')} className="brand" activeOptions={{ exact: true }} activeProps={{}}>
      <span className="brand-mark" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="18" height="18">
          <path d="M13 2 4 14h6l-1 8 9-12h-6l1-8z" fill="currentColor" />
        </svg>
      </span>
      <span className="brand-text">
        <FormattedMessage id="app.title" />
      </span>
    </Link>
  );
}

/** Signed in, the brand is the way home, which leaves room for the trading screens. */
const signedInNav: readonly NavItem[] = [
  { path: '/trading/workspace', label: 'nav.workspace' },
  { path: '/trading/account', label: 'nav.tradingAccount' },
  { path: '/my-account', label: 'nav.myAccount' },
  { path: '/api-docs', label: 'nav.api' },
];
/** The QA player (/qa/replay): the qa role and the administrator may replay sessions (protocol/qa.ts `canReplay`). */
const replayNav: NavItem = { path: '/qa/replay', label: 'nav.qaReplay' };
/** The administrator's own links (issue 16): the operator console and the QA player, before the API documentation. */
const administratorNav: readonly NavItem[] = [...signedInNav.slice(0, -1), { path: '/operator', label: 'nav.operator' }, replayNav, ...signedInNav.slice(-1)];
/** The QA player, in the bar of the qa role. */
const qaNav: readonly NavItem[] = [...signedInNav, replayNav];
const guestNav: typeof signedInNav = [
  { path: '/', label: 'nav.home', exact: true },
  { path: '/api-docs', label: 'nav.api' },
];

/** Initials for the avatar: 'Andrei Popescu' -> 'AP'. */
function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

/** The header of the default and api layouts. */
export function AppHeader() {
  const intl = useIntl();
  const locale = useLocale();
  const navigate = useNavigate();
  const { user, signedIn } = useAuth();
  const connection = useConnectionStatus();
  const health = useServerHealth(signedIn);
  const { confirm } = useDialogs();

  async function onSignOut() {
    const confirmed = await confirm({
      title: intl.formatMessage({ id: 'signOut.title' }),
      description: intl.formatMessage({ id: 'signOut.description' }),
      confirmLabel: intl.formatMessage({ id: 'nav.logout' }),
    });
    if (!confirmed) return;
    signOut();
    await navigate({ to: localePath(locale, authRedirects.logout) });
  }

  const nav = signedIn ? (user?.roles.includes('administrator') ? administratorNav : user?.roles.includes('qa') ? qaNav : signedInNav) : guestNav;
  return (
    <header className="app-header">
      <div className="app-header-inner">
        <BrandLink />
        <MainNav items={nav} />
        <div className="header-tools">
          {connection && <ConnectionIndicator status={connection} />}
          <ServerHealthBadge health={health} />
          {signedIn && <SessionCountdown />}
          {user && <PasswordExpiryIndicator passwordExpiresAt={user.passwordExpiresAt} />}
          {signedIn && <ChatButton />}
          {signedIn && <NotificationBell />}
          {signedIn && <MuteSwitch />}
          {signedIn && <RecordSessionButton />}
          <LanguageSwitch />
          <ThemeToggle />
          {signedIn ? (
            <div className="user-box">
              <Link to={localePath(locale, '/my-account')} className="user-chip" title={user?.name}>
                <span className="avatar" aria-hidden="true">
                  {initials(user?.name ?? '')}
                </span>
                <span className="user-name">{user?.name}</span>
              </Link>
              <button type="button" className="button button-ghost" onClick={() => void onSignOut()}>
                <FormattedMessage id="nav.logout" />
              </button>
            </div>
          ) : (
            <Link to={localePath(locale, authRedirects.login)} className="button button-primary button-small">
              <FormattedMessage id="nav.login" />
            </Link>
          )}
        </div>
      </div>
      {signedIn && <ToastTray />}
    </header>
  );
}

export function AppFooter() {
  return (
    <footer className="app-footer">
      <span>
        <FormattedMessage id="footer.copyright" values={{ year: 2026 }} />
      </span>
      <span className="muted">
        <FormattedMessage id="footer.times" />
      </span>
    </footer>
  );
}
