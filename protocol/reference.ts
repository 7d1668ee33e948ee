import { z } from 'zod';
import { commodities, marketKinds, sessionPhases, workspaceTypes } from './enums.ts';

/** Reference data on the wire. Prices and quantities are integers in minor units of the asset. */

/**
 * A name in every language of the app. `name` beside it stays the name of record (English), for logs
 * and documents; screens show `names[locale]` (src/i18n/reference-names.ts).
 */
export const localNamesSchema = z.strictObject({ ro: z.string().min(1), en: z.string().min(1) });
export type LocalNames = z.infer<typeof localNamesSchema>;

export const marketSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  names: localNamesSchema,
  commodity: z.enum(commodities),
  kind: z.enum(marketKinds),
  workspaceType: z.enum(workspaceTypes),
  currency: z.string(),
});
export type Market = z.infer<typeof marketSchema>;

export const assetDocumentSchema = z.strictObject({ title: z.string(), fileName: z.string(), url: z.string() });
export type AssetDocument = z.infer<typeof assetDocumentSchema>;

export const assetSpecificationSchema = z.strictObject({
  id: z.string(),
  marketId: z.string(),
  ringId: z.string().nullable(),
  code: z.string(),
  name: z.string(),
  names: localNamesSchema,
  /** A code ("day", "month"...): screens show its label (src/i18n/messages/reference.ts). */
  type: z.string(),
  unit: z.string(),
  currency: z.string(),
  priceDecimals: z.number().int().min(0).max(6),
  quantityDecimals: z.number().int().min(0).max(6),
  priceStep: z.number().int().positive(),
  quantityStep: z.number().int().positive(),
  minQuantity: z.number().int().positive(),
  maxQuantity: z.number().int().positive(),
  minPrice: z.number().int(),
  maxPrice: z.number().int(),
  deliveryStart: z.string(),
  deliveryEnd: z.string(),
  tradingStart: z.string(),
  tradingEnd: z.string(),
  documents: z.array(assetDocumentSchema),
  /** Share of an order's value blocked as margin, in basis points (0: none). */
  marginBps: z.number().int().min(0).max(10_000),
  /** Whitelist-restricted (engine configuration `bilateral`): orders match only between whitelist partners. Sent only when true. */
  bilateral: z.literal(true).optional(),
});
export type AssetSpecification = z.infer<typeof assetSpecificationSchema>;

export const ringSchema = z.strictObject({ id: z.string(), marketId: z.string(), name: z.string(), names: localNamesSchema });
export type Ring = z.infer<typeof ringSchema>;

export const phaseUpdateSchema = z.strictObject({
  marketId: z.string(),
  assetId: z.string().nullable(),
  phase: z.enum(sessionPhases),
  sessionDate: z.string(),
  at: z.string(),
  /** The market's next scheduled phase and when it starts (ISO UTC); null when nothing is scheduled. */
  nextPhase: z.enum(sessionPhases).nullable().optional(),
  nextPhaseAt: z.string().nullable().optional(),
});
export type PhaseUpdate = z.infer<typeof phaseUpdateSchema>;

/** The body of every refusal the REST API sends. */
export const errorResponseSchema = z.strictObject({
  error: z.strictObject({ code: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])) }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
