import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { AssetSpecification, Market } from '../../../protocol/reference.ts';
import { fetchAssets, fetchMarkets } from '../../api/reference.ts';
import { useAsync } from '../../app/use-async.ts';
import { useUser } from '../../auth/use-auth.ts';
import type { OrderHistoryFilters } from './orders-history.api.ts';
import { OrdersHistory } from './OrdersHistory.tsx';
import './Orders.css';

/** Markets and assets the user sees (cached per session by src/api/reference.ts). */
export function useOrdersReference(): { markets: readonly Market[]; assets: readonly AssetSpecification[]; loading: boolean } {
  const reference = useAsync(async () => {
    const [{ markets }, assets] = await Promise.all([fetchMarkets(), fetchAssets()]);
    return { markets, assets };
  }, []);
  return { markets: reference.data?.markets ?? [], assets: reference.data?.assets ?? [], loading: reference.status === 'loading' };
}

/** The orders table with its filters, as a section of a page (the my-account Orders tab). */
export function OrdersSection({ initialFilters }: { initialFilters?: Partial<OrderHistoryFilters> }) {
  const user = useUser();
  const { markets, assets } = useOrdersReference();
  return (
    <section className="card" aria-labelledby="orders-history-title">
      <div className="card-header">
        <h2 id="orders-history-title">
          <FormattedMessage id="ordersHistory.title" />
        </h2>
        <span className="muted small">
          <FormattedMessage id="ordersHistory.timesNote" />
        </span>
      </div>
      <OrdersHistory markets={markets} assets={assets} clientCodes={user?.clientCodes ?? []} {...(initialFilters ? { initialFilters } : {})} />
    </section>
  );
}

/** The orders dialog (Radix): the same table and filters over the page it was opened from. */
export function OrdersDialog({ open, onClose, initialFilters }: { open: boolean; onClose: () => void; initialFilters?: Partial<OrderHistoryFilters> }) {
  const intl = useIntl();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog orders-dialog" aria-describedby={undefined}>
          <div className="drawer-header">
            <Dialog.Title className="dialog-title">
              <FormattedMessage id="ordersHistory.title" />
            </Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" className="icon-button" aria-label={intl.formatMessage({ id: 'ordersHistory.close' })}>
                ×
              </button>
            </Dialog.Close>
          </div>
          {open && <OrdersDialogBody {...(initialFilters ? { initialFilters } : {})} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Mounted only while the dialog is open, so a closed dialog fetches nothing. */
function OrdersDialogBody({ initialFilters }: { initialFilters?: Partial<OrderHistoryFilters> }) {
  const user = useUser();
  const { markets, assets } = useOrdersReference();
  return <OrdersHistory markets={markets} assets={assets} clientCodes={user?.clientCodes ?? []} {...(initialFilters ? { initialFilters } : {})} />;
}

/** A button that opens the orders dialog (on the active orders card). */
export function OrdersDialogButton({ initialFilters }: { initialFilters?: Partial<OrderHistoryFilters> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button-small button-secondary" onClick={() => setOpen(true)}>
        <FormattedMessage id="ordersHistory.open" />
      </button>
      <OrdersDialog open={open} onClose={() => setOpen(false)} {...(initialFilters ? { initialFilters } : {})} />
    </>
  );
}
