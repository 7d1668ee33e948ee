import { z } from 'zod';
import { validityTypes } from './enums.ts';
import { obligationDirections, obligationKinds, obligationStatuses } from './clearing.ts';
import { orderSchema } from './market-data.ts';
import { workflowKinds } from './workflows.ts';

/**
 * The per-order timeline (issue 16, item 7): GET /orders/:orderId/timeline. One order's life and what
 * followed from its trades, oldest first: its entry, each change, each fill, its end, then for each of
 * its transactions the clearing (margin exposure, the report to clearing), the settlement run and the
 * obligations that covered it, and every workflow on it.
 *
 * Counterparties stay anonymous, as on the book: no entry names the other side's client, user or order.
 * Prices and quantities are integers in the asset's minor units; amounts in the currency's minor units
 * (`amountDecimals`); instants ISO UTC; dates Bucharest calendar dates.
 */

const minor = z.number().int();
const isoTime = z.string();
const isoDate = z.iso.date();

/** Every entry has its place (`seq`, 1-based, in the order the list gives) and its instant. */
const entryBase = { seq: z.number().int().positive(), at: isoTime };

/** A field an order change touched, with its value before and after. */
export const orderTimelineChangeFields = ['price', 'qty', 'validityType', 'validity', 'suspended'] as const;
export const orderTimelineChangeSchema = z.strictObject({
  field: z.enum(orderTimelineChangeFields),
  from: z.union([z.number(), z.string(), z.boolean()]).nullable(),
  to: z.union([z.number(), z.string(), z.boolean()]).nullable(),
});
export type OrderTimelineChange = z.infer<typeof orderTimelineChangeSchema>;

/** Who took a workflow's last action, as seen from the order's side; never who exactly on the other side. */
export const timelineActors = ['ownSide', 'counterparty', 'exchange', 'system'] as const;
export type TimelineActor = (typeof timelineActors)[number];

/** One obligation of the order's client a settlement run wrote for the trade (`transaction`) or for its day (`variation_margin`). */
export const timelineObligationSchema = z.strictObject({
  obligationId: z.string(),
  kind: z.enum(obligationKinds),
  direction: z.enum(obligationDirections),
  amount: minor.nonnegative(),
  currency: z.string(),
  dueDate: isoDate,
  status: z.enum(obligationStatuses),
});
export type TimelineObligation = z.infer<typeof timelineObligationSchema>;

export const orderTimelineEntrySchema = z.discriminatedUnion('kind', [
  z.strictObject({ ...entryBase, kind: z.literal('entered'), price: minor.nullable(), qty: minor, validityType: z.enum(validityTypes), validity: isoTime.nullable(), suspended: z.boolean() }),
  z.strictObject({ ...entryBase, kind: z.literal('modified'), changes: z.array(orderTimelineChangeSchema) }),
  /** A fill: this order's share of one transaction. The other side is not named. */
  z.strictObject({ ...entryBase, kind: z.literal('fill'), transactionId: z.string(), price: minor, qty: minor, remainingQty: minor }),
  z.strictObject({ ...entryBase, kind: z.literal('filled'), tradedQty: minor, tradedPrice: minor.nullable() }),
  /** By a user, or by the engine (the rest of an immediate-or-cancel order). */
  z.strictObject({ ...entryBase, kind: z.literal('cancelled'), reason: z.enum(['user', 'ioc']), openQty: minor, tradedQty: minor }),
  z.strictObject({ ...entryBase, kind: z.literal('expired'), openQty: minor, tradedQty: minor }),
  /**
   * Clearing of one transaction: `marginExposure` (at the trade: whether its margin is blocked, i.e.
   * counted by clearing) and `reported` (the settlement run reported it to clearing in a batch, in
   * `pieces` pieces of `piecesQty` each worth `singlePieceAmount`).
   */
  z.strictObject({
    ...entryBase,
    kind: z.literal('clearing'),
    step: z.enum(['marginExposure', 'reported']),
    transactionId: z.string(),
    marginsExposureActive: z.boolean().nullable(),
    batchId: z.string().nullable(),
    pieces: z.number().int().nonnegative().nullable(),
    piecesQty: minor.nullable(),
    singlePieceAmount: minor.nullable(),
  }),
  /** The settlement run of the trade's market and session that covered it, the client's note and its obligations for it. */
  z.strictObject({
    ...entryBase,
    kind: z.literal('settlement'),
    transactionId: z.string(),
    settlementRunId: z.string(),
    marketId: z.string(),
    sessionDate: isoDate,
    noteId: z.string().nullable(),
    settlementPrice: minor.nullable(),
    obligations: z.array(timelineObligationSchema),
  }),
  /** A workflow instance on one of the order's transactions, as it stands. */
  z.strictObject({
    ...entryBase,
    kind: z.literal('workflow'),
    transactionId: z.string(),
    instanceId: z.string(),
    workflowKind: z.enum(workflowKinds),
    status: z.string(),
    initiatedBy: z.enum(['ownSide', 'counterparty']),
    lastAction: z.strictObject({ action: z.string(), by: z.enum(timelineActors), at: isoTime }).nullable(),
  }),
]);
export type OrderTimelineEntry = z.infer<typeof orderTimelineEntrySchema>;
export type OrderTimelineEntryKind = OrderTimelineEntry['kind'];

/**
 * GET /orders/:orderId/timeline. `readModel`: the journal record the order read model stands at, and
 * how many records it has received but not written yet (0: the answer holds everything acknowledged).
 */
export const orderTimelineSchema = z.strictObject({
  order: orderSchema,
  amountDecimals: z.number().int().nonnegative(),
  readModel: z.strictObject({ seq: z.number().int().nonnegative(), behindBy: z.number().int().nonnegative() }),
  entries: z.array(orderTimelineEntrySchema),
});
export type OrderTimeline = z.infer<typeof orderTimelineSchema>;
