import { z } from 'zod';
import { orderStatuses, validityTypes, ways } from './enums.ts';
import { orderSchema } from './market-data.ts';

/**
 * Order history on the REST API: every order of the user's clients (live and finished) with filters
 * and paging, and the events of one order (created, changes, fills, end) in the order they happened.
 * Prices and quantities are integers in the asset's minor units; times ISO UTC.
 */

const minor = z.number().int();
const isoTime = z.string();
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
/** A calendar day (YYYY-MM-DD that exists: not 2026-13-45, not 2026-02-30). */
const sessionDate = z.iso.date();

/** What happened to an order; `expired` is a cancellation by the validity (status `cancelled`). */
export const orderEventKinds = ['created', 'modified', 'suspended', 'activated', 'tradedPartially', 'traded', 'cancelled', 'expired'] as const;
export type OrderEventKind = (typeof orderEventKinds)[number];

/** Why an order was cancelled: by a user, by the engine (IOC rest), or by its validity. */
export const orderCancelReasons = ['user', 'ioc', 'expired'] as const;
export type OrderCancelReason = (typeof orderCancelReasons)[number];

export const ORDER_HISTORY_MAX_LIMIT = 500;

/** GET /orders/history query; every filter optional, `from`/`to` are session dates (inclusive). */
export const orderHistoryQuerySchema = z
  .strictObject({
    assetId: z.string().regex(idPattern).optional(),
    marketId: z.string().regex(idPattern).optional(),
    way: z.enum(ways).optional(),
    status: z.enum(orderStatuses).optional(),
    clientCode: z.string().regex(idPattern).optional(),
    from: sessionDate.optional(),
    to: sessionDate.optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
    limit: z.coerce.number().int().min(1).max(ORDER_HISTORY_MAX_LIMIT).optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { path: ['from'], message: 'from after to' });
export type OrderHistoryQuery = z.infer<typeof orderHistoryQuerySchema>;

export const orderHistoryPageSchema = z.strictObject({
  items: z.array(orderSchema),
  /** Orders matching the filters (all pages). */
  total: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
});
export type OrderHistoryPage = z.infer<typeof orderHistoryPageSchema>;

/** One fill of an order: its share of a transaction. */
export const orderFillSchema = z.strictObject({ transactionId: z.string(), price: minor, qty: minor });
export type OrderFill = z.infer<typeof orderFillSchema>;

export const orderEventSchema = z.strictObject({
  orderId: z.string(),
  kind: z.enum(orderEventKinds),
  at: isoTime,
  /** The order right after the event. */
  status: z.enum(orderStatuses),
  suspended: z.boolean(),
  price: minor.nullable(),
  qty: minor,
  offeredQty: minor,
  tradedQty: minor,
  tradedPrice: minor.nullable(),
  validityType: z.enum(validityTypes),
  validity: isoTime.nullable(),
  /** For cancelled and expired. */
  reason: z.enum(orderCancelReasons).nullable(),
  /** For tradedPartially and traded: the transactions of this event (an incoming order may take several levels). */
  fills: z.array(orderFillSchema),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

/** GET /orders/:orderId/events: the order as it stands and its events, oldest first. */
export const orderEventsResponseSchema = z.strictObject({ order: orderSchema, events: z.array(orderEventSchema) });
export type OrderEventsResponse = z.infer<typeof orderEventsResponseSchema>;
