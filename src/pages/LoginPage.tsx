import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiRequestError, toApiError } from '../api/errors.ts';
import { authRedirects } from '../app/middleware.ts';
import type { LoginSearch } from '../app/search.ts';
import { usePageTitle } from '../app/use-page-title.ts';
import { handOffExpiredPassword } from '../auth/password.ts';
import { signIn } from '../auth/sign-in.ts';
import { TextField } from '../components/form/TextField.tsx';
import { VerificationCodeField } from '../components/form/VerificationCodeField.tsx';
import { formatApiError } from '../i18n/format-error.ts';
import { localePath, switchLocalePath } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';

type Field = 'username' | 'password' | 'code';
const fields: readonly Field[] = ['username', 'password', 'code'];

/** Where to go after signing in: back to the page that asked for it (in the language now chosen), or home. */
function afterSignIn(locale: 'ro' | 'en', redirect: string | undefined): { to: string; search: Record<string, string> } {
  if (!redirect) return { to: localePath(locale, authRedirects.home), search: {} };
  const [path = '/', query = ''] = redirect.split('?', 2);
  return { to: switchLocalePath(path, locale), search: Object.fromEntries(new URLSearchParams(query)) };
}

/** SPEC §2: sign in with user, password and verification code; each refusal with its message. */
export function LoginPage() {
  const intl = useIntl();
  const locale = useLocale();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as LoginSearch;
  const [values, setValues] = useState<Record<Field, string>>({ username: '', password: '', code: '' });
  const [missing, setMissing] = useState<ReadonlySet<Field>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  usePageTitle(intl.formatMessage({ id: 'login.title' }));

  const set = (field: Field) => (value: string) => setValues((current) => ({ ...current, [field]: value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const empty = new Set(fields.filter((field) => values[field].trim() === ''));
    setMissing(empty);
    setError(null);
    if (empty.size > 0) return;
    setSubmitting(true);
    const username = values.username.trim();
    try {
      await signIn({ username, password: values.password, code: values.code.trim() });
      await navigate(afterSignIn(locale, search.redirect));
    } catch (cause) {
      setSubmitting(false);
      if (cause instanceof ApiRequestError && cause.code === 'AUTH_PASSWORD_EXPIRED') {
        // SPEC §8 'Password expired!': straight to the reset of the expired password.
        handOffExpiredPassword(username, values.password);
        await navigate({ to: localePath(locale, '/reset-password'), search: { username } });
        return;
      }
      setError(formatApiError(intl, toApiError(cause)));
      setValues((current) => ({ ...current, code: '' }));
    }
  }

  const required = (field: Field) => (missing.has(field) ? intl.formatMessage({ id: 'validation.fieldRequired' }) : null);

  return (
    <section className="card auth-card" aria-labelledby="login-title">
      <h1 id="login-title">
        <FormattedMessage id="login.title" />
      </h1>
      <p className="muted auth-intro">
        <FormattedMessage id="login.intro" />
      </p>
      {search.reason === 'expired' && !error && (
        <p className="alert alert-warning" role="status">
          <FormattedMessage id="error.AUTH_TOKEN_EXPIRED" />
        </p>
      )}
      <form onSubmit={onSubmit} noValidate>
        <TextField
          id="login-username"
          name="username"
          autoComplete="username"
          label={<FormattedMessage id="login.username" />}
          value={values.username}
          onValueChange={set('username')}
          error={required('username')}
          disabled={submitting}
        />
        <TextField
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          label={<FormattedMessage id="login.password" />}
          value={values.password}
          onValueChange={set('password')}
          error={required('password')}
          disabled={submitting}
        />
        <VerificationCodeField
          id="login-code"
          name="code"
          value={values.code}
          onValueChange={set('code')}
          error={required('code')}
          disabled={submitting}
        />
        {error && (
          <p role="alert" className="alert alert-error">
            {error}
          </p>
        )}
        <button type="submit" className="button button-primary button-block" disabled={submitting} aria-busy={submitting}>
          <FormattedMessage id={submitting ? 'login.submitting' : 'login.submit'} />
        </button>
      </form>
      <p className="auth-footer">
        <Link to={localePath(locale, '/reset-password')}>
          <FormattedMessage id="login.expiredLink" />
        </Link>
      </p>
    </section>
  );
}
