import { describe, expect, it } from 'vitest';
import {
  checkWhitelistRequest,
  existingPartnerRule,
  nonPartnerRule,
  pendingRequestRule,
  relationAfter,
  sameAsLatestRule,
  type WhitelistRuleInput,
} from '../../../server/workflows/whitelist-rules.ts';

const base: WhitelistRuleInput = { type: 'ALLOW_TRADING', partner: 'RO-TERMO', pendingRequests: 0, relation: null, latestApprovedType: null };

describe('the four whitelist rules, one by one', () => {
  it('one pending request per partner', () => {
    expect(pendingRequestRule({ ...base, pendingRequests: 1 })).toEqual({ code: 'WHITELIST_PENDING_EXISTS', params: { partner: 'RO-TERMO' } });
    expect(pendingRequestRule({ ...base, type: 'DENY_TRADING', relation: 'ACTIVE', pendingRequests: 2 })?.code).toBe('WHITELIST_PENDING_EXISTS');
    expect(pendingRequestRule(base)).toBeNull();
  });

  it('no ALLOW for an ACTIVE partner', () => {
    expect(existingPartnerRule({ ...base, relation: 'ACTIVE' })).toEqual({ code: 'WHITELIST_PARTNER_EXISTS', params: { partner: 'RO-TERMO' } });
    for (const relation of [null, 'DISABLED', 'PENDING'] as const) expect(existingPartnerRule({ ...base, relation })).toBeNull();
    expect(existingPartnerRule({ ...base, type: 'DENY_TRADING', relation: 'ACTIVE' })).toBeNull();
  });

  it('no DENY for a non-partner', () => {
    for (const relation of [null, 'DISABLED', 'PENDING'] as const) {
      expect(nonPartnerRule({ ...base, type: 'DENY_TRADING', relation })).toEqual({ code: 'WHITELIST_NOT_PARTNER', params: { partner: 'RO-TERMO' } });
    }
    expect(nonPartnerRule({ ...base, type: 'DENY_TRADING', relation: 'ACTIVE' })).toBeNull();
    expect(nonPartnerRule({ ...base, relation: null })).toBeNull();
  });

  it('not the same type as the latest approved request between the two', () => {
    expect(sameAsLatestRule({ ...base, latestApprovedType: 'ALLOW_TRADING' })).toEqual({ code: 'WHITELIST_SAME_AS_LATEST', params: { partner: 'RO-TERMO' } });
    expect(sameAsLatestRule({ ...base, type: 'DENY_TRADING', latestApprovedType: 'DENY_TRADING' })?.code).toBe('WHITELIST_SAME_AS_LATEST');
    expect(sameAsLatestRule({ ...base, latestApprovedType: 'DENY_TRADING' })).toBeNull();
    expect(sameAsLatestRule(base)).toBeNull();
  });

  it('checks them in order: the first refusal wins, none when all pass', () => {
    expect(checkWhitelistRequest({ ...base, pendingRequests: 1, relation: 'ACTIVE', latestApprovedType: 'ALLOW_TRADING' })?.code).toBe('WHITELIST_PENDING_EXISTS');
    expect(checkWhitelistRequest({ ...base, relation: 'ACTIVE', latestApprovedType: 'ALLOW_TRADING' })?.code).toBe('WHITELIST_PARTNER_EXISTS');
    expect(checkWhitelistRequest({ ...base, type: 'DENY_TRADING', relation: 'DISABLED', latestApprovedType: 'DENY_TRADING' })?.code).toBe('WHITELIST_NOT_PARTNER');
    // A relation out of step with the requests (set by hand, or the demo data): only the last rule sees it.
    expect(checkWhitelistRequest({ ...base, relation: 'DISABLED', latestApprovedType: 'ALLOW_TRADING' })?.code).toBe('WHITELIST_SAME_AS_LATEST');
    expect(checkWhitelistRequest(base)).toBeNull();
    expect(checkWhitelistRequest({ ...base, relation: 'DISABLED', latestApprovedType: 'DENY_TRADING' })).toBeNull();
    expect(checkWhitelistRequest({ ...base, type: 'DENY_TRADING', relation: 'ACTIVE', latestApprovedType: 'ALLOW_TRADING' })).toBeNull();
  });
});

describe('the relation each end of a request leaves', () => {
  it('ALLOW: PENDING while it waits, ACTIVE when approved, what it was before when rejected or cancelled', () => {
    expect(relationAfter('ALLOW_TRADING', 'PENDING', null)).toBe('PENDING');
    expect(relationAfter('ALLOW_TRADING', 'PENDING', 'DISABLED')).toBe('PENDING');
    expect(relationAfter('ALLOW_TRADING', 'APPROVED', null)).toBe('ACTIVE');
    expect(relationAfter('ALLOW_TRADING', 'REJECTED', null)).toBeNull();
    expect(relationAfter('ALLOW_TRADING', 'CANCELLED', 'DISABLED')).toBe('DISABLED');
  });

  it('DENY: DISABLED once approved', () => {
    expect(relationAfter('DENY_TRADING', 'APPROVED', 'ACTIVE')).toBe('DISABLED');
    expect(relationAfter('DENY_TRADING', 'PENDING', 'ACTIVE')).toBe('ACTIVE');
  });
});
