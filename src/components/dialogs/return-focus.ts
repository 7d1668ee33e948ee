import { useMemo, useRef } from 'react';

/**
 * Radix gives focus back to its Dialog.Trigger on close; our dialogs are opened from code (no
 * trigger), so they remember what had the focus when they opened and give it back when they close.
 */
export function useReturnFocus() {
  const previous = useRef<HTMLElement | null>(null);
  return useMemo(
    () => ({
      remember: () => {
        const active = typeof document === 'undefined' ? null : document.activeElement;
        previous.current = active instanceof HTMLElement && active !== document.body ? active : null;
      },
      restore: (event: Event) => {
        const target = previous.current;
        previous.current = null;
        if (target && target.isConnected) {
          event.preventDefault();
          target.focus();
        }
      },
    }),
    [],
  );
}
