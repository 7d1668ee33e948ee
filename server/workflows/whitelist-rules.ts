/**
 * The four whitelist request rules (SPEC §5, §8), pure: they take what the server read inside the
 * request's database transaction and return the refusal, or null. Each rule is its own function so a
 * test can give it any input, including states the other rules would shadow.
 */
import type { WhitelistRelationStatus, WhitelistRequestStatus, WhitelistRequestType } from '../../protocol/enums.ts';
import { apiError, type ApiError } from '../../protocol/error-codes.ts';

/** What the rules look at, for one client and one partner. */
export interface WhitelistRuleInput {
  type: WhitelistRequestType;
  partner: string;
  /** PENDING requests between the two, in either direction. */
  pendingRequests: number;
  /** The relation of the client with the partner; null: none. */
  relation: WhitelistRelationStatus | null;
  /** The type of the latest APPROVED request between the two, in either direction; null: none. */
  latestApprovedType: WhitelistRequestType | null;
}

/** One pending request per partner: the other side answers it (or its sender cancels it) first. */
export function pendingRequestRule(input: WhitelistRuleInput): ApiError | null {
  return input.pendingRequests > 0 ? apiError('WHITELIST_PENDING_EXISTS', { partner: input.partner }) : null;
}

/** No adding a partner the client already trades with. */
export function existingPartnerRule(input: WhitelistRuleInput): ApiError | null {
  return input.type === 'ALLOW_TRADING' && input.relation === 'ACTIVE' ? apiError('WHITELIST_PARTNER_EXISTS', { partner: input.partner }) : null;
}

/** No removing a client that is not a partner (only an ACTIVE relation can be disabled). */
export function nonPartnerRule(input: WhitelistRuleInput): ApiError | null {
  return input.type === 'DENY_TRADING' && input.relation !== 'ACTIVE' ? apiError('WHITELIST_NOT_PARTNER', { partner: input.partner }) : null;
}

/** Not the same as the latest approved request between the two (a repeat would change nothing). */
export function sameAsLatestRule(input: WhitelistRuleInput): ApiError | null {
  return input.latestApprovedType === input.type ? apiError('WHITELIST_SAME_AS_LATEST', { partner: input.partner }) : null;
}

/** In this order: the first refusal wins. */
export const whitelistRules = [pendingRequestRule, existingPartnerRule, nonPartnerRule, sameAsLatestRule] as const;

export function checkWhitelistRequest(input: WhitelistRuleInput): ApiError | null {
  for (const rule of whitelistRules) {
    const refusal = rule(input);
    if (refusal) return refusal;
  }
  return null;
}

/**
 * The relation a request's end leaves behind. `before` is the relation before the request was made
 * (none or DISABLED for an ALLOW, ACTIVE for a DENY); null: no relation (its rows are deleted).
 */
export function relationAfter(type: WhitelistRequestType, status: WhitelistRequestStatus, before: WhitelistRelationStatus | null): WhitelistRelationStatus | null {
  if (status === 'PENDING') return type === 'ALLOW_TRADING' ? 'PENDING' : before;
  if (status === 'APPROVED') return type === 'ALLOW_TRADING' ? 'ACTIVE' : 'DISABLED';
  return before;
}
