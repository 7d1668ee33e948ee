import { useCallback, useEffect, useEffectEvent, useState } from 'react';

export type AsyncState<T> =
  | { status: 'loading'; data: undefined; error: undefined }
  | { status: 'success'; data: T; error: undefined }
  | { status: 'error'; data: undefined; error: unknown };

/**
 * Loads data for one card of a page (the page itself shows at once; each card has its own loading
 * and error state). `reload` runs the loader again.
 */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): AsyncState<T> & { reload: () => void } {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading', data: undefined, error: undefined });
  const [attempt, setAttempt] = useState(0);
  // The latest loader, called by the effect without being one of its dependencies.
  const run = useEffectEvent(load);

  useEffect(() => {
    const controller = new AbortController();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a new request starts from 'loading' (deps or reload changed)
    setState({ status: 'loading', data: undefined, error: undefined });
    run(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ status: 'success', data, error: undefined }),
      (error: unknown) => !controller.signal.aborted && setState({ status: 'error', data: undefined, error }),
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `deps` is the caller's dependency list, passed on like useEffect's own
  }, [attempt, ...deps]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  return { ...state, reload };
}
