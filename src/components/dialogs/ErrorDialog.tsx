import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useReturnFocus } from './return-focus.ts';

export interface ErrorDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Defaults to 'Error'. */
  title?: ReactNode;
  /** The translated message (formatApiError). */
  message: ReactNode;
}

/** SPEC §2 error dialog: the message of a failed action; OK, Escape or a click outside close it. */
export function ErrorDialog({ open, onOpenChange, title, message }: ErrorDialogProps) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog dialog-error"
          role="alertdialog"
          onOpenAutoFocus={returnFocus.remember}
          onCloseAutoFocus={returnFocus.restore}
        >
          <div className="dialog-heading">
            <span className="dialog-icon" aria-hidden="true">
              !
            </span>
            <Dialog.Title className="dialog-title">{title ?? <FormattedMessage id="dialog.error.title" />}</Dialog.Title>
          </div>
          <Dialog.Description className="dialog-description">{message}</Dialog.Description>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button" className="button button-primary">
                <FormattedMessage id="dialog.ok" />
              </button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
