import * as Dialog from '@radix-ui/react-dialog';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { TOKEN_EXPIRY_MARGIN_MS } from '../../protocol/auth.ts';
import { authRedirects } from '../app/middleware.ts';
import { TextField } from '../components/form/TextField.tsx';
import { VerificationCodeField } from '../components/form/VerificationCodeField.tsx';
import { formatApiError } from '../i18n/format-error.ts';
import { localePath } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';
import type { ClientError } from '../../streams/api.ts';
import { closeRenewal, formatRemaining, openRenewal, useRenewalOpen } from './renewal.ts';
import { renewSession, useSession } from './session.ts';
import { signOut } from './sign-in.ts';

/** The time left before the token counts as expired, ticking every second while `active`. */
function useRemaining(expiresAt: number | null, active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a clock that starts again reads the time at once, not a second later
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return expiresAt === null ? 0 : expiresAt - TOKEN_EXPIRY_MARGIN_MS - now;
}

/** Header chip: the countdown in the last two minutes, then 'Session expired'; opens the dialog. */
export function SessionCountdown() {
  const session = useSession();
  const phase = session?.phase ?? null;
  const warning = phase === 'expiring' || phase === 'renewing';
  const remaining = useRemaining(session?.expiresAt ?? null, warning);
  if (!warning && phase !== 'expired') return null;
  return (
    <button type="button" className="chip chip-warning session-countdown" onClick={openRenewal} data-testid="session-countdown">
      {warning ? <FormattedMessage id="session.expiresIn" values={{ time: formatRemaining(remaining) }} /> : <FormattedMessage id="session.expiredChip" />}
    </button>
  );
}

/** Above the page once the token expired: says so, and that no order action is offered. */
export function SessionExpiredBanner() {
  const session = useSession();
  if (session?.phase !== 'expired') return null;
  return (
    <div className="alert alert-warning session-expired-banner" role="alert">
      <span>
        <FormattedMessage id="session.expiredBanner" />
      </span>
      <button type="button" className="button button-primary button-small" onClick={openRenewal}>
        <FormattedMessage id="session.renew" />
      </button>
    </div>
  );
}

/**
 * Signing in again over the current page (password and a new verification code, as the same user):
 * the page, its books, tickets and the socket stay. Shown in every window at once; a success in one
 * closes it in all (the new token reaches them through session.ts).
 */
export function SessionRenewalDialog() {
  const intl = useIntl();
  const locale = useLocale();
  const navigate = useNavigate();
  const session = useSession();
  const open = useRenewalOpen() && session !== null;
  const phase = session?.phase ?? null;
  const remaining = useRemaining(session?.expiresAt ?? null, open && phase !== 'expired');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<ClientError | null>(null);
  const busy = phase === 'renewing';
  const ids = { password: useId(), code: useId() };

  useEffect(() => {
    if (open) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- however the dialog closed (here, the chip, a renewal elsewhere), it opens empty next time
    setPassword('');
    setCode('');
    setError(null);
  }, [open]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setError(null);
    try {
      await renewSession(password, code);
    } catch (refusal) {
      setError(refusal as ClientError);
      setCode('');
    }
  }

  async function leave() {
    closeRenewal();
    signOut();
    await navigate({ to: localePath(locale, authRedirects.logout) });
  }

  const username = session?.user?.username ?? '';
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? openRenewal() : !busy && closeRenewal())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog session-renewal" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">
            <FormattedMessage id="session.renewTitle" />
          </Dialog.Title>
          <p className="dialog-description">
            {phase === 'expired' ? (
              <FormattedMessage id="session.renewExpired" />
            ) : (
              <FormattedMessage id="session.renewExpiring" values={{ time: <strong className="mono">{formatRemaining(remaining)}</strong> }} />
            )}
          </p>
          <form onSubmit={(event) => void submit(event)} noValidate>
            <p className="muted small">
              <FormattedMessage id="session.renewUser" values={{ username: <strong>{username}</strong> }} />
            </p>
            {/* The user name for the browser's password manager; it cannot be changed here. */}
            <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
            <TextField id={ids.password} label={<FormattedMessage id="login.password" />} type="password" autoComplete="current-password" value={password} onValueChange={setPassword} required autoFocus />
            <VerificationCodeField id={ids.code} value={code} onValueChange={setCode} required />
            {error && (
              <div className="alert alert-error" role="alert">
                {formatApiError(intl, error)}
              </div>
            )}
            <div className="dialog-actions">
              <button type="button" className="button button-ghost" onClick={() => void leave()} disabled={busy}>
                <FormattedMessage id="session.renewSignOut" />
              </button>
              <Dialog.Close asChild>
                <button type="button" className="button button-secondary" disabled={busy}>
                  <FormattedMessage id="session.renewLater" />
                </button>
              </Dialog.Close>
              <button type="submit" className="button button-primary" disabled={busy || password === '' || code.trim() === ''} aria-busy={busy || undefined}>
                <FormattedMessage id="session.renewSubmit" />
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
