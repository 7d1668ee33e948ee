import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { toApiError } from '../api/errors.ts';
import { signIn } from '../auth/sign-in.ts';
import { formatApiError } from '../i18n/format-error.ts';
import { localePath } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';

type Field = 'username' | 'password' | 'code';
const fields: readonly Field[] = ['username', 'password', 'code'];

/** SPEC §2: sign in with user, password and verification code. */
export function LoginPage() {
  const intl = useIntl();
  const locale = useLocale();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({ username: '', password: '', code: '' });
  const [missing, setMissing] = useState<ReadonlySet<Field>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onChange = (field: Field) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const empty = new Set(fields.filter((field) => values[field].trim() === ''));
    setMissing(empty);
    setError(null);
    if (empty.size > 0) return;
    setSubmitting(true);
    try {
      await signIn({ username: values.username.trim(), password: values.password, code: values.code.trim() });
      await navigate({ to: localePath(locale, '/') });
    } catch (cause) {
      setError(formatApiError(intl, toApiError(cause)));
      setSubmitting(false);
    }
  }

  const label: Record<Field, string> = {
    username: intl.formatMessage({ id: 'login.username' }),
    password: intl.formatMessage({ id: 'login.password' }),
    code: intl.formatMessage({ id: 'login.code' }),
  };

  const input = (field: Field, props: Record<string, string>) => (
    <div className="field">
      <label htmlFor={`login-${field}`}>{label[field]}</label>
      <input
        id={`login-${field}`}
        name={field}
        value={values[field]}
        onChange={onChange(field)}
        aria-invalid={missing.has(field)}
        aria-describedby={missing.has(field) ? `login-${field}-error` : undefined}
        disabled={submitting}
        {...props}
      />
      {missing.has(field) && (
        <span id={`login-${field}-error`} className="field-error">
          <FormattedMessage id="validation.fieldRequired" />
        </span>
      )}
    </div>
  );

  return (
    <section className="card login">
      <h1>
        <FormattedMessage id="login.title" />
      </h1>
      <form onSubmit={onSubmit} noValidate>
        {input('username', { autoComplete: 'username' })}
        {input('password', { type: 'password', autoComplete: 'current-password' })}
        {input('code', {
          inputMode: 'numeric',
          autoComplete: 'one-time-code',
          maxLength: '12',
          title: intl.formatMessage({ id: 'login.codeHint' }),
        })}
        {error && (
          <p role="alert" className="alert alert-error">
            {error}
          </p>
        )}
        <button type="submit" className="button-primary" disabled={submitting}>
          <FormattedMessage id={submitting ? 'login.submitting' : 'login.submit'} />
        </button>
      </form>
    </section>
  );
}
