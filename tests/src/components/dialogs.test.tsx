// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, NETWORK_ERROR } from '../../../src/api/errors.ts';
import { ConfirmDialog } from '../../../src/components/dialogs/ConfirmDialog.tsx';
import { DialogProvider, useDialogs } from '../../../src/components/dialogs/DialogProvider.tsx';
import { ErrorDialog } from '../../../src/components/dialogs/ErrorDialog.tsx';
import { WithIntl } from './intl.tsx';

afterEach(cleanup);

function ConfirmHarness({ onConfirm }: { onConfirm: () => void | Promise<void> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Transfer
      </button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Transfer the transaction?"
        description="It goes to the central counterparty."
        confirmLabel="Transfer now"
        onConfirm={onConfirm}
      />
    </>
  );
}

describe('confirmation dialog', () => {
  it('opens as an alert dialog with focus on Cancel, and Escape closes it without confirming', async () => {
    const onConfirm = vi.fn();
    render(
      <WithIntl>
        <ConfirmHarness onConfirm={onConfirm} />
      </WithIntl>,
    );
    const trigger = screen.getByRole('button', { name: 'Transfer' });
    trigger.focus();
    fireEvent.click(trigger);

    const dialog = await screen.findByRole('alertdialog', { name: 'Transfer the transaction?' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('It goes to the central counterparty.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));

    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(onConfirm).not.toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement).toBe(trigger)); // focus goes back where it was
  });

  it('keeps Tab inside the dialog and confirms with the keyboard', async () => {
    const onConfirm = vi.fn();
    render(
      <WithIntl>
        <ConfirmHarness onConfirm={onConfirm} />
      </WithIntl>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    const dialog = await screen.findByRole('alertdialog');
    const confirm = screen.getByRole('button', { name: 'Transfer now' });
    // Both actions are inside the dialog: the focus trap has nowhere else to go.
    expect(dialog.contains(confirm)).toBe(true);
    expect(dialog.contains(screen.getByRole('button', { name: 'Cancel' }))).toBe(true);
    confirm.focus();
    fireEvent.click(confirm); // Enter/Space on a focused button is a click
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('stays open and busy while an async confirmation runs', async () => {
    let finish!: () => void;
    const onConfirm = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(
      <WithIntl>
        <ConfirmHarness onConfirm={onConfirm} />
      </WithIntl>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Transfer now' }));
    expect(screen.getByRole('button', { name: 'Transfer now' }).getAttribute('aria-busy')).toBe('true');
    fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    expect(screen.getByRole('alertdialog')).toBeTruthy(); // not dismissed while busy
    await act(async () => finish());
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });
});

describe('error dialog', () => {
  it('shows the message, focuses OK, and closes with Escape', async () => {
    const onOpenChange = vi.fn();
    render(
      <WithIntl>
        <ErrorDialog open onOpenChange={onOpenChange} message="Cannot reach server!" />
      </WithIntl>,
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Something went wrong' });
    expect(dialog.textContent).toContain('Cannot reach server!');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'OK' })));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe('dialog provider', () => {
  function Buttons({ onResult }: { onResult: (confirmed: boolean) => void }) {
    const { confirm, showError } = useDialogs();
    return (
      <>
        <button type="button" onClick={() => void confirm({ title: 'Sign out?', description: 'Really?' }).then(onResult)}>
          Ask
        </button>
        <button type="button" onClick={() => showError(new ApiRequestError(NETWORK_ERROR))}>
          Fail
        </button>
        <button type="button" onClick={() => showError({ code: 'BRAND_NEW', params: {} })}>
          Fail oddly
        </button>
        <button type="button" onClick={() => showError(new Error('boom'))}>
          Crash
        </button>
      </>
    );
  }

  it('resolves confirm() with true or false', async () => {
    const onResult = vi.fn();
    render(
      <WithIntl>
        <DialogProvider>
          <Buttons onResult={onResult} />
        </DialogProvider>
      </WithIntl>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(onResult).toHaveBeenLastCalledWith(true));

    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    await screen.findByRole('alertdialog', { name: 'Sign out?' });
    fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    await waitFor(() => expect(onResult).toHaveBeenLastCalledWith(false));
  });

  it("translates what it is given: 'Cannot reach server!', 'Error: {code}', 'Unknown error!'", async () => {
    render(
      <WithIntl>
        <DialogProvider>
          <Buttons onResult={() => {}} />
        </DialogProvider>
      </WithIntl>,
    );
    const show = async (button: string) => {
      fireEvent.click(screen.getByRole('button', { name: button }));
      const dialog = await screen.findByRole('alertdialog');
      const text = dialog.textContent;
      fireEvent.click(screen.getByRole('button', { name: 'OK' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      return text;
    };
    expect(await show('Fail')).toContain('Cannot reach server!');
    expect(await show('Fail oddly')).toContain('Error: BRAND_NEW');
    expect(await show('Crash')).toContain('Unknown error!');
  });
});
