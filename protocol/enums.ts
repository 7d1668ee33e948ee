/** Status and type enums of SPEC §4, as const tuples so both zod and TypeScript use one list. */

export const orderStatuses = ['created', 'modified', 'traded', 'tradedPartially', 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** The older status set some feeds still send; mapped onto the current one. */
export const legacyOrderStatuses = ['created', 'cancelled', 'total', 'partial', 'modified'] as const;
export type LegacyOrderStatus = (typeof legacyOrderStatuses)[number];
export const legacyOrderStatusMap: Record<LegacyOrderStatus, OrderStatus> = {
  created: 'created',
  cancelled: 'cancelled',
  total: 'traded',
  partial: 'tradedPartially',
  modified: 'modified',
};

export const ways = ['bid', 'ask'] as const;
export type Way = (typeof ways)[number];

export const validityTypes = ['day', 'GTC', 'GTD', 'GTSV'] as const;
export type ValidityType = (typeof validityTypes)[number];

export const executionTypes = ['normal', 'FOK', 'IOC'] as const;
export type ExecutionType = (typeof executionTypes)[number];

export const assetActivityTypes = ['orderCreated', 'orderModified', 'orderTraded', 'orderTradedPartially', 'orderCancelled', 'deltaTStart'] as const;
export type AssetActivityType = (typeof assetActivityTypes)[number];

/** `closed` is the state between sessions: nothing trades, the schedule opens the next session. */
export const sessionPhases = ['opening', 'trading', 'closing', 'suspended', 'closed'] as const;
export type SessionPhase = (typeof sessionPhases)[number];

export const contractStatuses = ['NOT_INITIALIZED', 'AWAITING_PARTNER_ACCEPT', 'AWAITING_ADMIN_APPROVAL', 'FINALIZED'] as const;
export type ContractStatus = (typeof contractStatuses)[number];

export const otcStatuses = ['new', 'awaiting_partner_accept', 'awaiting_admin_approval', 'finalized', 'rejected', 'expired'] as const;
export type OtcStatus = (typeof otcStatuses)[number];
export const otcActions = ['activate', 'acceptActivation', 'delete', 'approve', 'reject'] as const;
export type OtcAction = (typeof otcActions)[number];

export const transferActions = ['request', 'cancel', 'accept', 'approve', 'approveWithoutChecks', 'reject'] as const;
export type TransferAction = (typeof transferActions)[number];
export const transferOutcomes = [
  'finalized',
  'rejectedByOperator',
  'rejectedByPartner',
  'failed',
  'nonTransferable',
  'awaitingPartnerAccept',
  'awaitingAdminApproval',
] as const;
export type TransferOutcome = (typeof transferOutcomes)[number];

export const marginExposureStatuses = ['inactive', 'awaitingApproval', 'active'] as const;
export type MarginExposureStatus = (typeof marginExposureStatuses)[number];

export const whitelistRequestTypes = ['ALLOW_TRADING', 'DENY_TRADING'] as const;
export type WhitelistRequestType = (typeof whitelistRequestTypes)[number];
export const whitelistRequestStatuses = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'] as const;
export type WhitelistRequestStatus = (typeof whitelistRequestStatuses)[number];
export const whitelistRelationStatuses = ['PENDING', 'ACTIVE', 'DISABLED'] as const;
export type WhitelistRelationStatus = (typeof whitelistRelationStatuses)[number];

export const workspaceTypes = ['gas', 'energy', 'gas-bg'] as const;
export type WorkspaceType = (typeof workspaceTypes)[number];

export const themes = ['light', 'dark'] as const;
export type Theme = (typeof themes)[number];

export const locales = ['ro', 'en'] as const;
export type Locale = (typeof locales)[number];

export const roles = ['client', 'broker', 'agency', 'terminal', 'assetOwner', 'transmissionPartner', 'administrator', 'qa'] as const;
export type Role = (typeof roles)[number];

export const commodities = ['gas', 'electricity'] as const;
export type Commodity = (typeof commodities)[number];

/** Market kinds of SPEC §1. */
export const marketKinds = ['forward', 'spot', 'ccp', 'balancingGroup', 'pmc'] as const;
export type MarketKind = (typeof marketKinds)[number];
