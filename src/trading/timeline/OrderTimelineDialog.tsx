import * as Dialog from '@radix-ui/react-dialog';
import { FormattedMessage, useIntl } from 'react-intl';
import type { OrderTimeline } from '../../../protocol/order-timeline.ts';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import { toApiError } from '../../api/errors.ts';
import { useAsync } from '../../app/use-async.ts';
import { enumLabelKey, orderStatusLabelKey } from '../../i18n/enum-labels.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import { describeEntry, exchangeTime } from './describe-entry.ts';
import { fetchOrderTimeline } from './order-timeline.api.ts';
import '../orders/Orders.css';
import './OrderTimeline.css';

export interface OrderTimelineDialogProps {
  /** The order whose timeline is shown; null: closed. */
  orderId: string | null;
  assets: readonly AssetSpecification[];
  onClose: () => void;
  load?: (orderId: string, signal: AbortSignal) => Promise<OrderTimeline>;
}

/** An order's timeline in a drawer docked right: its life and what followed from its trades, oldest first. */
export function OrderTimelineDialog({ orderId, assets, onClose, load = fetchOrderTimeline }: OrderTimelineDialogProps) {
  const intl = useIntl();
  return (
    <Dialog.Root open={orderId !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="drawer order-timeline-drawer" aria-describedby={undefined}>
          <div className="drawer-header">
            <Dialog.Title className="dialog-title">
              <FormattedMessage id="orderTimeline.title" values={{ orderId: orderId ?? '' }} />
            </Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" className="icon-button" aria-label={intl.formatMessage({ id: 'orderTimeline.close' })}>
                ×
              </button>
            </Dialog.Close>
          </div>
          {orderId !== null && <TimelineBody orderId={orderId} assets={assets} load={load} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function TimelineBody({ orderId, assets, load }: { orderId: string; assets: readonly AssetSpecification[]; load: NonNullable<OrderTimelineDialogProps['load']> }) {
  const intl = useIntl();
  const locale = useLocale();
  const result = useAsync((signal) => load(orderId, signal), [orderId, load]);
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
  const { order, entries, readModel, amountDecimals } = result.data;
  const asset = assets.find((candidate) => candidate.id === order.assetId);
  const format = { intl, locale, priceDecimals: asset?.priceDecimals ?? 0, quantityDecimals: asset?.quantityDecimals ?? 0, amountDecimals };
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
      <p className="small muted">
        <FormattedMessage id="orderTimeline.note" />
      </p>
      {readModel.behindBy > 0 && (
        <p className="alert alert-warning" role="status">
          <FormattedMessage id="orderTimeline.behind" values={{ behindBy: readModel.behindBy }} />
        </p>
      )}
      {entries.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="orderTimeline.empty" />
        </p>
      ) : (
        <ol className="order-events order-timeline" aria-label={intl.formatMessage({ id: 'orderTimeline.list' })}>
          {entries.map((entry) => {
            const view = describeEntry(format, entry);
            return (
              <li key={entry.seq} className={`order-event order-event-${view.tone}`} data-kind={entry.kind}>
                <div className="order-event-head">
                  <strong>{view.label}</strong>
                  <time dateTime={entry.at} className="small muted">
                    {exchangeTime(intl, entry.at)}
                  </time>
                </div>
                {view.lines.map((line, index) => (
                  <div key={index} className="small">
                    {line}
                  </div>
                ))}
                {view.link && (
                  <a className="small order-timeline-link" href={view.link.href}>
                    {view.link.label}
                  </a>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </>
  );
}
