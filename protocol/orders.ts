import { z } from 'zod';
import { executionTypes, validityTypes, ways } from './enums.ts';
import { apiError, type ApiError } from './error-codes.ts';

/**
 * Order requests on the REST API. Prices and quantities are integers in the asset's minor units.
 * Fields are optional in the schema so that a missing one gets its own SPEC §8 code
 * (ORDER_PRICE_MISSING...) from `missingOrderField` instead of a generic REQUEST_INVALID.
 * The power per settlement interval is derived by the exchange from the quantity, so it is not a
 * request field: sent, it is refused as an unknown field rather than ignored.
 */
const minor = z.number().int();

export const addOrderRequestSchema = z.strictObject({
  /** Makes a retried add safe: the same key from the same user returns the first result. */
  idempotencyKey: z.string().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/),
  assetId: z.string().max(64).optional(),
  way: z.string().max(8).optional(),
  price: minor.nullable().optional(),
  qty: minor.optional(),
  noCnt: z.number().int().nonnegative().optional(),
  validityType: z.string().max(8).optional(),
  validity: z.string().max(40).nullable().optional(),
  executionType: z.enum(executionTypes).optional(),
  clientCode: z.string().max(64).optional(),
});
export type AddOrderRequest = z.infer<typeof addOrderRequestSchema>;

export const modifyOrderRequestSchema = z.strictObject({
  price: minor.nullable().optional(),
  qty: minor.optional(),
  validityType: z.enum(validityTypes).optional(),
  validity: z.string().max(40).nullable().optional(),
});
export type ModifyOrderRequest = z.infer<typeof modifyOrderRequestSchema>;

export const orderIdParamsSchema = z.strictObject({ orderId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });

/** An add request whose required fields are present and well-typed. */
export interface CompleteAddOrder {
  idempotencyKey: string;
  assetId: string;
  way: (typeof ways)[number];
  price: number | null;
  qty: number;
  /** Absent: the engine derives it from the quantity (assets entered by quantity). */
  noCnt: number | undefined;
  validityType: (typeof validityTypes)[number];
  validity: string | null;
  executionType: (typeof executionTypes)[number];
  clientCode: string;
}

/** Checks presence and enums in the SPEC's order: the first problem is reported with its code. */
export function completeAddOrder(request: AddOrderRequest): { ok: true; order: CompleteAddOrder } | { ok: false; error: ApiError } {
  if (!request.assetId) return { ok: false, error: apiError('ORDER_ASSET_ID_MISSING') };
  if (!request.way) return { ok: false, error: apiError('ORDER_DIRECTION_MISSING') };
  if (!(ways as readonly string[]).includes(request.way)) return { ok: false, error: apiError('ORDER_DIRECTION_INVALID', { way: request.way }) };
  if (!request.validityType) return { ok: false, error: apiError('ORDER_VALIDITY_TYPE_MISSING') };
  if (!(validityTypes as readonly string[]).includes(request.validityType)) return { ok: false, error: apiError('ORDER_VALIDITY_TYPE_INVALID', { validityType: request.validityType }) };
  const validityType = request.validityType as CompleteAddOrder['validityType'];
  const timed = validityType === 'GTD' || validityType === 'GTSV';
  if (timed && !request.validity) return { ok: false, error: apiError('ORDER_VALIDITY_TIMESTAMP_MISSING') };
  // An instant with day or GTC would be ignored: the sender believes in an expiry that does not exist.
  if (!timed && request.validity) return { ok: false, error: apiError('ORDER_VALIDITY_NOT_EXPECTED', { validityType }) };
  if (request.qty === undefined) return { ok: false, error: apiError('ORDER_QUANTITY_MISSING') };
  const executionType = request.executionType ?? 'normal';
  // A market order (no price) is allowed only as IOC or FOK: it must not rest on the book.
  if ((request.price === undefined || request.price === null) && executionType === 'normal') return { ok: false, error: apiError('ORDER_PRICE_MISSING') };
  if (!request.clientCode) return { ok: false, error: apiError('ORDER_CLIENT_CODE_MISSING') };
  return {
    ok: true,
    order: {
      idempotencyKey: request.idempotencyKey,
      assetId: request.assetId,
      way: request.way as CompleteAddOrder['way'],
      price: request.price ?? null,
      qty: request.qty,
      noCnt: request.noCnt,
      validityType,
      validity: request.validity ?? null,
      executionType,
      clientCode: request.clientCode,
    },
  };
}

/** POST /orders/cancel-all: every live order of the clients the user acts for, optionally narrowed. */
export const cancelAllRequestSchema = z.strictObject({
  marketId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
  assetId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
  clientCode: z.string().min(1).max(64).optional(),
});
export type CancelAllRequest = z.infer<typeof cancelAllRequestSchema>;

/** An order cancel-all had to leave (the phase, delta T or the asset forbid its cancel), with the code. */
export const cancelAllRefusalSchema = z.strictObject({ orderId: z.string(), code: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])) });
export type CancelAllRefusal = z.infer<typeof cancelAllRefusalSchema>;

/** The answer of cancel-all: the journal seq the engine stood at after it, the cancelled ids, the refused ones. */
export const cancelAllResultSchema = z.strictObject({ seq: z.number().int().nonnegative(), cancelled: z.array(z.string()), refused: z.array(cancelAllRefusalSchema) });
export type CancelAllResult = z.infer<typeof cancelAllResultSchema>;
