import { useLoaderData } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/use-page-title.ts';
import { SessionCountdown, SessionExpiredBanner } from '../../auth/SessionExpiry.tsx';
import { useCanAct } from '../../auth/use-auth.ts';
import { PhaseBadge } from '../../components/PhaseBadge.tsx';
import { AssetShortcuts, BuySellButtons, ticketFromLevel } from '../../trading/AssetTrading.tsx';
import { useBook, useMyOrders } from '../../trading/live.ts';
import { AssetOrderBook } from '../../trading/bilateral/AssetOrderBook.tsx';
import { Permissions, TradingDeskProvider, useTradingDesk } from '../../trading/TradingDesk.tsx';
import type { AssetData } from './loaders.ts';
import { localNameIn } from '../../i18n/reference-names.ts';

function LiveBook({ data }: { data: AssetData }) {
  const { asset } = data;
  const desk = useTradingDesk();
  const canAct = useCanAct();
  const book = useBook(asset.id);
  const orders = useMyOrders();
  return <AssetOrderBook book={book} asset={asset} ownOrders={orders} maxHeight={640} onLevel={canAct ? (side, level) => desk.openTicket(ticketFromLevel(asset, side, level)) : undefined} />;
}

/**
 * One asset's book in its own window (the "pop out" of a book, for a second monitor), in the empty
 * layout: the live book, the phase and the Buy/Sell buttons with their ticket and shortcuts. The
 * window shares the sign-in of the others (session.ts), so it needs no sign-in of its own, and signing
 * in again from any window renews it too.
 */
export function BookWindowPage() {
  const intl = useIntl();
  const data = useLoaderData({ strict: false }) as AssetData;
  const { asset, market } = data;
  usePageTitle(intl.formatMessage({ id: 'session.popOutTitle' }, { asset: asset.code }));
  return (
    <TradingDeskProvider>
      <div className="card popout-book" data-testid="book-window">
        <div className="popout-book-header">
          <h1 className="mono">{asset.code}</h1>
          <span className="muted small">
            {localNameIn(intl, asset)}
            {market ? ` · ${localNameIn(intl, market)}` : ''}
          </span>
          <Permissions asset={asset}>{(permissions) => <PhaseBadge phase={permissions?.phase ?? null} />}</Permissions>
          <SessionCountdown />
          <span className="popout-book-actions">
            <BuySellButtons asset={asset} />
          </span>
        </div>
        <SessionExpiredBanner />
        <p className="muted small">
          <FormattedMessage id="book.hint" />
        </p>
        <LiveBook data={data} />
      </div>
      <AssetShortcuts asset={asset} />
    </TradingDeskProvider>
  );
}
