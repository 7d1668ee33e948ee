import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { toApiError } from '../api/errors.ts';
import { authRedirects } from '../app/middleware.ts';
import type { ResetPasswordSearch } from '../app/search.ts';
import { usePageTitle } from '../app/use-page-title.ts';
import { checkNewPassword, takeExpiredPassword, type NewPasswordErrors } from '../auth/password.ts';
import { resetPasswordAndSignIn } from '../auth/sign-in.ts';
import { NewPasswordFields } from '../components/form/NewPasswordFields.tsx';
import { TextField } from '../components/form/TextField.tsx';
import { VerificationCodeField } from '../components/form/VerificationCodeField.tsx';
import { formatApiError } from '../i18n/format-error.ts';
import { localePath } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';

type Field = 'username' | 'currentPassword' | 'code';

/**
 * Reset of an expired password (SPEC §2, §5): who you are (user, current password, a verification
 * code), then the new password twice. The server signs the user in with the new password.
 */
export function ResetPasswordPage() {
  const intl = useIntl();
  const locale = useLocale();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as ResetPasswordSearch;
  usePageTitle(intl.formatMessage({ id: 'reset.title' }));

  const [values, setValues] = useState(() => {
    const username = search.username ?? '';
    return { username, currentPassword: (username && takeExpiredPassword(username)) || '', code: '' };
  });
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [missing, setMissing] = useState<ReadonlySet<Field>>(new Set());
  const [passwordErrors, setPasswordErrors] = useState<NewPasswordErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const set = (field: Field) => (value: string) => setValues((current) => ({ ...current, [field]: value }));
  const required = (field: Field) => (missing.has(field) ? intl.formatMessage({ id: 'validation.fieldRequired' }) : null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const empty = new Set((['username', 'currentPassword', 'code'] as const).filter((field) => values[field].trim() === ''));
    const checks = checkNewPassword(newPassword, confirmPassword);
    setMissing(empty);
    setPasswordErrors(checks);
    if (empty.size > 0 || checks.newPassword || checks.confirmPassword) return;
    setSubmitting(true);
    try {
      await resetPasswordAndSignIn({
        username: values.username.trim(),
        currentPassword: values.currentPassword,
        code: values.code.trim(),
        newPassword,
        confirmPassword,
      });
      await navigate({ to: localePath(locale, authRedirects.home) });
    } catch (cause) {
      setSubmitting(false);
      setError(formatApiError(intl, toApiError(cause)));
      setValues((current) => ({ ...current, code: '' }));
    }
  }

  return (
    <section className="card auth-card auth-card-wide" aria-labelledby="reset-title">
      <h1 id="reset-title">
        <FormattedMessage id="reset.title" />
      </h1>
      <p className="alert alert-warning" role="status">
        <strong>
          <FormattedMessage id="error.AUTH_PASSWORD_EXPIRED" />
        </strong>{' '}
        <FormattedMessage id="reset.intro" />
      </p>
      <form onSubmit={onSubmit} noValidate>
        <fieldset className="fieldset" disabled={submitting}>
          <legend>
            <FormattedMessage id="reset.identity" />
          </legend>
          <TextField
            id="reset-username"
            autoComplete="username"
            label={<FormattedMessage id="login.username" />}
            value={values.username}
            onValueChange={set('username')}
            error={required('username')}
          />
          <TextField
            id="reset-current"
            type="password"
            autoComplete="current-password"
            label={<FormattedMessage id="password.current" />}
            value={values.currentPassword}
            onValueChange={set('currentPassword')}
            error={required('currentPassword')}
          />
          <VerificationCodeField
            id="reset-code"
            value={values.code}
            onValueChange={set('code')}
            error={required('code')}
          />
        </fieldset>
        <fieldset className="fieldset" disabled={submitting}>
          <legend>
            <FormattedMessage id="reset.newPassword" />
          </legend>
          <NewPasswordFields
            idPrefix="reset"
            newPassword={newPassword}
            confirmPassword={confirmPassword}
            onNewPassword={setNewPassword}
            onConfirmPassword={setConfirmPassword}
            errors={passwordErrors}
          />
        </fieldset>
        {error && (
          <p role="alert" className="alert alert-error">
            {error}
          </p>
        )}
        <button type="submit" className="button button-primary button-block" disabled={submitting} aria-busy={submitting}>
          <FormattedMessage id={submitting ? 'reset.submitting' : 'reset.submit'} />
        </button>
      </form>
      <p className="auth-footer">
        <Link to={localePath(locale, authRedirects.login)}>
          <FormattedMessage id="reset.backToLogin" />
        </Link>
      </p>
    </section>
  );
}
