import * as Dialog from '@radix-ui/react-dialog';
import type { FormEvent, ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useReturnFocus } from '../components/dialogs/return-focus.ts';
import './workflows.css';

export interface WorkflowFormDialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description: ReactNode;
  submitLabel: ReactNode;
  onSubmit: () => void;
  busy?: boolean;
  /** A refusal of the server, translated; shown above the buttons. */
  error?: string | null;
  wide?: boolean;
  children: ReactNode;
}

/** The workflows' form dialogs (register a deal, a request, an upload, a reason): Radix keyboard behaviour, busy while sending. */
export function WorkflowFormDialog({ open, onClose, title, description, submitLabel, onSubmit, busy = false, error, wide = false, children }: WorkflowFormDialogProps) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={wide ? 'dialog dialog-wide' : 'dialog'} onOpenAutoFocus={() => returnFocus.remember()} onCloseAutoFocus={(event) => returnFocus.restore(event)}>
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          <Dialog.Description className="dialog-description">{description}</Dialog.Description>
          <form
            className="workflow-dialog-body"
            noValidate
            onSubmit={(event: FormEvent) => {
              event.preventDefault();
              if (!busy) onSubmit();
            }}
          >
            {children}
            {error && (
              <div className="alert alert-error" role="alert">
                {error}
              </div>
            )}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="button button-secondary" disabled={busy}>
                  <FormattedMessage id="dialog.cancel" />
                </button>
              </Dialog.Close>
              <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy || undefined}>
                {submitLabel}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
