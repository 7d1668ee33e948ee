import { FormattedMessage, useIntl } from 'react-intl';
import { PASSWORD_MIN_LENGTH, passwordRules, type NewPasswordErrors } from '../../auth/password.ts';
import { TextField } from './TextField.tsx';

export interface NewPasswordFieldsProps {
  idPrefix: string;
  newPassword: string;
  confirmPassword: string;
  onNewPassword: (value: string) => void;
  onConfirmPassword: (value: string) => void;
  errors: NewPasswordErrors;
  disabled?: boolean;
}

/** New password with the SPEC §5 policy as a live checklist, and its confirmation. */
export function NewPasswordFields({
  idPrefix,
  newPassword,
  confirmPassword,
  onNewPassword,
  onConfirmPassword,
  errors,
  disabled,
}: NewPasswordFieldsProps) {
  const intl = useIntl();
  return (
    <>
      <TextField
        id={`${idPrefix}-new`}
        type="password"
        autoComplete="new-password"
        label={<FormattedMessage id="password.new" />}
        value={newPassword}
        onValueChange={onNewPassword}
        error={errors.newPassword ? intl.formatMessage({ id: errors.newPassword }) : null}
        disabled={disabled}
        hint={
          <ul className="password-rules" aria-label={intl.formatMessage({ id: 'password.rules' })}>
            {passwordRules.map((rule) => {
              const met = rule.test(newPassword);
              return (
                <li key={rule.key} className={met ? 'rule-met' : undefined}>
                  <span aria-hidden="true">{met ? '✓' : '•'}</span>{' '}
                  <FormattedMessage id={rule.key} values={{ minLength: PASSWORD_MIN_LENGTH }} />
                </li>
              );
            })}
          </ul>
        }
      />
      <TextField
        id={`${idPrefix}-confirm`}
        type="password"
        autoComplete="new-password"
        label={<FormattedMessage id="password.confirm" />}
        value={confirmPassword}
        onValueChange={onConfirmPassword}
        error={errors.confirmPassword ? intl.formatMessage({ id: errors.confirmPassword }) : null}
        disabled={disabled}
      />
    </>
  );
}
