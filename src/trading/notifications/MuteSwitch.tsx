import { useState } from 'react';
import { useIntl } from 'react-intl';
import { updatePreferences } from '../../auth/sign-in.ts';
import { useUser } from '../../auth/use-auth.ts';
import { useDialogs } from '../../components/dialogs/DialogProvider.tsx';

/**
 * The header's mute switch: the `notifications` preference of My account › Account settings (one
 * source of truth, saved with PUT /user/preferences). Muted: no toasts and no sound.
 */
export function MuteSwitch() {
  const user = useUser();
  const { showError } = useDialogs();
  if (!user) return null;
  return (
    <MuteSwitchView
      muted={!user.preferences.notifications}
      onChange={(muted) => updatePreferences({ notifications: !muted }).then(() => undefined)}
      onError={showError}
    />
  );
}

export interface MuteSwitchViewProps {
  muted: boolean;
  /** Saves the choice; the switch shows it at once and goes back if the save fails. */
  onChange: (muted: boolean) => Promise<void>;
  onError: (error: unknown) => void;
}

export function MuteSwitchView({ muted, onChange, onError }: MuteSwitchViewProps) {
  const intl = useIntl();
  const [pending, setPending] = useState<boolean | null>(null);
  const shown = pending ?? muted;

  async function toggle() {
    const next = !shown;
    setPending(next);
    try {
      await onChange(next);
    } catch (error) {
      onError(error);
    } finally {
      setPending(null);
    }
  }

  return (
    <button
      type="button"
      className="icon-button mute-switch"
      aria-pressed={shown}
      aria-label={intl.formatMessage({ id: 'notifications.mute' })}
      title={intl.formatMessage({ id: shown ? 'notifications.mutedHint' : 'notifications.unmutedHint' })}
      aria-busy={pending !== null}
      onClick={() => void toggle()}
      data-testid="mute-switch"
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <path d="M4 9v6h4l5 4V5L8 9H4z" fill="currentColor" />
        {shown ? (
          <path d="m16 9 5 6m0-6-5 6" stroke="currentColor" strokeWidth="2" strokeLinecap="round" fill="none" />
        ) : (
          <path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" fill="none" />
        )}
      </svg>
    </button>
  );
}
