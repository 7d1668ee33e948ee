import { z } from 'zod';
import { errorCodes, type ErrorCode } from './error-codes.ts';

/**
 * The audit trail (issue 16): every operator action, every workflow action and every security event,
 * kept in the store and shown to administrators in the operator console (filters, CSV export).
 * Entries are append-only; nothing edits or deletes them.
 */
export const auditCategories = ['operator', 'workflow', 'security'] as const;
export type AuditCategory = (typeof auditCategories)[number];

/**
 * What happened. Operator: phase changes, suspensions, settlement runs, overrides, warranties, payments.
 * Workflow: every workflow action (the workflow's own history keeps the details too).
 * Security: failed sign-ins, lockouts (too many attempts), forbidden attempts (403 on a route or a
 * STOMP destination), password changes and resets.
 */
export const auditActions = [
  // operator
  'market.phase',
  'market.suspend',
  'market.resume',
  'participant.suspend',
  'participant.reinstate',
  'settlement.run',
  'settlement.priceOverride',
  'obligation.settle',
  'warranty.record',
  'warranty.edit',
  'warranty.release',
  'financialInfo.set',
  // workflow
  'workflow.action',
  // security
  'signIn.failed',
  'signIn.lockedOut',
  'access.forbidden',
  'password.changed',
  'password.reset',
] as const;
export type AuditAction = (typeof auditActions)[number];

const detailValue = z.union([z.string().max(500), z.number(), z.boolean(), z.null()]);

export const auditEntrySchema = z.strictObject({
  /** Increasing: the order entries were kept in. */
  id: z.number().int().positive(),
  /** ISO-8601 UTC. */
  at: z.string(),
  category: z.enum(auditCategories),
  action: z.enum(auditActions),
  /** Who did it; null for the system (timers, checks) or an unknown user (a failed sign-in names the login tried in `subject`). */
  actorUserId: z.string().nullable(),
  actorRole: z.string().nullable(),
  /** What it was done to: a market, asset, participant, workflow instance, route, login... */
  subject: z.string().max(200),
  outcome: z.enum(['ok', 'refused']),
  /** The catalogue code of a refusal (or of a system decision), with its parameters in details. */
  code: z.enum(errorCodes as [ErrorCode, ...ErrorCode[]]).nullable(),
  remoteAddress: z.string().nullable(),
  details: z.record(z.string(), detailValue),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
/** What a caller hands the audit log; id and at are the log's. */
export type AuditRecord = Omit<AuditEntry, 'id' | 'at'> & { at?: string };

/** GET /admin/audit (and /admin/audit.csv with the same filters, every matching row). */
export const auditQuerySchema = z.strictObject({
  category: z.enum(auditCategories).optional(),
  action: z.enum(auditActions).optional(),
  actorUserId: z.string().max(64).optional(),
  outcome: z.enum(['ok', 'refused']).optional(),
  /** Substring of subject or details. */
  q: z.string().max(100).optional(),
  /** Bucharest dates, inclusive. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditPageSchema = z.strictObject({
  items: z.array(auditEntrySchema),
  total: z.number().int().min(0),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const auditRoutes = {
  list: '/admin/audit',
  csv: '/admin/audit.csv',
} as const;
