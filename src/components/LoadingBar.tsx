import { useRouterState } from '@tanstack/react-router';
import { useEffect, useSyncExternalStore } from 'react';
import { useIntl } from 'react-intl';
import { loadingBar as appLoadingBar, type LoadingBarController } from './loading-bar.ts';

/** The thin bar at the top of the window; see loading-bar.ts for its timing. */
export function LoadingBar({ controller = appLoadingBar }: { controller?: LoadingBarController }) {
  const intl = useIntl();
  const { visible, progress } = useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getSnapshot);
  return (
    <div className={visible ? 'loading-bar loading-bar-visible' : 'loading-bar'} aria-hidden={!visible}>
      {visible && (
        <div
          className="loading-bar-fill"
          role="progressbar"
          aria-label={intl.formatMessage({ id: 'app.loading' })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress)}
          style={{ transform: `scaleX(${progress / 100})` }}
        />
      )}
    </div>
  );
}

/** Puts route navigation (loaders, code chunks) under the loading bar. */
export function NavigationLoading({ controller = appLoadingBar }: { controller?: LoadingBarController }) {
  const loading = useRouterState({ select: (state) => state.isLoading || state.status === 'pending' });
  useEffect(() => {
    if (!loading) return;
    return controller.start();
  }, [loading, controller]);
  return null;
}
