import * as Dialog from '@radix-ui/react-dialog';
import { FormattedMessage, useIntl } from 'react-intl';
import type { OrderEvent } from '../../../protocol/order-history.ts';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import { toApiError } from '../../api/errors.ts';
import { useAsync } from '../../app/use-async.ts';
import { enumLabelKey, orderStatusLabelKey } from '../../i18n/enum-labels.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import { formatExchangeDateTime, formatMinor } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/messages/index.ts';
import { orderHistoryApi, type OrderHistoryApi } from './orders-history.api.ts';
import { OrderTimelineButton } from '../timeline/OrderTimelineButton.tsx';
import './Orders.css';

export const eventKindLabel: Record<OrderEvent['kind'], MessageKey> = {
  created: 'ordersHistory.event.created',
  modified: 'ordersHistory.event.modified',
  suspended: 'ordersHistory.event.suspended',
  activated: 'ordersHistory.event.activated',
  tradedPartially: 'ordersHistory.event.tradedPartially',
  traded: 'ordersHistory.event.traded',
  cancelled: 'ordersHistory.event.cancelled',
  expired: 'ordersHistory.event.expired',
};

const reasonLabel: Record<NonNullable<OrderEvent['reason']>, MessageKey> = {
  user: 'ordersHistory.reason.user',
  ioc: 'ordersHistory.reason.ioc',
  expired: 'ordersHistory.reason.expired',
};

const tone: Partial<Record<OrderEvent['kind'], string>> = { traded: 'success', tradedPartially: 'success', cancelled: 'warning', expired: 'warning' };

export interface OrderEventsDialogProps {
  /** The order whose history is shown; null: closed. */
  orderId: string | null;
  assets: readonly AssetSpecification[];
  onClose: () => void;
  api?: OrderHistoryApi;
}

/** An order's history on demand (a drawer): created, changes, fills and its end, times in exchange time. */
export function OrderEventsDialog({ orderId, assets, onClose, api = orderHistoryApi }: OrderEventsDialogProps) {
  const intl = useIntl();
  return (
    <Dialog.Root open={orderId !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="drawer order-events-drawer" aria-describedby={undefined}>
          <div className="drawer-header">
            <Dialog.Title className="dialog-title">
              <FormattedMessage id="ordersHistory.events.title" values={{ orderId: orderId ?? '' }} />
            </Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" className="icon-button" aria-label={intl.formatMessage({ id: 'ordersHistory.close' })}>
                ×
              </button>
            </Dialog.Close>
          </div>
          {orderId !== null && <OrderEvents orderId={orderId} assets={assets} api={api} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function OrderEvents({ orderId, assets, api }: { orderId: string; assets: readonly AssetSpecification[]; api: OrderHistoryApi }) {
  const intl = useIntl();
  const result = useAsync((signal) => api.events(orderId, signal), [orderId, api]);
  if (result.status === 'loading') {
    return (
      <p className="spinner-line" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
        <FormattedMessage id="table.loading" />
      </p>
    );
  }
  if (result.status === 'error') {
    return (
      <p className="alert alert-error" role="alert">
        {formatApiError(intl, toApiError(result.error))}
      </p>
    );
  }
  const { order, events } = result.data;
  const asset = assets.find((candidate) => candidate.id === order.assetId);
  const price = (value: number | null) => (value === null ? '—' : asset ? formatMinor(intl, value, asset.priceDecimals) : String(value));
  const qty = (value: number) => (asset ? formatMinor(intl, value, asset.quantityDecimals) : String(value));
  return (
    <>
      <dl className="order-events-summary">
        <dt>
          <FormattedMessage id="orders.asset" />
        </dt>
        <dd>{asset?.code ?? order.assetId}</dd>
        <dt>
          <FormattedMessage id="orders.way" />
        </dt>
        <dd>
          <span className={`way way-${order.way}`}>
            <FormattedMessage id={enumLabelKey('way', order.way)} />
          </span>
        </dd>
        <dt>
          <FormattedMessage id="orders.client" />
        </dt>
        <dd>{order.clientCode}</dd>
        <dt>
          <FormattedMessage id="orders.status" />
        </dt>
        <dd>
          <FormattedMessage id={orderStatusLabelKey(order.status)} />
        </dd>
      </dl>
      <p>
        <OrderTimelineButton orderId={order.orderId} assets={assets} />
      </p>
      <ol className="order-events" aria-label={intl.formatMessage({ id: 'ordersHistory.events.list' })}>
        {events.map((event, index) => (
          <li key={index} className={`order-event order-event-${tone[event.kind] ?? 'info'}`} data-kind={event.kind}>
            <div className="order-event-head">
              <strong>
                <FormattedMessage id={eventKindLabel[event.kind]} />
              </strong>
              <time dateTime={event.at} className="small muted">
                {formatExchangeDateTime(intl, event.at)}
              </time>
            </div>
            <div className="small">
              <FormattedMessage
                id="ordersHistory.events.state"
                values={{ price: price(event.price), qty: qty(event.offeredQty), traded: qty(event.tradedQty) }}
              />
              {event.suspended && (
                <span className="badge badge-neutral">
                  <FormattedMessage id="orders.suspended" />
                </span>
              )}
            </div>
            {event.fills.map((fill) => (
              <div key={fill.transactionId} className="small order-event-fill">
                <FormattedMessage id="ordersHistory.events.fill" values={{ qty: qty(fill.qty), price: price(fill.price), transactionId: fill.transactionId }} />
              </div>
            ))}
            {event.reason && event.kind === 'cancelled' && (
              <div className="small muted">
                <FormattedMessage id={reasonLabel[event.reason]} />
              </div>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}
