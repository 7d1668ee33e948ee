import { useSelector } from '@xstate/react';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { OrderForm, OrderTicketMode } from '../../machines/order-ticket.machine.ts';
import { storedClientMemory } from '../../machines/client-memory.ts';
import { canTrade } from '../../machines/permissions.ts';
import { phasePermissions, type PhasePermissions } from '../../machines/session-phase.machine.ts';
import { watchPhase, type SessionActorRef } from '../../machines/session.machine.ts';
import type { AssetSpecification } from '../../protocol/reference.ts';
import type { Order } from '../../protocol/market-data.ts';
import { appOrdersApi } from '../api/trading.ts';
import { useUser } from '../auth/use-auth.ts';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';
import { formatApiError } from '../i18n/format-error.ts';
import { useMyTradesList, useSessionReference } from './live.ts';
import { OrderDialog, type OrderTicketRequest } from './OrderDialog.tsx';

interface TradingDesk {
  /** Opens the order dialog (add, modify, cancel, suspend, activate); a new order only for a user who may trade. */
  openTicket(request: OrderTicketRequest): void;
  /** machines/permissions.ts canTrade of the signed-in user: whether Buy/Sell, level clicks and B/S are offered. */
  canTrade: boolean;
}

const DeskContext = createContext<TradingDesk | null>(null);

export function useTradingDesk(): TradingDesk {
  const desk = useContext(DeskContext);
  return desk ?? { openTicket: () => undefined, canTrade: false };
}

function samePermissions(a: PhasePermissions | null, b: PhasePermissions | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (Object.keys(a) as Array<keyof PhasePermissions>).every((key) => a[key] === b[key]);
}

/** What the phase of the ticket's asset allows, from the session-phase machine. */
function LivePermissions({ session, asset, children }: { session: SessionActorRef; asset: AssetSpecification; children: (permissions: PhasePermissions | null) => ReactNode }) {
  const actor = useMemo(() => watchPhase(session, asset.marketId, asset.id), [session, asset.marketId, asset.id]);
  const permissions = useSelector(actor, phasePermissions, samePermissions);
  return <>{children(permissions)}</>;
}

export function Permissions({ asset, children }: { asset: AssetSpecification; children: (permissions: PhasePermissions | null) => ReactNode }) {
  const realtime = useRealtime();
  if (!realtime) return <>{children(null)}</>;
  return (
    <LivePermissions key={asset.id} session={realtime.session} asset={asset}>
      {children}
    </LivePermissions>
  );
}

/**
 * The trading desk every signed-in page shares: the order dialog (opened from books, tables and the
 * B/S shortcuts). The toasts are in the header's tray (notifications/ToastTray.tsx).
 */
export function TradingDeskProvider({ children }: { children: ReactNode }) {
  const intl = useIntl();
  const user = useUser();
  const [request, setRequest] = useState<OrderTicketRequest | null>(null);
  const trader = canTrade(user);
  const desk = useMemo<TradingDesk>(
    () => ({ openTicket: (next) => (next.mode !== 'add' || trader) && setRequest({ ...next }), canTrade: trader }),
    [trader],
  );
  const username = user?.username ?? null;
  const clientMemory = useMemo(() => (username ? storedClientMemory(username) : null), [username]);
  const close = useCallback(() => setRequest(null), []);
  const api = useMemo(() => appOrdersApi(), []);
  const reference = useSessionReference();
  useMyTradesList(); // keeps the session's own trades from the first moment
  const onAssetChange = useCallback((asset: AssetSpecification, carried: Partial<OrderForm>) => setRequest({ mode: 'add', asset, defaults: carried }), []);
  const onAccepted = useCallback((_order: Order | null, _mode: OrderTicketMode) => undefined, []);
  return (
    <DeskContext.Provider value={desk}>
      {reference.status === 'failed' && reference.error && (
        <div className="alert alert-error reference-alert" role="alert">
          <FormattedMessage id="session.referenceFailed" values={{ reason: formatApiError(intl, reference.error) }} />{' '}
          <button type="button" className="button-link" onClick={reference.retry}>
            <FormattedMessage id="page.error.retry" />
          </button>
        </div>
      )}
      {children}
      {request ? (
        <Permissions asset={request.asset}>
          {(permissions) => (
            <OrderDialog
              request={request}
              onClose={close}
              api={api}
              clientCodes={user?.clientCodes ?? []}
              clientMemory={clientMemory}
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
    </DeskContext.Provider>
  );
}
