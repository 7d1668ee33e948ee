import * as Dialog from '@radix-ui/react-dialog';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { AssetSpecification, Market } from '../../../protocol/reference.ts';
import { fetchAssets, fetchMarkets } from '../../api/reference.ts';
import { formatExchangeDateTime } from '../../i18n/format.ts';
import { useRealtime } from '../../realtime/RealtimeProvider.tsx';
import { categoryLabel, describeEntry, type Reference } from './describe.ts';
import { notificationCategories, notificationCenterFor, unreadCount, type CenterState, type NotificationCategory, type NotificationCenter } from './notification-center.ts';
import './Notifications.css';

/** The centre's state, rendered live. */
export function useCenterState(center: NotificationCenter): CenterState {
  const [state, setState] = useState(center.current);
  useEffect(() => {
    const subscription = center.state$.subscribe(setState);
    return () => subscription.unsubscribe();
  }, [center]);
  return state;
}

/** The header bell of the signed-in user: unread count, and the list on a click. */
export function NotificationBell() {
  const realtime = useRealtime();
  if (!realtime) return null;
  return <NotificationBellView center={notificationCenterFor(realtime.connection)} />;
}

export function NotificationBellView({ center, reference }: { center: NotificationCenter; reference?: Reference }) {
  const intl = useIntl();
  const state = useCenterState(center);
  const [open, setOpen] = useState(false);
  const unread = unreadCount(state.entries);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="icon-button notification-bell" aria-label={intl.formatMessage({ id: 'notifications.bell' }, { count: unread })}>
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path
              d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2z"
              fill="currentColor"
            />
          </svg>
          {unread > 0 && (
            <span className="notification-count" aria-hidden="true" data-testid="notification-count">
              {unread > 99 ? '99+' : intl.formatNumber(unread)}
            </span>
          )}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay notification-overlay" />
        <Dialog.Content className="drawer notification-drawer" aria-describedby={undefined}>
          {open && <NotificationList center={center} state={state} {...(reference ? { reference } : {})} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Markets and assets for the texts (cached per session), when none are given. */
export function useReference(given: Reference | undefined): Reference {
  const [loaded, setLoaded] = useState<{ assets: readonly AssetSpecification[]; markets: readonly Market[] } | null>(null);
  useEffect(() => {
    if (given) return undefined;
    let live = true;
    Promise.all([fetchMarkets(), fetchAssets()])
      .then(([{ markets }, assets]) => live && setLoaded({ markets, assets }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [given]);
  return useMemo(
    () => given ?? { assets: new Map(loaded?.assets.map((asset) => [asset.id, asset])), markets: new Map(loaded?.markets.map((market) => [market.id, market])) },
    [given, loaded],
  );
}

/** Every entry has this height (its text is clamped to two lines): the virtualiser never measures. */
const ROW_HEIGHT = 84;

/** The list: newest first, a kinds filter, mark all read; an entry is read once clicked. */
export function NotificationList({ center, state, reference: given }: { center: NotificationCenter; state: CenterState; reference?: Reference }) {
  const intl = useIntl();
  const reference = useReference(given);
  const [category, setCategory] = useState<NotificationCategory | 'all'>('all');
  const entries = category === 'all' ? state.entries : state.entries.filter((entry) => entry.category === category);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    initialRect: { width: 0, height: 560 },
  });
  const filters: Array<NotificationCategory | 'all'> = ['all', ...notificationCategories];
  return (
    <>
      <div className="drawer-header">
        <Dialog.Title className="dialog-title">
          <FormattedMessage id="notifications.title" />
        </Dialog.Title>
        <Dialog.Close asChild>
          <button type="button" className="icon-button" aria-label={intl.formatMessage({ id: 'notifications.close' })}>
            ×
          </button>
        </Dialog.Close>
      </div>
      <div className="notification-toolbar">
        <div className="notification-filter" role="radiogroup" aria-label={intl.formatMessage({ id: 'notifications.filter' })}>
          {filters.map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={category === value}
              className={category === value ? 'chip chip-link active' : 'chip chip-link'}
              onClick={() => setCategory(value)}
            >
              <FormattedMessage id={value === 'all' ? 'notifications.all' : categoryLabel[value]} />
            </button>
          ))}
        </div>
        <button type="button" className="button button-small button-secondary" onClick={() => center.markAllRead()} disabled={unreadCount(state.entries) === 0}>
          <FormattedMessage id="notifications.markAllRead" />
        </button>
      </div>
      {entries.length === 0 ? (
        <p className="muted notification-empty">
          <FormattedMessage id="notifications.empty" />
        </p>
      ) : (
        <div ref={scrollRef} className="notification-scroll">
          <ul className="notification-list" aria-label={intl.formatMessage({ id: 'notifications.list' })} style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const entry = entries[item.index];
              if (!entry) return null;
              const { text, tone } = describeEntry(intl, entry, reference);
              return (
                <li
                  key={entry.key}
                  data-index={item.index}
                  className={`notification-item notification-${tone}${entry.read ? '' : ' notification-unread'}`}
                  style={{ height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                  data-testid="notification"
                  data-category={entry.category}
                >
                  <button type="button" className="notification-item-button" onClick={() => center.markRead(entry.key)}>
                    <span className="notification-text">{text}</span>
                    <span className="notification-meta small muted">
                      <FormattedMessage id={categoryLabel[entry.category]} />
                      {' · '}
                      <time dateTime={entry.at}>{formatExchangeDateTime(intl, entry.at)}</time>
                      {!entry.read && (
                        <span className="notification-dot" title={intl.formatMessage({ id: 'notifications.unread' })}>
                          <span className="visually-hidden">
                            <FormattedMessage id="notifications.unread" />
                          </span>
                        </span>
                      )}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </>
  );
}
