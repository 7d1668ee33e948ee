import { FormattedMessage } from 'react-intl';
import { TextField, type TextFieldProps } from './TextField.tsx';

/** The six-digit code from the authenticator app, as sign-in and the reset of an expired password ask for it. */
export function VerificationCodeField(props: Omit<TextFieldProps, 'label' | 'hint'>) {
  return (
    <TextField
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={12}
      className="code-input"
      label={<FormattedMessage id="login.code" />}
      hint={<FormattedMessage id="login.codeHint" />}
      {...props}
    />
  );
}
