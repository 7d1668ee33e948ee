/**
 * The user's own orders from `/user/queue/orders`. Feeds that still send the older status set
 * (created, cancelled, total, partial, modified) are mapped onto the current one before parsing.
 */
import { filter, type Observable } from 'rxjs';
import { z } from 'zod';
import { destinations } from '../protocol/destinations.ts';
import { legacyOrderStatusMap, orderStatuses, type LegacyOrderStatus, type OrderStatus } from '../protocol/enums.ts';
import { orderUpdateSchema, type OrderUpdate } from '../protocol/market-data.ts';
import type { Connection } from './connection.ts';

/** Current status for a current or legacy status name; null when it is neither. */
export function normalizeOrderStatus(status: string): OrderStatus | null {
  if ((orderStatuses as readonly string[]).includes(status)) return status as OrderStatus;
  if (Object.prototype.hasOwnProperty.call(legacyOrderStatusMap, status)) return legacyOrderStatusMap[status as LegacyOrderStatus];
  return null;
}

function mapLegacyStatus(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object') return raw;
  const update = raw as { order?: unknown };
  if (!update.order || typeof update.order !== 'object') return raw;
  const order = update.order as { status?: unknown };
  if (typeof order.status !== 'string') return raw;
  const status = normalizeOrderStatus(order.status);
  return status === null || status === order.status ? raw : { ...update, order: { ...order, status } };
}

/** orderUpdateSchema that also accepts the legacy status names. */
export const orderUpdateWithLegacySchema = z.preprocess(mapLegacyStatus, orderUpdateSchema);

export function myOrders$(connection: Connection): Observable<OrderUpdate> {
  return connection.watch$(destinations.myOrders, orderUpdateWithLegacySchema);
}

/** Updates of one order. */
export function orderUpdates$(updates: Observable<OrderUpdate>, orderId: string): Observable<OrderUpdate> {
  return updates.pipe(filter((update) => update.order.orderId === orderId));
}
