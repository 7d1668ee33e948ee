import { z } from 'zod';
import { sessionPhases } from './enums.ts';
import { participantSchema } from './participants.ts';

/**
 * The operator console's live picture (issue 16), pushed on /user/queue/operator to administrators
 * only: a full snapshot on subscribe, then a new snapshot whenever a phase, participant or clearing
 * status changes and at least every OPERATOR_HEALTH_INTERVAL_MS for the health figures. The console
 * never polls. Workflow instances come on /user/queue/workflow-approvals (and GET /workflows).
 */
export const OPERATOR_HEALTH_INTERVAL_MS = 2000;

const phase = z.enum(sessionPhases);

export const operatorAssetSchema = z.strictObject({
  assetId: z.string(),
  name: z.string(),
  phase,
});

export const operatorMarketSchema = z.strictObject({
  marketId: z.string(),
  name: z.string(),
  phase,
  sessionDate: z.string(),
  /** When the current phase began (ISO-8601 UTC). */
  since: z.string(),
  /** The schedule's next phase and when (null when the day's schedule has none left). */
  nextPhase: phase.nullable(),
  nextPhaseAt: z.string().nullable(),
  assets: z.array(operatorAssetSchema),
});
export type OperatorMarket = z.infer<typeof operatorMarketSchema>;

export const connectedUserSchema = z.strictObject({
  userId: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  sessions: z.number().int().min(0),
  subscriptions: z.number().int().min(0),
  /** The oldest open session's start (ISO-8601 UTC). */
  since: z.string(),
});
export type ConnectedUser = z.infer<typeof connectedUserSchema>;

export const gatewayHealthSchema = z.strictObject({
  connections: z.number().int().min(0),
  subscriptions: z.number().int().min(0),
  /** Connections closed because they fell too far behind (since start). */
  slowConsumersDropped: z.number().int().min(0),
  /** Messages sent to clients per second over the last interval. */
  messagesPerSecond: z.number().min(0),
});

export const engineHealthSchema = z.strictObject({
  /** Order commands (add, modify, cancel) per second over the last interval. */
  ordersPerSecond: z.number().min(0),
  /** p99 of the journal's group-commit sync over the last minute, ms (null before the first). */
  journalSyncP99Ms: z.number().min(0).nullable(),
  journalLastSeq: z.number().int().min(0),
  /** Journal records whose events the read models have not written yet. */
  readModelBehindBy: z.number().int().min(0),
  lastSnapshotAt: z.string().nullable(),
  lastSnapshotSeq: z.number().int().min(0).nullable(),
});

export const clearingStatusSchema = z.strictObject({
  /** The last settlement run per market. */
  lastRuns: z.array(
    z.strictObject({
      marketId: z.string(),
      sessionDate: z.string(),
      status: z.string(),
      finishedAt: z.string().nullable(),
    }),
  ),
  openMarginCalls: z.array(
    z.strictObject({
      clientCode: z.string(),
      /** Currency minor units. */
      amount: z.number().int(),
      currency: z.string(),
    }),
  ),
});

export const operatorSnapshotSchema = z.strictObject({
  at: z.string(),
  markets: z.array(operatorMarketSchema),
  participants: z.array(participantSchema),
  connectedUsers: z.array(connectedUserSchema),
  gateway: gatewayHealthSchema,
  engine: engineHealthSchema,
  clearing: clearingStatusSchema,
});
export type OperatorSnapshot = z.infer<typeof operatorSnapshotSchema>;

/** Market-level suspend and resume (the console's buttons): the phase route with a confirmed intent. */
export const operatorRoutes = {
  snapshot: '/admin/operator',
  suspendMarket: (marketId: string) => `/admin/markets/${marketId}/suspend`,
  resumeMarket: (marketId: string) => `/admin/markets/${marketId}/resume`,
} as const;
