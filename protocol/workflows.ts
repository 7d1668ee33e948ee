import { z } from 'zod';
import {
  contractStatuses,
  marginExposureStatuses,
  otcStatuses,
  transferOutcomes,
  whitelistRelationStatuses,
  whitelistRequestStatuses,
  whitelistRequestTypes,
} from './enums.ts';
import { errorCodes, type ErrorCode } from './error-codes.ts';

/**
 * Post-trade workflows (issue 15): OTC deals, transfer of a transaction to the central counterparty,
 * margin exposure activation, transaction contracts and whitelist requests. One machine per workflow in
 * machines/workflows/ decides which actions exist in which state and for whom; the server
 * (server/workflows/) runs every instance authoritatively and the client renders the same machine.
 *
 * Units: prices and quantities are integers in the asset's minor units; instants are ISO-8601 UTC;
 * dates are Bucharest calendar dates (YYYY-MM-DD).
 */

export const workflowKinds = ['otc', 'transfer', 'marginActivation', 'contract', 'whitelist'] as const;
export type WorkflowKind = (typeof workflowKinds)[number];

/** OTC deal price may differ at most this much from the daily settlement price (SPEC §5, §9). */
export const OTC_MAX_PRICE_VARIATION_PERCENT = 25;
/** A contract upload is at most this large (a scanned, signed contract of a few pages). */
export const CONTRACT_MAX_BYTES = 5 * 1024 * 1024;
/** A reason is required to reject; this long at most. */
export const WORKFLOW_REASON_MAX_LENGTH = 500;

/** Every status of every workflow; the per-kind lists are the enums of protocol/enums.ts plus end states of our own. */
export const otcDealStatuses = [...otcStatuses, 'deleted'] as const;
export type OtcDealStatus = (typeof otcDealStatuses)[number];
export const transferStatuses = [...transferOutcomes, 'cancelled'] as const;
export type TransferStatus = (typeof transferStatuses)[number];
export const marginActivationStatuses = marginExposureStatuses;
export type MarginActivationStatus = (typeof marginActivationStatuses)[number];
export const workflowContractStatuses = contractStatuses;
export const whitelistStatuses = whitelistRequestStatuses;

export const workflowStatusesByKind = {
  otc: otcDealStatuses,
  transfer: transferStatuses,
  marginActivation: marginActivationStatuses,
  contract: workflowContractStatuses,
  whitelist: whitelistStatuses,
} as const satisfies Record<WorkflowKind, readonly string[]>;
export type WorkflowStatus = (typeof workflowStatusesByKind)[WorkflowKind][number];

/** The actions a user may send, per workflow (the machine's user events, lower camel case). */
export const workflowActionsByKind = {
  otc: ['activate', 'acceptActivation', 'delete', 'approve', 'reject'],
  transfer: ['cancel', 'accept', 'approve', 'approveWithoutChecks', 'reject'],
  marginActivation: ['activate', 'approve', 'reject', 'cancel'],
  contract: ['accept', 'approve', 'reject'],
  whitelist: ['approve', 'reject', 'cancel'],
} as const satisfies Record<WorkflowKind, readonly string[]>;
export type WorkflowAction = (typeof workflowActionsByKind)[WorkflowKind][number];
/** Actions that need a reason (shown in the history and to the other side). */
export const actionsWithReason: readonly WorkflowAction[] = ['reject'];

const minor = z.number().int();
const isoDate = z.iso.date();
const isoTime = z.string();
const code = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/);
const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const errorCode = z.enum(errorCodes as [ErrorCode, ...ErrorCode[]]);

/** Why an instance ended where it did: a user's text, or a system check's code and parameters. */
export const workflowReasonSchema = z.strictObject({
  text: z.string().max(WORKFLOW_REASON_MAX_LENGTH).nullable(),
  code: errorCode.nullable(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
});
export type WorkflowReason = z.infer<typeof workflowReasonSchema>;

/** One transition of an instance (the timeline: who, when, from, to, why). `actor` null = the system (a timer, a check). */
export const workflowEventRecordSchema = z.strictObject({
  seq: z.number().int().positive(),
  action: z.string(),
  actorUserId: z.string().nullable(),
  actorName: z.string().nullable(),
  actorRole: z.string().nullable(),
  fromStatus: z.string().nullable(),
  toStatus: z.string(),
  reason: workflowReasonSchema.nullable(),
  at: isoTime,
});
export type WorkflowEventRecord = z.infer<typeof workflowEventRecordSchema>;

// ---------------------------------------------------------------------------------------------------
// Per-kind data
// ---------------------------------------------------------------------------------------------------

/** SPEC §3 OTC transaction. initiator = the registering broker's client ("own client"), partner = the other side. */
export const otcDealDataSchema = z.strictObject({
  assetId: id,
  /** The initiator's side: 'bid' buys from the partner, 'ask' sells to it. */
  way: z.enum(['bid', 'ask']),
  qty: minor.positive(),
  price: minor.positive(),
  firstDeliveryDate: isoDate,
  lastDeliveryDate: isoDate,
  noDeliveryDays: z.number().int().positive(),
  /** The settlement price the band was checked against when the deal was registered (null: none yet). */
  settlementPrice: minor.nullable(),
  /** When the initiator activated it (sent to the partner). */
  initiatedAt: isoTime.nullable(),
  /** The transaction the finalized deal became. */
  transactionId: z.string().nullable(),
  /** txDate and txTime of that transaction (SPEC §3). */
  txDate: isoDate.nullable(),
  txTime: isoTime.nullable(),
});
export type OtcDealData = z.infer<typeof otcDealDataSchema>;

export const transferDataSchema = z.strictObject({
  transactionId: z.string(),
  assetId: id,
  /** The asset of the central counterparty market the transaction moves to. */
  targetAssetId: id.nullable(),
  qty: minor.positive(),
  /** The whole transaction's quantity; a transfer of less splits it. */
  transactionQty: minor.positive(),
  price: minor,
  buyer: code,
  seller: code,
  /** The new transaction in the CCP market and the remainder left behind, once finalized. */
  transferredTransactionId: z.string().nullable(),
  remainderTransactionId: z.string().nullable(),
  /** Set by "approve without checks": which checks the administrator skipped. */
  checksSkipped: z.boolean(),
});
export type TransferData = z.infer<typeof transferDataSchema>;

export const marginActivationDataSchema = z.strictObject({
  transactionId: z.string(),
  assetId: id,
  buyer: code,
  seller: code,
  activatedAt: isoTime.nullable(),
});
export type MarginActivationData = z.infer<typeof marginActivationDataSchema>;

export const contractDataSchema = z.strictObject({
  transactionId: z.string(),
  assetId: id,
  buyer: code,
  seller: code,
  /** SPEC §3 contract "date": the transaction's date. */
  date: isoDate,
  fileName: z.string().nullable(),
  fileSize: z.number().int().nonnegative().nullable(),
  sha256: z.string().nullable(),
  uploadedAt: isoTime.nullable(),
});
export type ContractData = z.infer<typeof contractDataSchema>;

export const whitelistDataSchema = z.strictObject({
  type: z.enum(whitelistRequestTypes),
});
export type WhitelistData = z.infer<typeof whitelistDataSchema>;

// ---------------------------------------------------------------------------------------------------
// Instances
// ---------------------------------------------------------------------------------------------------

const instanceBase = {
  instanceId: id,
  /** The machine's state, stored and restored by the server (value and context of the XState snapshot). */
  machineState: z.strictObject({ value: z.string(), context: z.record(z.string(), z.unknown()) }),
  /** Client codes: who started it and the other side (for a transfer/contract/margin activation: the other party of the transaction). */
  initiatorClient: code,
  partnerClient: code,
  initiatorName: z.string(),
  partnerName: z.string(),
  createdBy: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
  /** The instant after which the system ends it (OTC limit date, transfer limit date); null = none. */
  limitAt: isoTime.nullable(),
  /** Raised by each transition; a stale action is refused (WORKFLOW_CONFLICT). */
  version: z.number().int().positive(),
  /** The last reason given (a rejection's text or a check's code). SPEC's rejectionMessage. */
  reason: workflowReasonSchema.nullable(),
  /** Who the instance waits on now: shown in lists and the operator's queue. */
  waitingOn: z.enum(['initiator', 'partner', 'administrator', 'none']),
  history: z.array(workflowEventRecordSchema),
};

export const workflowInstanceSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('otc'), status: z.enum(otcDealStatuses), data: otcDealDataSchema, ...instanceBase }),
  z.strictObject({ kind: z.literal('transfer'), status: z.enum(transferStatuses), data: transferDataSchema, ...instanceBase }),
  z.strictObject({ kind: z.literal('marginActivation'), status: z.enum(marginActivationStatuses), data: marginActivationDataSchema, ...instanceBase }),
  z.strictObject({ kind: z.literal('contract'), status: z.enum(workflowContractStatuses), data: contractDataSchema, ...instanceBase }),
  z.strictObject({ kind: z.literal('whitelist'), status: z.enum(whitelistStatuses), data: whitelistDataSchema, ...instanceBase }),
]);
export type WorkflowInstance = z.infer<typeof workflowInstanceSchema>;
export type WorkflowInstanceOf<K extends WorkflowKind> = Extract<WorkflowInstance, { kind: K }>;

export const workflowListSchema = z.strictObject({ instances: z.array(workflowInstanceSchema) });
export type WorkflowList = z.infer<typeof workflowListSchema>;

/** GET /workflows query. `awaiting=administrator` is the operator's approval queue. */
export const workflowListQuerySchema = z.strictObject({
  kind: z.enum(workflowKinds).optional(),
  status: z.string().max(40).optional(),
  clientCode: code.optional(),
  awaiting: z.enum(['initiator', 'partner', 'administrator']).optional(),
  /** createdAt range, Bucharest dates, inclusive (the contract list filters by start and end date). */
  from: isoDate.optional(),
  to: isoDate.optional(),
  transactionId: z.string().max(40).optional(),
});
export type WorkflowListQuery = z.infer<typeof workflowListQuerySchema>;

// ---------------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------------

/** Registers an OTC deal (status new). */
export const otcDealDraftSchema = z.strictObject({
  clientCode: code,
  partnerClientCode: code,
  assetId: id,
  way: z.enum(['bid', 'ask']),
  qty: minor.positive(),
  price: minor.positive(),
  firstDeliveryDate: isoDate,
  lastDeliveryDate: isoDate,
  noDeliveryDays: z.number().int().positive().max(366),
});
export type OtcDealDraft = z.infer<typeof otcDealDraftSchema>;

/** OTC exposure simulator: what a draft would block for each side, before it is sent. */
export const otcSimulationSideSchema = z.strictObject({
  clientCode: code,
  /** The initial margin the deal would block, in currency minor units. */
  margin: z.number().int(),
  /** Clearing's available funds for the client now. */
  availableFunds: z.number().int(),
  sufficient: z.boolean(),
});
export const otcSimulationSchema = z.strictObject({
  currency: z.string(),
  value: z.number().int(),
  initiator: otcSimulationSideSchema,
  /** Null when the user may not see the partner's funds (another agency's client): the check runs at acceptance. */
  partner: otcSimulationSideSchema.nullable(),
  settlementPrice: minor.nullable(),
  maxVariationPercent: z.number(),
  /** The price band [min, max] around the settlement price; null when there is no settlement price yet. */
  minPrice: minor.nullable(),
  maxPrice: minor.nullable(),
  priceWithinBand: z.boolean(),
});
export type OtcSimulation = z.infer<typeof otcSimulationSchema>;

export const transferRequestSchema = z.strictObject({
  transactionId: z.string().regex(/^[0-9]{1,20}$/),
  /** Less than the transaction's quantity splits it; absent = all of it. */
  qty: minor.positive().optional(),
});
export type TransferRequest = z.infer<typeof transferRequestSchema>;

export const marginActivationRequestSchema = z.strictObject({ transactionId: z.string().regex(/^[0-9]{1,20}$/) });
export type MarginActivationRequest = z.infer<typeof marginActivationRequestSchema>;

export const whitelistRequestSchema = z.strictObject({
  clientCode: code,
  partnerClientCode: code,
  type: z.enum(whitelistRequestTypes),
});
export type WhitelistRequestBody = z.infer<typeof whitelistRequestSchema>;

/** POST /workflows/:instanceId/actions. `version` is the version the user saw: a stale one is refused. */
export const workflowActionRequestSchema = z.strictObject({
  action: z.string().max(40),
  reason: z.string().trim().min(1).max(WORKFLOW_REASON_MAX_LENGTH).optional(),
  version: z.number().int().positive().optional(),
});
export type WorkflowActionRequest = z.infer<typeof workflowActionRequestSchema>;

/** A whitelist relation as one client sees it. */
export const whitelistRelationSchema = z.strictObject({
  clientCode: code,
  partnerClientCode: code,
  partnerName: z.string(),
  status: z.enum(whitelistRelationStatuses),
  /** The request that set it last. */
  requestId: id.nullable(),
  updatedAt: isoTime,
});
export type WhitelistRelation = z.infer<typeof whitelistRelationSchema>;
export const whitelistRelationListSchema = z.strictObject({ relations: z.array(whitelistRelationSchema) });

/** Live change on /user/queue/workflows (participants) and /user/queue/workflow-approvals (administrators). */
export const workflowChangeSchema = z.strictObject({
  instance: workflowInstanceSchema,
  /** The transition that made the change. */
  event: workflowEventRecordSchema,
});
export type WorkflowChange = z.infer<typeof workflowChangeSchema>;

/** REST routes under /session/api. Every POST takes an optional Idempotency-Key header. */
export const workflowRoutes = {
  list: '/workflows',
  instance: (instanceId: string) => `/workflows/${instanceId}`,
  action: (instanceId: string) => `/workflows/${instanceId}/actions`,
  otc: '/workflows/otc',
  otcSimulation: '/workflows/otc/simulation',
  transfer: '/workflows/transfer',
  marginActivation: '/workflows/margin-activation',
  /** multipart/form-data: fields transactionId, file (application/pdf). */
  contract: '/workflows/contract',
  contractPdf: (instanceId: string) => `/workflows/${instanceId}/contract.pdf`,
  whitelist: '/workflows/whitelist',
  whitelistPartners: '/whitelist/partners',
} as const;
