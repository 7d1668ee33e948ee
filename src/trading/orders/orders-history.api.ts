import {
  orderEventsResponseSchema,
  orderHistoryPageSchema,
  type OrderEventsResponse,
  type OrderHistoryPage,
  type OrderHistoryQuery,
} from '../../../protocol/order-history.ts';
import { authedRequest } from '../../api/http.ts';

/** The filters of the orders table; empty strings mean "any". */
export interface OrderHistoryFilters {
  assetId: string;
  marketId: string;
  way: '' | NonNullable<OrderHistoryQuery['way']>;
  status: '' | NonNullable<OrderHistoryQuery['status']>;
  clientCode: string;
  /** Session dates YYYY-MM-DD, inclusive. */
  from: string;
  to: string;
}

export const noFilters: OrderHistoryFilters = { assetId: '', marketId: '', way: '', status: '', clientCode: '', from: '', to: '' };

/** The query string of GET /orders/history: only the filters that are set. */
export function historyQuery(filters: OrderHistoryFilters, offset: number, limit: number): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  if (offset > 0) query.set('offset', String(offset));
  query.set('limit', String(limit));
  return query.toString();
}

/** GET /orders/history: one page of the user's orders (live and finished) and the total. */
export function fetchOrderHistory(filters: OrderHistoryFilters, offset: number, limit: number, signal?: AbortSignal): Promise<OrderHistoryPage> {
  return authedRequest(`/orders/history?${historyQuery(filters, offset, limit)}`, (body) => orderHistoryPageSchema.safeParse(body).data ?? null, {
    ...(signal ? { signal } : {}),
  });
}

/** GET /orders/:orderId/events: the order and its events, oldest first. */
export function fetchOrderEvents(orderId: string, signal?: AbortSignal): Promise<OrderEventsResponse> {
  return authedRequest(`/orders/${encodeURIComponent(orderId)}/events`, (body) => orderEventsResponseSchema.safeParse(body).data ?? null, {
    ...(signal ? { signal } : {}),
  });
}

/** Client-side API surface, so views can be tested with a fake. */
export interface OrderHistoryApi {
  history: typeof fetchOrderHistory;
  events: typeof fetchOrderEvents;
}

export const orderHistoryApi: OrderHistoryApi = { history: fetchOrderHistory, events: fetchOrderEvents };
