import { useIntl } from 'react-intl';
import { getSession } from '../auth/session.ts';
import { updatePreferences } from '../auth/sign-in.ts';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import { setTheme, useTheme } from '../theme/theme.ts';
import { useDialogs } from './dialogs/DialogProvider.tsx';

/** Light/dark switch; for a signed-in user the choice is saved in the preferences (PUT /user/preferences). */
export function ThemeToggle() {
  const intl = useIntl();
  const theme = useTheme();
  const { showError } = useDialogs();
  const next = theme === 'dark' ? 'light' : 'dark';
  const label = intl.formatMessage({ id: 'theme.toggle' }, { theme: intl.formatMessage({ id: enumLabelKey('theme', next) }).toLocaleLowerCase(intl.locale) });

  async function toggle() {
    const previous = theme;
    setTheme(next);
    if (!getSession()?.user) return;
    try {
      await updatePreferences({ theme: next });
    } catch (error) {
      setTheme(previous);
      showError(error);
    }
  }

  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      onClick={() => void toggle()}
      aria-label={label}
      title={label}
      data-testid="theme-toggle"
    >
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
    </button>
  );
}
