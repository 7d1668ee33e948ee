import { z } from 'zod';
import { orderSchema, type Order } from '../../protocol/market-data.ts';
import { cancelAllResultSchema, type CancelAllRequest, type CancelAllResult } from '../../protocol/orders.ts';
import { orderReplies } from '../realtime/order-replies.ts';
import { authedRequest } from './http.ts';

const ordersResponseSchema = z.strictObject({ items: z.array(orderSchema), seq: z.number().int().nonnegative() });

/**
 * GET /orders/mine: the user's live orders (on the book or suspended). They also go to the user's
 * orders with the seq they stand at, where a newer update from the queue or a reply still wins.
 */
export async function fetchMyActiveOrders(signal?: AbortSignal): Promise<Order[]> {
  const { items, seq } = await authedRequest('/orders/mine', (body) => ordersResponseSchema.safeParse(body).data ?? null, {
    ...(signal ? { signal } : {}),
  });
  for (const order of items) orderReplies.next({ seq, order });
  return items;
}

/**
 * POST /orders/cancel-all (the kill switch): every live order of the user's clients, or of one asset.
 * The Idempotency-Key makes a retried click cancel once.
 */
export function cancelAllOrders(filter: CancelAllRequest, idempotencyKey: string): Promise<CancelAllResult> {
  return authedRequest('/orders/cancel-all', (body) => cancelAllResultSchema.safeParse(body).data ?? null, {
    method: 'POST',
    body: filter,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}
