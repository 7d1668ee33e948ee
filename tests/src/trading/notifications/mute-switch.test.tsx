// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MuteSwitchView } from '../../../../src/trading/notifications/MuteSwitch.tsx';
import { WithIntl } from '../../components/intl.tsx';

afterEach(cleanup);

/** The preference as the session keeps it: the switch reads it and saves through `save`. */
function Harness({ save, onError }: { save: (muted: boolean) => Promise<void>; onError: (error: unknown) => void }) {
  const [notifications, setNotifications] = useState(true);
  return (
    <MuteSwitchView
      muted={!notifications}
      onChange={async (muted) => {
        await save(muted);
        setNotifications(!muted);
      }}
      onError={onError}
    />
  );
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('the mute switch', () => {
  it('saves the notifications preference, shows the choice at once and keeps it once saved', async () => {
    const pending = deferred();
    const save = vi.fn(() => pending.promise);
    render(
      <WithIntl>
        <Harness save={save} onError={vi.fn()} />
      </WithIntl>,
    );
    const button = screen.getByRole('button', { name: 'Mute notifications' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(button.getAttribute('title')).toBe('Mute pop-ups and sounds (the bell keeps the list)');
    fireEvent.click(button);
    expect(save).toHaveBeenCalledWith(true);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    await act(async () => pending.resolve());
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(button.getAttribute('title')).toBe('Muted: no pop-ups and no sound; the bell still keeps the list');
  });

  it('goes back and says why when the preference cannot be saved', async () => {
    const pending = deferred();
    const onError = vi.fn();
    render(
      <WithIntl locale="ro">
        <Harness save={() => pending.promise} onError={onError} />
      </WithIntl>,
    );
    const button = screen.getByRole('button', { name: 'Dezactivează notificările' });
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    const failure = new Error('offline');
    await act(async () => pending.reject(failure));
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(onError).toHaveBeenCalledWith(failure);
  });
});
