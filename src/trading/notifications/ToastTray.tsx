import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useUser } from '../../auth/use-auth.ts';
import { useRealtime } from '../../realtime/RealtimeProvider.tsx';
import { describeEntry, type Reference } from './describe.ts';
import { notificationCenterFor, type EntryChange, type NotificationCenter } from './notification-center.ts';
import { useCenterState, useReference } from './NotificationBell.tsx';
import { emptyTray, expireToasts, nextDeadline, removeToasts, showToast, type TrayState } from './toast-tray.ts';

let audioContext: AudioContext | null = null;
/** A short beep through WebAudio (the sound notification preference). */
export function beep(): void {
  try {
    const Context = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!Context) return;
    audioContext ??= new Context();
    const oscillator = audioContext.createOscillator();
    const gain = audioContext.createGain();
    oscillator.frequency.value = 880;
    gain.gain.value = 0.08;
    oscillator.connect(gain).connect(audioContext.destination);
    oscillator.start();
    oscillator.stop(audioContext.currentTime + 0.15);
  } catch {
    // No audio output: the toast is enough.
  }
}

/**
 * The toast tray of the signed-in user, a row of the header: it takes its own place in the page
 * (never over the books, the ticket or the tables). Muted (the `notifications` preference off), it
 * is not there at all: no toasts and no sound; the bell still keeps the list.
 */
export function ToastTray() {
  const realtime = useRealtime();
  const user = useUser();
  if (!realtime || !user || !user.preferences.notifications) return null;
  return <ToastTrayView center={notificationCenterFor(realtime.connection)} sound={user.preferences.soundNotifications} />;
}

export interface ToastTrayViewProps {
  center: NotificationCenter;
  sound: boolean;
  reference?: Reference;
  /** Clock (tests). */
  now?: () => number;
  onBeep?: () => void;
}

/** The toasts of a notification centre: the toast policy, grouping and timing come from the centre and the tray fold. */
export function ToastTrayView({ center, sound, reference: given, now = Date.now, onBeep = beep }: ToastTrayViewProps) {
  const intl = useIntl();
  const reference = useReference(given);
  const state = useCenterState(center);
  const [tray, setTray] = useState<TrayState>(emptyTray);
  // Effect events: they see the latest tray, sound setting and clock without re-subscribing.
  const clock = useEffectEvent(() => now());
  const onChange = useEffectEvent(({ type, entry }: EntryChange) => {
    if (!entry.toast || entry.read) return;
    const known = tray.visible.some((slot) => slot.key === entry.key) || tray.waiting.some((slot) => slot.key === entry.key);
    const toast = entry.toast;
    const at = now();
    setTray((current) => showToast(current, entry.key, toast, at));
    // One beep per toast, not one per fact grouped into it.
    if (sound && !known && type !== 'grown') onBeep();
  });

  useEffect(() => {
    const subscription = center.changes$.subscribe(onChange);
    return () => subscription.unsubscribe();
  }, [center]);

  // Read (here, in the bell's list, or all at once) or gone from the list: the toast leaves.
  useEffect(() => {
    const unread = new Set(state.entries.filter((entry) => !entry.read).map((entry) => entry.key));
    const at = clock();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the tray follows the centre's list, which is also read elsewhere (the bell, 'mark all read')
    setTray((current) => removeToasts(current, (key) => !unread.has(key), at));
  }, [state]);

  useEffect(() => {
    const deadline = nextDeadline(tray);
    if (deadline === null) return undefined;
    // The time is read before the update: an updater may run during rendering, where calling an effect event throws (React error 440).
    const timer = setTimeout(() => {
      const at = clock();
      setTray((current) => expireToasts(current, at));
    }, Math.max(0, deadline - now()));
    return () => clearTimeout(timer);
  }, [tray, now]);

  const byKey = useMemo(() => new Map(state.entries.map((entry) => [entry.key, entry])), [state]);
  const dismissLabel = intl.formatMessage({ id: 'notify.dismiss' });
  return (
    <div className="toast-tray" data-testid="toast-tray">
      <div className="toast-tray-inner" role="status" aria-live="polite" aria-label={intl.formatMessage({ id: 'notify.region' })}>
        {tray.visible.length === 0 && (
          <span className="toast-tray-empty" aria-hidden="true">
            <FormattedMessage id="notifications.trayEmpty" />
          </span>
        )}
        {tray.visible.map((slot) => {
          const entry = byKey.get(slot.key);
          if (!entry) return null;
          const { text, tone } = describeEntry(intl, entry, reference);
          return (
            <div key={slot.key} className={`tray-toast tray-toast-${tone}`} data-testid="toast" data-toast={slot.kind}>
              <button type="button" className="tray-toast-text" title={text} onClick={() => center.markRead(slot.key)}>
                {text}
              </button>
              <button type="button" className="icon-button tray-toast-dismiss" aria-label={dismissLabel} title={dismissLabel} onClick={() => center.markRead(slot.key)}>
                ×
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}
