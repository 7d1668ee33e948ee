import { z } from 'zod';

/**
 * GET /session/api/health. `degraded`: trading goes on (orders are acknowledged from the journal) but
 * part of the server is behind or refusing: the read models (order history, transactions, statistics)
 * cannot be written to the database, or the journal cannot be written (new orders are refused with
 * SERVICE_UNAVAILABLE until it can).
 */
export const serverHealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  readModels: z.object({
    status: z.enum(['ok', 'degraded']),
    /** Journal records whose events are not in the database yet. */
    behindBy: z.number().int().min(0),
    /** The journal record up to which the database holds every event. */
    writtenSeq: z.number().int().min(0),
  }),
  journal: z.object({
    status: z.enum(['ok', 'unavailable']),
    lastSeq: z.number().int().min(0),
  }),
});

export type ServerHealth = z.infer<typeof serverHealthSchema>;
