import { z } from 'zod';
import { orderSchema, type Order } from '../../protocol/market-data.ts';
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
