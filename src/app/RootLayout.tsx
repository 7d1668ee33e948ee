import { Outlet, useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { FormattedMessage } from 'react-intl';
import { peekSessionEndReason, useSession } from '../auth/session.ts';
import { LoadingBar, NavigationLoading } from '../components/LoadingBar.tsx';

/**
 * When a session ends on its own (the auth machine saw the token expire, or a request was refused),
 * the current route's middleware runs again, so a page behind `auth` goes to the sign-in page, which
 * says why. Signing out navigates by itself (to the logout page).
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
      <Outlet />
    </>
  );
}

