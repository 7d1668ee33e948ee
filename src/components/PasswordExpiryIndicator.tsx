import { Link } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import { passwordExpiry } from '../auth/password.ts';
import { localePath } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';

/**
 * SPEC §2 password-expires-soon indicator: from 14 days before the expiry, a warning that links to
 * the profile, where the password is changed.
 */
export function PasswordExpiryIndicator({ passwordExpiresAt, now }: { passwordExpiresAt: string; now?: number }) {
  const locale = useLocale();
  const expiry = passwordExpiry(passwordExpiresAt, now);
  if (!expiry?.soon) return null;
  return (
    <Link to={localePath(locale, '/my-account')} className="chip chip-warning" role="status">
      <span aria-hidden="true">⚠</span>{' '}
      {expiry.daysLeft === 0 ? (
        <FormattedMessage id="password.expiresToday" />
      ) : (
        <FormattedMessage id="password.expiresSoon" values={{ days: expiry.daysLeft }} />
      )}
    </Link>
  );
}
