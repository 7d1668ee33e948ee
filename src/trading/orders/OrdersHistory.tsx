import { useEffect, useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { orderStatuses, ways } from '../../../protocol/enums.ts';
import type { Order } from '../../../protocol/market-data.ts';
import type { AssetSpecification, Market } from '../../../protocol/reference.ts';
import { toApiError } from '../../api/errors.ts';
import { CodeCell, DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { HistoryIcon } from '../../components/icons.tsx';
import { orderStatusColumn } from './order-columns.tsx';
import { enumLabelKey, orderStatusLabelKey } from '../../i18n/enum-labels.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import { formatCalendarDate, formatExchangeDateTime, formatMinor } from '../../i18n/format.ts';
import { OrderEventsDialog } from './OrderEventsDialog.tsx';
import { OrderTimelineButton } from '../timeline/OrderTimelineButton.tsx';
import { noFilters, orderHistoryApi, type OrderHistoryApi, type OrderHistoryFilters } from './orders-history.api.ts';
import './Orders.css';
import { useLocalName } from '../../i18n/reference-names.ts';
import { DateField } from '../../components/date-field/DateField.tsx';

/** Rows fetched per request; "show more" fetches the next ones. */
export const HISTORY_PAGE = 100;

export interface OrdersHistoryProps {
  markets: readonly Market[];
  assets: readonly AssetSpecification[];
  /** The clients the user acts for (the client filter). */
  clientCodes: readonly string[];
  /** Filters to start with (e.g. the asset of the page). */
  initialFilters?: Partial<OrderHistoryFilters>;
  api?: OrderHistoryApi;
}

type Loaded = { status: 'loading' | 'idle' | 'error'; items: Order[]; total: number; error: unknown };

/**
 * The orders table with filters (asset, market, direction, status, client, session dates) over
 * GET /orders/history: live and finished orders of the user's clients, newest change first. A row's
 * history opens in a drawer.
 */
export function OrdersHistory({ markets, assets, clientCodes, initialFilters, api = orderHistoryApi }: OrdersHistoryProps) {
  const intl = useIntl();
  const name = useLocalName();
  const formId = useId();
  const [filters, setFilters] = useState<OrderHistoryFilters>({ ...noFilters, ...initialFilters });
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading', items: [], total: 0, error: undefined });
  const [more, setMore] = useState(0);
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  const byId = useMemo(() => new Map(assets.map((asset) => [asset.id, asset])), [assets]);
  const assetChoices = filters.marketId ? assets.filter((asset) => asset.marketId === filters.marketId) : assets;

  // New filters start from the first page; "show more" appends the next page.
  useEffect(() => {
    if (filters.from && filters.to && filters.from > filters.to) {
      setLoaded({ status: 'idle', items: [], total: 0, error: undefined });
      return undefined;
    }
    const controller = new AbortController();
    const offset = more === 0 ? 0 : loaded.items.length;
    setLoaded((current) => ({ ...current, status: 'loading', ...(more === 0 ? { items: [], total: 0 } : {}) }));
    api.history(filters, offset, HISTORY_PAGE, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setLoaded((current) => ({ status: 'idle', items: offset === 0 ? page.items : [...current.items, ...page.items], total: page.total, error: undefined }));
      },
      (error: unknown) => !controller.signal.aborted && setLoaded((current) => ({ ...current, status: 'error', error })),
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- offset comes from the rows loaded when "more" was asked
  }, [filters, more, api]);

  function change<K extends keyof OrderHistoryFilters>(key: K, value: OrderHistoryFilters[K]) {
    setMore(0);
    setFilters((current) => {
      const next = { ...current, [key]: value };
      // An asset of another market would match nothing.
      if (key === 'marketId' && value && next.assetId && byId.get(next.assetId)?.marketId !== value) next.assetId = '';
      return next;
    });
  }

  const price = (order: Order, value: number | null) => (value === null ? '—' : formatMinor(intl, value, byId.get(order.assetId)?.priceDecimals ?? 2));
  const qty = (order: Order, value: number) => formatMinor(intl, value, byId.get(order.assetId)?.quantityDecimals ?? 0);
  const columns: DataTableColumn<Order>[] = [
    // Columns that give way in a narrow box (docs/trading-screens.md, "Orders history"): the order id
    // (it is in the history's title and its button's name) below 760 px, traded price, session and
    // last update below 1000 px; codes are cut with an ellipsis, whole on hover.
    { id: 'orderId', header: <FormattedMessage id="orders.orderId" />, priority: 2, sortValue: (o) => Number(o.orderId), cell: (o) => <CodeCell value={o.orderId} className="mono small" /> },
    {
      id: 'asset',
      header: <FormattedMessage id="orders.asset" />,
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
    { id: 'price', header: <FormattedMessage id="orders.price" />, align: 'end', sortValue: (o) => o.price, cell: (o) => <span className="mono">{price(o, o.price)}</span> },
    { id: 'qty', header: <FormattedMessage id="orders.quantity" />, align: 'end', sortValue: (o) => o.qty, cell: (o) => <span className="mono">{qty(o, o.qty)}</span> },
    { id: 'traded', header: <FormattedMessage id="orders.traded" />, align: 'end', priority: 2, sortValue: (o) => o.tradedQty, cell: (o) => <span className="mono">{qty(o, o.tradedQty)}</span> },
    {
      id: 'tradedPrice',
      header: <FormattedMessage id="ordersHistory.tradedPrice" />,
      align: 'end',
      priority: 3,
      sortValue: (o) => o.tradedPrice,
      cell: (o) => <span className="mono">{price(o, o.tradedPrice)}</span>,
    },
    { id: 'client', header: <FormattedMessage id="orders.client" />, sortValue: (o) => o.clientCode, cell: (o) => <CodeCell value={o.clientCode} /> },
    orderStatusColumn,
    { id: 'session', header: <FormattedMessage id="ordersHistory.sessionDate" />, priority: 3, sortValue: (o) => o.sessionDate, cell: (o) => <span className="small">{formatCalendarDate(intl, o.sessionDate)}</span> },
    { id: 'updated', header: <FormattedMessage id="orders.updated" />, priority: 3, sortValue: (o) => o.lastModifiedAt, cell: (o) => <span className="small">{formatExchangeDateTime(intl, o.lastModifiedAt)}</span> },
    {
      id: 'actions',
      header: <FormattedMessage id="orders.actions" />,
      cell: (o) => (
        <span className="row-actions">
          <button
            type="button"
            className="icon-button row-action"
            onClick={() => setHistoryOf(o.orderId)}
            aria-label={intl.formatMessage({ id: 'ordersHistory.historyOf' }, { orderId: o.orderId })}
            title={intl.formatMessage({ id: 'ordersHistory.historyOf' }, { orderId: o.orderId })}
          >
            <HistoryIcon />
          </button>
          <OrderTimelineButton orderId={o.orderId} assets={assets} variant="icon" />
        </span>
      ),
    },
  ];

  const select = (key: keyof OrderHistoryFilters, label: string, options: Array<[string, string]>) => (
    <div className="field">
      <label htmlFor={`${formId}-${key}`}>{label}</label>
      <select id={`${formId}-${key}`} value={filters[key]} onChange={(event) => change(key, event.target.value as never)}>
        <option value="">{intl.formatMessage({ id: 'ordersHistory.any' })}</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
  const date = (key: 'from' | 'to', label: string) => (
    <div className="field">
      <label htmlFor={`${formId}-${key}`}>{label}</label>
      <DateField id={`${formId}-${key}`} compact label={label} value={filters[key]} onChange={(iso) => change(key, iso)} />
    </div>
  );

  const invertedDates = filters.from !== '' && filters.to !== '' && filters.from > filters.to;
  return (
    <div className="orders-history">
      <form className="orders-filters" aria-label={intl.formatMessage({ id: 'ordersHistory.filters' })} onSubmit={(event) => event.preventDefault()}>
        {select('marketId', intl.formatMessage({ id: 'ordersHistory.market' }), markets.map((market) => [market.id, name(market)]))}
        {select('assetId', intl.formatMessage({ id: 'orders.asset' }), assetChoices.map((asset) => [asset.id, asset.code]))}
        {select('way', intl.formatMessage({ id: 'orders.way' }), ways.map((way) => [way, intl.formatMessage({ id: enumLabelKey('way', way) })]))}
        {select('status', intl.formatMessage({ id: 'orders.status' }), orderStatuses.map((status) => [status, intl.formatMessage({ id: orderStatusLabelKey(status) })]))}
        {select('clientCode', intl.formatMessage({ id: 'orders.client' }), clientCodes.map((code) => [code, code]))}
        {date('from', intl.formatMessage({ id: 'ordersHistory.from' }))}
        {date('to', intl.formatMessage({ id: 'ordersHistory.to' }))}
        <button
          type="button"
          className="button button-secondary button-small orders-filters-reset"
          onClick={() => {
            setMore(0);
            setFilters({ ...noFilters });
          }}
        >
          <FormattedMessage id="ordersHistory.reset" />
        </button>
      </form>
      {invertedDates ? (
        <p className="alert alert-error" role="alert">
          <FormattedMessage id="ordersHistory.datesInverted" />
        </p>
      ) : loaded.status === 'error' ? (
        <p className="alert alert-error" role="alert">
          {formatApiError(intl, toApiError(loaded.error))}
        </p>
      ) : null}
      <DataTable
        label={intl.formatMessage({ id: 'ordersHistory.title' })}
        columns={columns}
        rows={invertedDates ? [] : loaded.items}
        rowKey={(o) => o.orderId}
        loading={loaded.status === 'loading'}
        emptyMessage={<FormattedMessage id="ordersHistory.empty" />}
      />
      {!invertedDates && loaded.total > loaded.items.length && (
        <div className="orders-history-more">
          <span className="muted small">
            <FormattedMessage id="ordersHistory.loaded" values={{ loaded: intl.formatNumber(loaded.items.length), total: intl.formatNumber(loaded.total) }} />
          </span>
          <button type="button" className="button button-secondary button-small" disabled={loaded.status === 'loading'} onClick={() => setMore((n) => n + 1)}>
            <FormattedMessage id="ordersHistory.more" />
          </button>
        </div>
      )}
      <OrderEventsDialog orderId={historyOf} assets={assets} onClose={() => setHistoryOf(null)} api={api} />
    </div>
  );
}
