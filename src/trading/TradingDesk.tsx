import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { defer, Observable } from 'rxjs';
import { map } from 'rxjs/operators';
import type { OrderForm, OrderTicketMode } from '../../machines/order-ticket.machine.ts';
import { phasePermissions, sessionPhaseMachineFor, type PhasePermissions } from '../../machines/session-phase.machine.ts';
import type { AssetSpecification, Market } from '../../protocol/reference.ts';
import type { Order } from '../../protocol/market-data.ts';
import type { Connection } from '../../streams/connection.ts';
import { fetchAssets, fetchMarkets } from '../api/reference.ts';
import { appOrdersApi } from '../api/trading.ts';
import { useUser } from '../auth/use-auth.ts';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';
import { useMyTradesList } from './live.ts';
import { describeEntry } from './notifications/describe.ts';
import { createNotificationCenter, notificationCenterFor, REPLAY_WINDOW_MS, type NotificationSources as CenterSources } from './notifications/notification-center.ts';
import { OrderDialog, type OrderTicketRequest } from './OrderDialog.tsx';

interface TradingDesk {
  /** Opens the order dialog (add, modify, cancel, suspend, activate). */
  openTicket(request: OrderTicketRequest): void;
}

const DeskContext = createContext<TradingDesk | null>(null);

export function useTradingDesk(): TradingDesk {
  const desk = useContext(DeskContext);
  return desk ?? { openTicket: () => undefined };
}

function samePermissions(a: PhasePermissions | null, b: PhasePermissions | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (Object.keys(a) as Array<keyof PhasePermissions>).every((key) => a[key] === b[key]);
}

/** What the phase of the ticket's asset allows, from the session-phase machine. */
function LivePermissions({ connection, asset, children }: { connection: Connection; asset: AssetSpecification; children: (permissions: PhasePermissions | null) => ReactNode }) {
  const machine = useMemo(() => sessionPhaseMachineFor(connection), [connection]);
  const actor = useActorRef(machine, { input: { marketId: asset.marketId, assetId: asset.id } });
  const permissions = useSelector(actor, phasePermissions, samePermissions);
  return <>{children(permissions)}</>;
}

export function Permissions({ asset, children }: { asset: AssetSpecification; children: (permissions: PhasePermissions | null) => ReactNode }) {
  const realtime = useRealtime();
  if (!realtime) return <>{children(null)}</>;
  return (
    <LivePermissions key={asset.id} connection={realtime.connection} asset={asset}>
      {children}
    </LivePermissions>
  );
}

// --- Notifications -------------------------------------------------------------------------------

export interface Toast {
  id: number;
  tone: 'info' | 'success' | 'warning';
  text: string;
}

const TOAST_MS = 8000;
export { REPLAY_WINDOW_MS };

let audioContext: AudioContext | null = null;
/** A short beep through WebAudio (the sound notification preference). */
export function beep(): void {
  try {
    const Context = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!Context) return;
    audioContext ??= new Context();
    const oscillator = audioContext.createOscillator();
    const gain = audioContext.createGain();
    oscillator.frequency.value = 880;
    gain.gain.value = 0.08;
    oscillator.connect(gain).connect(audioContext.destination);
    oscillator.start();
    oscillator.stop(audioContext.currentTime + 0.15);
  } catch {
    // No audio output: the toast is enough.
  }
}

export function ToastRegion({ toasts, onDismiss }: { toasts: readonly Toast[]; onDismiss: (id: number) => void }) {
  const intl = useIntl();
  return (
    <div className="toast-region" role="status" aria-live="polite" aria-label={intl.formatMessage({ id: 'notify.region' })}>
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.tone}`} data-testid="toast">
          <span>{toast.text}</span>
          <button type="button" className="icon-button" aria-label={intl.formatMessage({ id: 'notify.dismiss' })} onClick={() => onDismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

/** Markets and assets the user sees (cached reference data), once signed in. */
function useReference(connection: Connection | null) {
  const [reference, setReference] = useState<{ markets: readonly Market[]; assets: readonly AssetSpecification[] }>({ markets: [], assets: [] });
  useEffect(() => {
    if (!connection) return;
    let live = true;
    Promise.all([fetchMarkets(), fetchAssets()])
      .then(([{ markets }, assets]) => live && setReference({ markets, assets }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [connection]);
  return reference;
}

export interface NotificationSources extends CenterSources {
  intl: IntlShape;
  assets: () => ReadonlyMap<string, AssetSpecification>;
}

/**
 * The toasts: one per new entry of a notification centre fed by these sources (own order events,
 * own trades, the server's notifications). A fact the centre already has (the server's version of a
 * trade or an order's end) makes no second toast.
 */
export function notificationToasts({ intl, assets, ...sources }: NotificationSources): Observable<Omit<Toast, 'id'>> {
  return defer(() => {
    const center = createNotificationCenter(sources);
    return new Observable<Omit<Toast, 'id'>>((subscriber) => {
      const subscription = center.added$.pipe(map((entry) => describeEntry(intl, entry, { assets: assets() }))).subscribe(subscriber);
      const stop = center.start();
      return () => {
        stop();
        subscription.unsubscribe();
      };
    });
  });
}

function useNotifications(connection: Connection | null, enabled: boolean, sound: boolean, assetList: readonly AssetSpecification[], marketList: readonly Market[]) {
  const intl = useIntl();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const reference = useMemo(
    () => ({ assets: new Map(assetList.map((asset) => [asset.id, asset])), markets: new Map(marketList.map((market) => [market.id, market])) }),
    [assetList, marketList],
  );
  const soundRef = useRef(sound);
  soundRef.current = sound;
  const referenceRef = useRef(reference);
  referenceRef.current = reference;

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)), []);

  useEffect(() => {
    if (!connection) return undefined;
    // The centre keeps the list for the bell whatever the preference; toasts and sound follow it.
    const center = notificationCenterFor(connection);
    if (!enabled) return undefined;
    const subscription = center.added$.subscribe((entry) => {
      const id = nextId.current++;
      setToasts((list) => [...list.slice(-4), { ...describeEntry(intl, entry, referenceRef.current), id }]);
      setTimeout(() => dismiss(id), TOAST_MS);
      if (soundRef.current) beep();
    });
    return () => subscription.unsubscribe();
  }, [connection, enabled, intl, dismiss]);

  return { toasts, dismiss };
}

/**
 * The trading desk every signed-in page shares: the order dialog (opened from books, tables and the
 * B/S shortcuts) and the notification toasts (own order events, trades, the server's notifications).
 */
export function TradingDeskProvider({ children }: { children: ReactNode }) {
  const realtime = useRealtime();
  const user = useUser();
  const [request, setRequest] = useState<OrderTicketRequest | null>(null);
  const desk = useMemo<TradingDesk>(() => ({ openTicket: (next) => setRequest({ ...next }) }), []);
  const close = useCallback(() => setRequest(null), []);
  const api = useMemo(() => appOrdersApi(), []);
  const preferences = user?.preferences;
  const reference = useReference(realtime?.connection ?? null);
  useMyTradesList(); // keeps the session's own trades from the first moment
  const { toasts, dismiss } = useNotifications(
    realtime?.connection ?? null,
    preferences?.notifications ?? true,
    preferences?.soundNotifications ?? false,
    reference.assets,
    reference.markets,
  );
  const onAssetChange = useCallback((asset: AssetSpecification, carried: Partial<OrderForm>) => setRequest({ mode: 'add', asset, defaults: carried }), []);
  const onAccepted = useCallback((_order: Order | null, _mode: OrderTicketMode) => undefined, []);
  return (
    <DeskContext.Provider value={desk}>
      {children}
      {request ? (
        <Permissions asset={request.asset}>
          {(permissions) => (
            <OrderDialog
              request={request}
              onClose={close}
              api={api}
              clientCodes={user?.clientCodes ?? []}
              permissions={permissions}
              onAccepted={onAccepted}
              markets={reference.markets}
              assets={reference.assets}
              onAssetChange={onAssetChange}
            />
          )}
        </Permissions>
      ) : (
        <OrderDialog request={null} onClose={close} api={api} clientCodes={[]} permissions={null} />
      )}
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
    </DeskContext.Provider>
  );
}
