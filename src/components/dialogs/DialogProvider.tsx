import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { toApiError, type ApiErrorLike } from '../../api/errors.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { ErrorDialog } from './ErrorDialog.tsx';

export interface ConfirmOptions {
  title: ReactNode;
  description: ReactNode;
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
  tone?: 'default' | 'danger';
}

interface Dialogs {
  /** Opens the confirmation dialog; resolves true when confirmed, false when cancelled or dismissed. */
  confirm(options: ConfirmOptions): Promise<boolean>;
  /** Opens the error dialog with a refusal (code and params) or anything thrown. */
  showError(error: unknown, title?: ReactNode): void;
}

const DialogContext = createContext<Dialogs | null>(null);

/** One confirmation dialog and one error dialog for the whole app, opened imperatively. */
export function DialogProvider({ children }: { children: ReactNode }) {
  const intl = useIntl();
  const [confirmState, setConfirmState] = useState<(ConfirmOptions & { open: boolean }) | null>(null);
  const resolver = useRef<((confirmed: boolean) => void) | null>(null);
  const [errorState, setErrorState] = useState<{ open: boolean; message: string; title?: ReactNode } | null>(null);

  const settle = useCallback((confirmed: boolean) => {
    resolver.current?.(confirmed);
    resolver.current = null;
  }, []);

  const dialogs = useMemo<Dialogs>(
    () => ({
      confirm(options) {
        settle(false);
        setConfirmState({ ...options, open: true });
        return new Promise<boolean>((resolve) => {
          resolver.current = resolve;
        });
      },
      showError(error, title) {
        const apiError: ApiErrorLike =
          typeof error === 'object' && error !== null && 'code' in error && typeof (error as ApiErrorLike).code === 'string'
            ? (error as ApiErrorLike)
            : toApiError(error);
        setErrorState({ open: true, message: formatApiError(intl, apiError), title });
      },
    }),
    [intl, settle],
  );

  return (
    <DialogContext.Provider value={dialogs}>
      {children}
      {confirmState && (
        <ConfirmDialog
          {...confirmState}
          onOpenChange={(open) => {
            if (!open) {
              settle(false);
              setConfirmState((state) => (state ? { ...state, open: false } : state));
            }
          }}
          onConfirm={() => settle(true)}
        />
      )}
      {errorState && (
        <ErrorDialog
          open={errorState.open}
          title={errorState.title}
          message={errorState.message}
          onOpenChange={(open) => !open && setErrorState((state) => (state ? { ...state, open: false } : state))}
        />
      )}
    </DialogContext.Provider>
  );
}

export function useDialogs(): Dialogs {
  const dialogs = useContext(DialogContext);
  if (!dialogs) throw new Error('useDialogs needs a DialogProvider');
  return dialogs;
}
