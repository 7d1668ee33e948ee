import { z } from 'zod';
import { orderSchema, type Order } from '../../protocol/market-data.ts';
import { authedRequest } from './http.ts';

const ordersResponseSchema = z.strictObject({ items: z.array(orderSchema) });

/** GET /orders/mine: the user's live orders (on the book or suspended). */
export function fetchMyActiveOrders(signal?: AbortSignal): Promise<Order[]> {
  return authedRequest('/orders/mine', (body) => ordersResponseSchema.safeParse(body).data?.items ?? null, {
    ...(signal ? { signal } : {}),
  });
}
