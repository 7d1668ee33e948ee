import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { OpenOrder } from '../../machines/my-orders.machine.ts';
import type { Order } from '../../protocol/market-data.ts';
import { useCanAct } from '../auth/use-auth.ts';
import type { AssetSpecification } from '../../protocol/reference.ts';
import { CodeCell, DataTable, type DataTableColumn } from '../components/DataTable.tsx';
import { CrossIcon, HistoryIcon, PauseIcon, PencilIcon, PlayIcon } from '../components/icons.tsx';
import { orderStatusColumn } from './orders/order-columns.tsx';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { formatExchangeDateTime, formatMinor } from '../i18n/format.ts';
import type { OrderTicketRequest } from './OrderDialog.tsx';
import { CancelAllButton } from './orders/CancelAllButton.tsx';
import { OrderEventsDialog } from './orders/OrderEventsDialog.tsx';
import { OrdersDialogButton } from './orders/OrdersDialog.tsx';
import { OrderTimelineButton } from './timeline/OrderTimelineButton.tsx';

export interface OrdersTableProps {
  /** The user's open orders with what each one's lifecycle allows (useMyOpenOrders). */
  orders: readonly OpenOrder[];
  assets: readonly AssetSpecification[];
  /** Only this asset's orders. */
  assetId?: string;
  onAction: (request: OrderTicketRequest) => void;
  label: string;
}

/**
 * My active orders, live; modify, cancel, suspend or activate from the row (the order dialog confirms),
 * an order's history on demand, the orders dialog (all orders, with filters) and the kill switch
 * (cancel all my orders, confirmed) above the table.
 * The row actions are the ones the order's lifecycle allows, and none once the session has expired.
 */
export function OrdersTable({ orders, assets, assetId, onAction, label }: OrdersTableProps) {
  const intl = useIntl();
  const canAct = useCanAct();
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  const byId = new Map(assets.map((asset) => [asset.id, asset]));
  const actionsById = new Map(orders.map((entry) => [entry.order.orderId, entry.actions]));
  const rows = orders.flatMap((entry) => (assetId === undefined || entry.order.assetId === assetId ? [entry.order] : []));
  const columns: DataTableColumn<Order>[] = [
    { id: 'orderId', header: <FormattedMessage id="orders.orderId" />, priority: 2, sortValue: (o) => o.orderId, cell: (o) => <CodeCell value={o.orderId} className="mono small" /> },
    {
      id: 'asset',
      header: <FormattedMessage id="orders.asset" />,
      // On one asset's page the column says nothing new: it goes first when the box is narrow.
      ...(assetId === undefined ? {} : { priority: 3 as const }),
      sortValue: (o) => byId.get(o.assetId)?.code ?? o.assetId,
      cell: (o) => <CodeCell value={byId.get(o.assetId)?.code ?? o.assetId} />,
    },
    {
      id: 'way',
      header: <FormattedMessage id="orders.way" />,
      sortValue: (o) => o.way,
      cell: (o) => (
        <span className={`way way-${o.way}`}>
          <FormattedMessage id={enumLabelKey('way', o.way)} />
        </span>
      ),
    },
    {
      id: 'price',
      header: <FormattedMessage id="orders.price" />,
      align: 'end',
      sortValue: (o) => o.price,
      cell: (o) => <span className="mono">{o.price === null ? '—' : formatMinor(intl, o.price, byId.get(o.assetId)?.priceDecimals ?? 2)}</span>,
    },
    {
      id: 'qty',
      header: <FormattedMessage id="orders.quantity" />,
      align: 'end',
      sortValue: (o) => o.offeredQty,
      cell: (o) => <span className="mono">{formatMinor(intl, o.offeredQty, byId.get(o.assetId)?.quantityDecimals ?? 0)}</span>,
    },
    {
      id: 'traded',
      header: <FormattedMessage id="orders.traded" />,
      align: 'end',
      priority: 2,
      sortValue: (o) => o.tradedQty,
      cell: (o) => <span className="mono">{formatMinor(intl, o.tradedQty, byId.get(o.assetId)?.quantityDecimals ?? 0)}</span>,
    },
    { id: 'client', header: <FormattedMessage id="orders.client" />, sortValue: (o) => o.clientCode, cell: (o) => <CodeCell value={o.clientCode} /> },
    {
      id: 'validity',
      header: <FormattedMessage id="orders.validity" />,
      priority: 3,
      sortValue: (o) => o.validityType,
      cell: (o) => <FormattedMessage id={enumLabelKey('validityType', o.validityType)} />,
    },
    orderStatusColumn,
    { id: 'updated', header: <FormattedMessage id="orders.updated" />, priority: 3, sortValue: (o) => o.lastModifiedAt, cell: (o) => <span className="small">{formatExchangeDateTime(intl, o.lastModifiedAt)}</span> },
    {
      id: 'actions',
      header: <FormattedMessage id="orders.actions" />,
      cell: (o) => {
        const asset = byId.get(o.assetId);
        if (!asset) return null;
        const open = (mode: OrderTicketRequest['mode']) => onAction({ mode, asset, order: o });
        // Icon buttons keep the words as their names (and tooltips), so one row stays one line.
        const action = (label: string, icon: ReactNode, onClick: () => void, extra: { className?: string; disabled?: boolean; name?: string } = {}) => (
          <button
            type="button"
            className={`icon-button row-action${extra.className ? ` ${extra.className}` : ''}`}
            onClick={onClick}
            disabled={extra.disabled}
            aria-label={extra.name ?? label}
            title={extra.name ?? label}
          >
            {icon}
          </button>
        );
        const say = (id: MessageKey) => intl.formatMessage({ id });
        const allowed = actionsById.get(o.orderId);
        const may = (can: boolean | undefined) => canAct && can === true;
        return (
          <span className="row-actions">
            {action(say('orders.modify'), <PencilIcon />, () => open('modify'), { disabled: !may(allowed?.canModify) })}
            {o.suspended
              ? action(say('orders.activate'), <PlayIcon />, () => open('activate'), { disabled: !may(allowed?.canActivate) })
              : action(say('orders.suspend'), <PauseIcon />, () => open('suspend'), { disabled: !may(allowed?.canSuspend) })}
            {action(say('orders.cancel'), <CrossIcon />, () => open('cancel'), { className: 'row-action-danger', disabled: !may(allowed?.canCancel) })}
            {action(say('ordersHistory.history'), <HistoryIcon />, () => setHistoryOf(o.orderId), {
              name: intl.formatMessage({ id: 'ordersHistory.historyOf' }, { orderId: o.orderId }),
            })}
            <OrderTimelineButton orderId={o.orderId} assets={assets} variant="icon" />
          </span>
        );
      },
    },
  ];
  return (
    <>
      <div className="orders-table-toolbar">
        <CancelAllButton count={rows.length} disabled={!canAct} {...(assetId === undefined ? {} : { assetId })} />
        <OrdersDialogButton {...(assetId === undefined ? {} : { initialFilters: { assetId } })} />
      </div>
      <div className="orders-table">
        <DataTable
          label={label}
          columns={columns}
          rows={rows}
          rowKey={(o) => o.orderId}
          initialSort={{ columnId: 'updated', direction: 'desc' }}
          emptyMessage={<FormattedMessage id="orders.empty" />}
        />
      </div>
      <OrderEventsDialog orderId={historyOf} assets={assets} onClose={() => setHistoryOf(null)} />
    </>
  );
}
