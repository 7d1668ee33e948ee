import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { useReturnFocus } from './return-focus.ts';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  /** Defaults to 'Confirm'. */
  confirmLabel?: ReactNode;
  /** Defaults to 'Cancel'. */
  cancelLabel?: ReactNode;
  /** `danger` draws the confirm button in the error colour (irreversible actions). */
  tone?: 'default' | 'danger';
  /** May be async: the dialog stays open and busy until it settles, then closes. */
  onConfirm: () => void | Promise<void>;
}

/**
 * SPEC §2 confirmation dialog (every transfer action asks for one). Radix Dialog gives the keyboard
 * behaviour: focus moves into the dialog (to Cancel, the safe choice) and is trapped there, Escape
 * closes it like Cancel, and focus returns to what opened it.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel,
  tone = 'default',
  onConfirm,
}: ConfirmDialogProps) {
  const intl = useIntl();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useReturnFocus();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          role="alertdialog"
          onOpenAutoFocus={(event) => {
            returnFocus.remember();
            event.preventDefault();
            cancelRef.current?.focus();
          }}
          onCloseAutoFocus={returnFocus.restore}
        >
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          <Dialog.Description className="dialog-description">{description}</Dialog.Description>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button ref={cancelRef} type="button" className="button button-secondary" disabled={busy}>
                {cancelLabel ?? intl.formatMessage({ id: 'dialog.cancel' })}
              </button>
            </Dialog.Close>
            <button
              type="button"
              className={tone === 'danger' ? 'button button-danger' : 'button button-primary'}
              onClick={() => void confirm()}
              disabled={busy}
              aria-busy={busy}
            >
              {confirmLabel ?? intl.formatMessage({ id: 'dialog.confirm' })}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
