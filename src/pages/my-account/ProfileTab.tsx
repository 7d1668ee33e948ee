import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { changePassword } from '../../api/auth.ts';
import { toApiError } from '../../api/errors.ts';
import { checkNewPassword, passwordExpiry, type NewPasswordErrors } from '../../auth/password.ts';
import { adoptRenewedToken } from '../../auth/session.ts';
import { refreshUser } from '../../auth/sign-in.ts';
import { useUser } from '../../auth/use-auth.ts';
import { NewPasswordFields } from '../../components/form/NewPasswordFields.tsx';
import { TextField } from '../../components/form/TextField.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import { formatExchangeDateTime } from '../../i18n/format.ts';
import { DescriptionList } from '../../components/DescriptionList.tsx';

/** Profile (SPEC §2: user, broker, agency, terminal) and the change of password. */
export function ProfileTab() {
  const intl = useIntl();
  const user = useUser();
  if (!user) return null;
  const notAssigned = intl.formatMessage({ id: 'home.notAssigned' });
  const expiry = passwordExpiry(user.passwordExpiresAt);
  const rows: Array<[string, string]> = [
    [intl.formatMessage({ id: 'profile.name' }), user.name],
    [intl.formatMessage({ id: 'profile.user' }), user.username],
    [intl.formatMessage({ id: 'profile.broker' }), user.broker?.name ?? notAssigned],
    [intl.formatMessage({ id: 'profile.agency' }), user.agency?.name ?? notAssigned],
    [intl.formatMessage({ id: 'profile.terminal' }), user.terminal?.name ?? notAssigned],
    [
      intl.formatMessage({ id: 'profile.roles' }),
      intl.formatList(user.roles.map((role) => intl.formatMessage({ id: enumLabelKey('role', role) }))),
    ],
    [intl.formatMessage({ id: 'profile.clients' }), user.clientCodes.length ? intl.formatList(user.clientCodes) : notAssigned],
    [intl.formatMessage({ id: 'profile.passwordExpiresAt' }), formatExchangeDateTime(intl, user.passwordExpiresAt, 'long')],
  ];
  return (
    <div className="stack">
      <section className="card" aria-labelledby="profile-title">
        <div className="card-header">
          <h2 id="profile-title">
            <FormattedMessage id="account.tab.profile" />
          </h2>
        </div>
        <DescriptionList rows={rows} />
        {expiry?.soon && (
          <p className="alert alert-warning" role="status">
            {expiry.daysLeft === 0 ? (
              <FormattedMessage id="password.expiresToday" />
            ) : (
              <FormattedMessage id="password.expiresSoon" values={{ days: expiry.daysLeft }} />
            )}
          </p>
        )}
      </section>
      <ChangePasswordCard />
    </div>
  );
}

function ChangePasswordCard() {
  const intl = useIntl();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [currentMissing, setCurrentMissing] = useState(false);
  const [errors, setErrors] = useState<NewPasswordErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setDone(false);
    const checks = checkNewPassword(newPassword, confirmPassword);
    setErrors(checks);
    setCurrentMissing(currentPassword === '');
    if (currentPassword === '' || checks.newPassword || checks.confirmPassword) return;
    setSubmitting(true);
    try {
      const renewed = await changePassword({ currentPassword, newPassword, confirmPassword });
      // The change revoked the old token: carry on with the fresh one (other windows follow through storage).
      adoptRenewedToken(renewed.token, renewed.expiresAt);
      setCurrentPassword('');
      setNewPassword('');
      setConfirmPassword('');
      setDone(true);
      await refreshUser().catch(() => {});
    } catch (cause) {
      setError(formatApiError(intl, toApiError(cause)));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <section className="card" aria-labelledby="change-password-title">
      <div className="card-header">
        <h2 id="change-password-title">
          <FormattedMessage id="password.change.title" />
        </h2>
      </div>
      <form onSubmit={onSubmit} noValidate className="form-narrow">
        <fieldset className="fieldset-plain" disabled={submitting}>
          <TextField
            id="change-current"
            type="password"
            autoComplete="current-password"
            label={<FormattedMessage id="password.current" />}
            value={currentPassword}
            onValueChange={setCurrentPassword}
            error={currentMissing ? intl.formatMessage({ id: 'validation.fieldRequired' }) : null}
          />
          <NewPasswordFields
            idPrefix="change"
            newPassword={newPassword}
            confirmPassword={confirmPassword}
            onNewPassword={setNewPassword}
            onConfirmPassword={setConfirmPassword}
            errors={errors}
          />
        </fieldset>
        {error && (
          <p role="alert" className="alert alert-error">
            {error}
          </p>
        )}
        {done && (
          <p role="status" className="alert alert-success">
            <FormattedMessage id="password.change.done" />
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={submitting} aria-busy={submitting}>
          <FormattedMessage id="password.change.submit" />
        </button>
      </form>
    </section>
  );
}
