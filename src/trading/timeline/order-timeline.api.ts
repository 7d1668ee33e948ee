import { orderTimelineSchema, type OrderTimeline } from '../../../protocol/order-timeline.ts';
import { authedRequest } from '../../api/http.ts';

/** GET /orders/:orderId/timeline, checked against the protocol schema. */
export function fetchOrderTimeline(orderId: string, signal?: AbortSignal): Promise<OrderTimeline> {
  return authedRequest(`/orders/${encodeURIComponent(orderId)}/timeline`, (body) => orderTimelineSchema.safeParse(body).data ?? null, {
    ...(signal ? { signal } : {}),
  });
}
