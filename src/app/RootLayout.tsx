import { Outlet, useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { FormattedMessage } from 'react-intl';
import { peekSessionEndReason, subscribeRemoteSessionChange, useSession } from '../auth/session.ts';
import { SessionExpiredBanner, SessionRenewalDialog } from '../auth/SessionExpiry.tsx';
import '../auth/session.css';
import { LoadingBar, NavigationLoading } from '../components/LoadingBar.tsx';

/**
 * When a session ends without a user to keep (the server refused the token before the user loaded),
 * or another window signed in or out, the current route's middleware runs again: a page behind `auth`
 * goes to the sign-in page, the sign-in page home. An expired token with its user keeps the page
 * (a banner and the dialog to sign in again). Signing out here navigates by itself (to the logout page).
 */
function SessionWatcher() {
  const router = useRouter();
  const session = useSession();
  const hadSession = useRef(session !== null);
  useEffect(() => {
    const had = hadSession.current;
    hadSession.current = session !== null;
    if (had && !session && peekSessionEndReason() === 'expired') void router.invalidate();
  }, [session, router]);
  useEffect(() => subscribeRemoteSessionChange(() => void router.invalidate()), [router]);
  return null;
}

/** Above every layout: the loading bar and the session watcher. */
export function RootLayout() {
  return (
    <>
      <a className="skip-link" href="#main">
        <FormattedMessage id="app.skipToContent" />
      </a>
      <LoadingBar />
      <NavigationLoading />
      <SessionWatcher />
      <SessionExpiredBanner />
      <Outlet />
      <SessionRenewalDialog />
    </>
  );
}

