import { z } from 'zod';
import { errorCodes, type ErrorCode } from './error-codes.ts';
import { orderSchema } from './market-data.ts';
import { addOrderRequestSchema, modifyOrderRequestSchema } from './orders.ts';

/**
 * Order entry over STOMP (issue 16), as peers' intraday APIs offer: SEND to /app/orders with a
 * `receipt` header; the gateway answers the RECEIPT once the command is acknowledged (after the
 * journal's sync, as REST's 201) and puts one OrderEntryReply on /user/queue/order-replies. The rules,
 * codes and idempotency are REST's: an add's idempotencyKey returns the first result when retried.
 */
const orderId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
/** The client's own name for the command, echoed in the reply (at most 64 characters). */
const correlationId = z.string().min(1).max(64);

export const orderEntryCommandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('add'), correlationId, order: addOrderRequestSchema }),
  z.strictObject({ type: z.literal('modify'), correlationId, orderId, changes: modifyOrderRequestSchema }),
  z.strictObject({ type: z.literal('cancel'), correlationId, orderId }),
]);
export type OrderEntryCommand = z.infer<typeof orderEntryCommandSchema>;

export const orderEntryReplySchema = z.discriminatedUnion('ok', [
  z.strictObject({
    ok: z.literal(true),
    correlationId,
    /** The journal sequence of the command: reads asking for `minSeq` this value see its effect. */
    seq: z.number().int().nonnegative(),
    order: orderSchema,
  }),
  z.strictObject({
    ok: z.literal(false),
    /** Empty when the body could not be read far enough to find it. */
    correlationId: z.string().max(64),
    code: z.enum(errorCodes as [ErrorCode, ...ErrorCode[]]),
    params: z.record(z.string(), z.union([z.string(), z.number()])),
  }),
]);
export type OrderEntryReply = z.infer<typeof orderEntryReplySchema>;
