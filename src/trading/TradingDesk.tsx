import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { defer, merge, type Observable } from 'rxjs';
import { filter, map } from 'rxjs/operators';
import type { OrderForm, OrderTicketMode } from '../../machines/order-ticket.machine.ts';
import { phasePermissions, sessionPhaseMachineFor, type PhasePermissions } from '../../machines/session-phase.machine.ts';
import type { AssetSpecification, Market } from '../../protocol/reference.ts';
import type { Order, OrderUpdate, Transaction } from '../../protocol/market-data.ts';
import type { Connection } from '../../streams/connection.ts';
import { fetchAssets, fetchMarkets } from '../api/reference.ts';
import { appOrdersApi } from '../api/trading.ts';
import { useUser } from '../auth/use-auth.ts';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import { formatMinor } from '../i18n/format.ts';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';
import { sharedMyTrades, sharedOrderUpdates, useMyTradesList } from './live.ts';
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
/** Order updates this soon after subscribing, and any with the same seq, are the server's replay of what is there, not news. */
export const REPLAY_WINDOW_MS = 1500;

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

export interface NotificationSources {
  orders: Observable<OrderUpdate>;
  trades: Observable<Transaction>;
  intl: IntlShape;
  assets: () => ReadonlyMap<string, AssetSpecification>;
  /** Clock (tests). */
  now?: () => number;
}

/**
 * The toasts for own order events and trades. Order updates in the first moments after subscribing,
 * and any later one with the same seq, are the server's replay of the orders there are: not news.
 * Trades are not replayed on subscribe, so every one is news.
 */
export function notificationToasts({ orders, trades, intl, assets, now = Date.now }: NotificationSources): Observable<Omit<Toast, 'id'>> {
  return defer(() => {
    const since = now();
    let replaySeq: number | null = null;
    const describe = (order: Order) => {
      const asset = assets().get(order.assetId);
      return {
        way: intl.formatMessage({ id: enumLabelKey('way', order.way) }),
        status: intl.formatMessage({ id: enumLabelKey('orderStatus', order.status) }),
        asset: asset?.code ?? order.assetId,
        qty: asset ? formatMinor(intl, order.offeredQty, asset.quantityDecimals) : String(order.offeredQty),
        price: order.price === null ? '—' : asset ? formatMinor(intl, order.price, asset.priceDecimals) : String(order.price),
        client: order.clientCode,
      };
    };
    const orderToasts = orders.pipe(
      filter((update) => {
        if (replaySeq === null && now() - since < REPLAY_WINDOW_MS) {
          replaySeq = update.seq;
          return false;
        }
        return replaySeq === null || update.seq > replaySeq;
      }),
      map((update): Omit<Toast, 'id'> => ({
        tone: update.order.status === 'cancelled' ? 'warning' : 'info',
        text: intl.formatMessage({ id: update.order.suspended ? 'notify.orderSuspended' : 'notify.order' }, describe(update.order)),
      })),
    );
    const tradeToasts = trades.pipe(
      map((trade): Omit<Toast, 'id'> => {
        const asset = assets().get(trade.assetId);
        return {
          tone: 'success',
          text: intl.formatMessage(
            { id: 'notify.trade' },
            {
              asset: asset?.code ?? trade.assetId,
              qty: asset ? formatMinor(intl, trade.qty, asset.quantityDecimals) : String(trade.qty),
              price: asset ? formatMinor(intl, trade.price, asset.priceDecimals) : String(trade.price),
              buyer: trade.buyer,
              seller: trade.seller,
            },
          ),
        };
      }),
    );
    return merge(orderToasts, tradeToasts);
  });
}

function useNotifications(connection: Connection | null, enabled: boolean, sound: boolean, assetList: readonly AssetSpecification[]) {
  const intl = useIntl();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const assets = useMemo(() => new Map(assetList.map((asset) => [asset.id, asset])), [assetList]);
  const soundRef = useRef(sound);
  soundRef.current = sound;
  const assetsRef = useRef(assets);
  assetsRef.current = assets;

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)), []);

  useEffect(() => {
    if (!connection || !enabled) return undefined;
    const toasts$ = notificationToasts({
      orders: sharedOrderUpdates(connection),
      trades: sharedMyTrades(connection),
      intl,
      assets: () => assetsRef.current,
    });
    const subscription = toasts$.subscribe((toast) => {
      const id = nextId.current++;
      setToasts((list) => [...list.slice(-4), { ...toast, id }]);
      setTimeout(() => dismiss(id), TOAST_MS);
      if (soundRef.current) beep();
    });
    return () => subscription.unsubscribe();
  }, [connection, enabled, intl, dismiss]);

  return { toasts, dismiss };
}

/**
 * The trading desk every signed-in page shares: the order dialog (opened from books, tables and the
 * B/S shortcuts) and the notification toasts for own order events and trades.
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
