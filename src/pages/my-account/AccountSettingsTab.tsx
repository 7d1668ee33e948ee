import { useNavigate, useLocation } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Preferences } from '../../../protocol/auth.ts';
import { locales, themes } from '../../../protocol/enums.ts';
import { toApiError } from '../../api/errors.ts';
import { updatePreferences } from '../../auth/sign-in.ts';
import { useUser } from '../../auth/use-auth.ts';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import { switchLocalePath, writeLocaleCookie } from '../../i18n/locale.ts';
import { useLocale } from '../../i18n/use-locale.ts';

/** Account settings: the user's preferences (SPEC §3: language, theme, notifications, sound notifications). */
export function AccountSettingsTab() {
  const user = useUser();
  if (!user) return null;
  return <PreferencesForm initial={user.preferences} />;
}

function PreferencesForm({ initial }: { initial: Preferences }) {
  const intl = useIntl();
  const locale = useLocale();
  const navigate = useNavigate();
  const pathname = useLocation({ select: (location) => location.pathname });
  // The language shown is the page's; the form starts from it so saving never flips it unasked.
  const [values, setValues] = useState<Preferences>({ ...initial, language: locale });
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);

  // The header's mute switch saves the same preference: the form follows it rather than save it back.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the form's own edits live in `values`; only this field follows the saved preference
  useEffect(() => setValues((current) => (current.notifications === initial.notifications ? current : { ...current, notifications: initial.notifications })), [initial.notifications]);

  const set = <K extends keyof Preferences>(key: K, value: Preferences[K]) => {
    setSaved(false);
    setValues((current) => ({ ...current, [key]: value }));
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setSaving(true);
    try {
      const result = await updatePreferences(values);
      setSaved(true);
      if (result.language !== locale) {
        writeLocaleCookie(result.language);
        await navigate({ to: switchLocalePath(pathname, result.language) });
      }
    } catch (cause) {
      setError(formatApiError(intl, toApiError(cause)));
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="card" aria-labelledby="settings-title">
      <div className="card-header">
        <h2 id="settings-title">
          <FormattedMessage id="preferences.title" />
        </h2>
      </div>
      <form onSubmit={onSubmit} className="form-narrow">
        <fieldset className="fieldset-plain" disabled={saving}>
          <fieldset className="choice-group">
            <legend>
              <FormattedMessage id="preferences.language" />
            </legend>
            {locales.map((option) => (
              <label key={option} className="choice">
                <input
                  type="radio"
                  name="language"
                  value={option}
                  checked={values.language === option}
                  onChange={() => set('language', option)}
                />
                <FormattedMessage id={enumLabelKey('locale', option)} />
              </label>
            ))}
          </fieldset>
          <fieldset className="choice-group">
            <legend>
              <FormattedMessage id="preferences.theme" />
            </legend>
            {themes.map((option) => (
              <label key={option} className="choice">
                <input
                  type="radio"
                  name="theme"
                  value={option}
                  checked={values.theme === option}
                  onChange={() => set('theme', option)}
                />
                <FormattedMessage id={enumLabelKey('theme', option)} />
              </label>
            ))}
          </fieldset>
          <fieldset className="choice-group">
            <legend>
              <FormattedMessage id="preferences.notificationsGroup" />
            </legend>
            <label className="choice">
              <input
                type="checkbox"
                name="notifications"
                checked={values.notifications}
                onChange={(event) => set('notifications', event.target.checked)}
              />
              <FormattedMessage id="preferences.notifications" />
            </label>
            <label className="choice">
              <input
                type="checkbox"
                name="soundNotifications"
                checked={values.soundNotifications}
                onChange={(event) => set('soundNotifications', event.target.checked)}
              />
              <FormattedMessage id="preferences.soundNotifications" />
            </label>
          </fieldset>
        </fieldset>
        {error && (
          <p role="alert" className="alert alert-error">
            {error}
          </p>
        )}
        {saved && (
          <p role="status" className="alert alert-success">
            <FormattedMessage id="preferences.saved" />
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={saving} aria-busy={saving}>
          <FormattedMessage id="preferences.save" />
        </button>
      </form>
    </section>
  );
}
