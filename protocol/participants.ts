import { z } from 'zod';

/**
 * Participant suspension (issue 16, kill switch): the operator suspends a client (its code) or a broker
 * (a user who trades for clients). Their resting orders are cancelled at once and new orders are refused
 * with PARTICIPANT_SUSPENDED until the operator reinstates them. Both are journaled engine commands, so a
 * replay makes the same decisions, and both are audited.
 */
export const participantKinds = ['client', 'broker'] as const;
export type ParticipantKind = (typeof participantKinds)[number];

export const participantSchema = z.strictObject({
  kind: z.enum(participantKinds),
  /** A client code, or a broker's user id. */
  id: z.string(),
  name: z.string(),
  suspended: z.boolean(),
  suspendedAt: z.string().nullable(),
  suspendedBy: z.string().nullable(),
  reason: z.string().nullable(),
});
export type Participant = z.infer<typeof participantSchema>;
export const participantListSchema = z.strictObject({ participants: z.array(participantSchema) });
export type ParticipantList = z.infer<typeof participantListSchema>;

export const PARTICIPANT_REASON_MAX_LENGTH = 500;
export const participantSuspendSchema = z.strictObject({
  reason: z.string().trim().min(1).max(PARTICIPANT_REASON_MAX_LENGTH),
});
export type ParticipantSuspend = z.infer<typeof participantSuspendSchema>;

/** The answer of suspend and reinstate. */
export const participantChangeSchema = z.strictObject({
  participant: participantSchema,
  /** Orders the suspension cancelled (0 for a reinstatement). */
  cancelledOrders: z.number().int().min(0),
});
export type ParticipantChange = z.infer<typeof participantChangeSchema>;

export const participantRoutes = {
  list: '/admin/participants',
  suspend: (kind: string, id: string) => `/admin/participants/${kind}/${id}/suspend`,
  reinstate: (kind: string, id: string) => `/admin/participants/${kind}/${id}/reinstate`,
} as const;
