import { z } from 'zod';
import { assetActivityTypes, executionTypes, orderStatuses, validityTypes, ways } from './enums.ts';

/**
 * STOMP payloads. Prices and quantities are integers in the asset's minor units; timestamps ISO UTC.
 * Books are aggregated by price level: a snapshot on subscribe, then deltas with a contiguous `seq`.
 */

const minor = z.number().int();
const isoTime = z.string();

export const bookLevelSchema = z.strictObject({ price: minor, qty: minor.nonnegative(), orders: z.number().int().nonnegative() });
export type BookLevel = z.infer<typeof bookLevelSchema>;

export const bookSnapshotSchema = z.strictObject({
  type: z.literal('snapshot'),
  assetId: z.string(),
  /** The sequence of the last change included; the next delta has seq + 1. */
  seq: z.number().int().nonnegative(),
  /** Best first: bids by price descending, asks ascending. */
  bids: z.array(bookLevelSchema),
  asks: z.array(bookLevelSchema),
  at: isoTime,
});
export type BookSnapshot = z.infer<typeof bookSnapshotSchema>;

export const bookLevelChangeSchema = z.strictObject({
  side: z.enum(ways),
  price: minor,
  /** New total at the level; 0 removes the level. */
  qty: minor.nonnegative(),
  orders: z.number().int().nonnegative(),
});
export type BookLevelChange = z.infer<typeof bookLevelChangeSchema>;

export const bookDeltaSchema = z.strictObject({
  type: z.literal('delta'),
  assetId: z.string(),
  seq: z.number().int().positive(),
  changes: z.array(bookLevelChangeSchema),
  at: isoTime,
});
export type BookDelta = z.infer<typeof bookDeltaSchema>;

export const bookMessageSchema = z.discriminatedUnion('type', [bookSnapshotSchema, bookDeltaSchema]);
export type BookMessage = z.infer<typeof bookMessageSchema>;

export const tradeSchema = z.strictObject({
  transactionId: z.string(),
  assetId: z.string(),
  price: minor,
  qty: minor,
  noCnt: z.number().int().nonnegative(),
  /** Side of the order that took liquidity. */
  aggressor: z.enum(ways),
  txDate: z.string(),
  timestamp: isoTime,
});
export type Trade = z.infer<typeof tradeSchema>;

/** How a transaction came to be: matched in the book, an OTC deal, or a transfer's children (transfer, split). */
export const transactionOrigins = ['book', 'otc', 'transfer', 'split'] as const;
export type TransactionOrigin = (typeof transactionOrigins)[number];
/** superseded: transferred to the central counterparty (its children carry its quantity on). */
export const transactionStatuses = ['active', 'superseded'] as const;
export type TransactionStatus = (typeof transactionStatuses)[number];

/**
 * A transaction as its participants see it (private queue, REST), with both parties. Off the book
 * (origin other than book) it has no orders (buyOrderId, sellOrderId '') and, as no order took
 * liquidity, aggressor 'bid' by convention (the origin tells it apart).
 * origin and status are absent from rows written before they existed: read them as book and active.
 */
export const transactionSchema = tradeSchema.extend({
  buyer: z.string(),
  seller: z.string(),
  buyOrderId: z.string(),
  sellOrderId: z.string(),
  origin: z.enum(transactionOrigins).optional(),
  status: z.enum(transactionStatuses).optional(),
  marginsExposureActive: z.boolean(),
  externalTransactionId: z.string().nullable(),
  gasfwTransactionId: z.string().nullable(),
  transferTimestamp: isoTime.nullable(),
  parentTransactionId: z.string().nullable(),
  grandParentTransactionId: z.string().nullable(),
  splitTimestamp: isoTime.nullable(),
  /**
   * Set only on an update of a transaction already reported, on /user/queue/trades: when a transfer
   * superseded it or its margin exposure was switched. Absent on a new transaction (a fill, an OTC
   * deal, a transfer's children) and in lists.
   */
  updatedAt: isoTime.optional(),
});
export type Transaction = z.infer<typeof transactionSchema>;

/** GET /transactions: newest first, and the journal seq the read model stands at (read-your-writes: `?minSeq`). */
export const transactionListSchema = z.strictObject({ items: z.array(transactionSchema), seq: z.number().int().nonnegative() });

export const marketWatchRowSchema = z.strictObject({
  assetId: z.string(),
  marketId: z.string(),
  type: z.string(),
  bestBid: minor.nullable(),
  bestBidQty: minor.nullable(),
  bestAsk: minor.nullable(),
  bestAskQty: minor.nullable(),
  lastPrice: minor.nullable(),
  /** Distinct clients with resting orders. */
  participants: z.number().int().nonnegative(),
  lastUpdate: isoTime,
});
export type MarketWatchRow = z.infer<typeof marketWatchRowSchema>;

/** Own best bid and ask per asset, on the user's private queue. */
export const ownBestSchema = z.strictObject({ assetId: z.string(), ownBestBid: minor.nullable(), ownBestAsk: minor.nullable(), lastUpdate: isoTime });
export type OwnBest = z.infer<typeof ownBestSchema>;

export const orderSchema = z.strictObject({
  orderId: z.string(),
  assetId: z.string(),
  status: z.enum(orderStatuses),
  /** Suspended orders are off the book but keep their data. */
  suspended: z.boolean(),
  clientCode: z.string(),
  brokerId: z.string().nullable(),
  way: z.enum(ways),
  price: minor.nullable(),
  qty: minor,
  noCnt: z.number().int().nonnegative(),
  totalQty: minor,
  powerPerInterval: minor.nullable(),
  tradedQty: minor,
  tradedPrice: minor.nullable(),
  offeredQty: minor,
  offeredPrice: minor.nullable(),
  executionType: z.enum(executionTypes),
  validityType: z.enum(validityTypes),
  validity: isoTime.nullable(),
  sessionDate: z.string(),
  createdAt: isoTime,
  lastModifiedAt: isoTime,
  expiresAt: isoTime.nullable(),
  /** Place in the price level's queue (1 = first), null when not on the book. */
  position: z.number().int().positive().nullable(),
});
export type Order = z.infer<typeof orderSchema>;

export const orderUpdateSchema = z.strictObject({ seq: z.number().int().nonnegative(), order: orderSchema });
export type OrderUpdate = z.infer<typeof orderUpdateSchema>;

export const sessionStatsSchema = z.strictObject({
  assetId: z.string(),
  sessionDate: z.string(),
  minPrice: minor.nullable(),
  maxPrice: minor.nullable(),
  lastPrice: minor.nullable(),
  volume: minor,
  transactions: z.number().int().nonnegative(),
  closingPrice: minor.nullable(),
  tradeableQty: minor.nullable(),
  surplusQty: minor.nullable(),
  settlementPrice: minor.nullable(),
  at: isoTime,
});
export type SessionStats = z.infer<typeof sessionStatsSchema>;

export const assetActivitySchema = z.strictObject({
  assetId: z.string(),
  type: z.enum(assetActivityTypes),
  orderId: z.string().nullable(),
  price: minor.nullable(),
  qty: minor.nullable(),
  /** For deltaTStart: when the delta-T period ends and the match executes. */
  endsAt: isoTime.nullable(),
  at: isoTime,
});
export type AssetActivity = z.infer<typeof assetActivitySchema>;

export const notificationSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(['orderTraded', 'orderExpired', 'orderCancelled', 'phaseChanged', 'workflow', 'system']),
  /** A message key of the client's i18n and its values, so the client shows it in its language. */
  messageKey: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])),
  at: isoTime,
});
export type Notification = z.infer<typeof notificationSchema>;

export const chatMessageSchema = z.strictObject({ id: z.string(), from: z.string(), to: z.string(), text: z.string().min(1).max(2000), at: isoTime });
export type ChatMessage = z.infer<typeof chatMessageSchema>;
