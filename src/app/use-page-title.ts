import { useEffect } from 'react';
import { useIntl } from 'react-intl';

/** Sets the window title: 'Page · Energy and gas exchange' (or only the app name). */
export function usePageTitle(title?: string): void {
  const intl = useIntl();
  const app = intl.formatMessage({ id: 'app.title' });
  useEffect(() => {
    document.title = title ? `${title} · ${app}` : app;
  }, [title, app]);
}
