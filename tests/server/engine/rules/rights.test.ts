import { describe, expect, it } from 'vitest';
import { agencyRefusal, participantOk, participantRefusal, pickForAsset } from '../../../../server/engine/rules/rights.ts';
import { ASK, BID } from '../../../../server/engine/sides.ts';
import type { AssetConfig, ClientConfig } from '../../../../server/engine/types.ts';
import { asset, client, clientOn } from '../state-builders.ts';

function setUp(assetOverrides: Partial<AssetConfig> = {}, clientOverrides: Partial<ClientConfig> = {}, clientCode = 'C1') {
  const a = asset(assetOverrides);
  const c = client(clientCode, clientOverrides);
  const rules = clientOn(a, c).rules;
  const refusal = (side: 0 | 1, agencyId?: string) => participantRefusal(a, c, rules, agencyId, side);
  return { a, c, rules, refusal };
}

describe('rules/rights', () => {
  it('a per-asset entry wins over the "*" entry', () => {
    expect(pickForAsset({ '*': 1, A: 2 }, 'A')).toBe(2);
    expect(pickForAsset({ '*': 1, A: 2 }, 'B')).toBe(1);
    expect(pickForAsset({ A: 2 }, 'B')).toBeUndefined();
  });

  it('a client with every right passes on both sides: the fast flags say so', () => {
    const { c, rules, refusal } = setUp();
    expect([rules.bidOk, rules.askOk]).toEqual([true, true]);
    expect(participantOk(rules, c, BID, 'AG1')).toBe(true);
    expect(refusal(BID)).toBeNull();
  });

  it('an inactive client, then a foreign agency, then a missing right', () => {
    expect(setUp({}, { active: false }).refusal(BID, 'AG9')).toMatchObject({ result: 'ORDER_CLIENT_NOT_ACTIVE', params: { clientCode: 'C1' } });
    const { c, rules, refusal } = setUp({}, { rights: { '*': { bid: true, ask: false } } });
    expect(participantOk(rules, c, BID, 'AG9')).toBe(false);
    expect(refusal(BID, 'AG9')).toMatchObject({ result: 'ORDER_AGENCY_CLIENT_FORBIDDEN', params: { clientCode: 'C1' } });
    expect(agencyRefusal(c, 'AG1')).toBeNull();
    expect(rules.askOk).toBe(false);
    expect(refusal(ASK)).toMatchObject({ result: 'ORDER_NO_RIGHT', params: { clientCode: 'C1', assetId: 'GAS-DA', way: 'ask' } });
  });

  it('restricted asks, owner sides', () => {
    expect(setUp({}, { restrictedAsk: true }).refusal(ASK)).toMatchObject({ result: 'ORDER_CLIENT_RESTRICTED_ASK', params: { clientCode: 'C1' } });
    const owner = setUp({ ownerSides: { C1: 'ask' } });
    expect(owner.rules.bidOk).toBe(false);
    expect(owner.refusal(BID)).toMatchObject({ result: 'ORDER_SIDE_RESTRICTED', params: { way: 'bid' } });
    expect(owner.refusal(ASK)).toBeNull();
  });

  it('the transmission side is for active partners, who use only that side', () => {
    expect(setUp({ transmissionWay: 'bid' }).refusal(BID)).toMatchObject({ result: 'ORDER_NOT_TRANSMISSION_PARTNER', params: { clientCode: 'C1' } });
    const partner = setUp({ transmissionWay: 'bid' }, { transmissionPartner: { active: true } });
    expect(partner.refusal(BID)).toBeNull();
    expect(partner.refusal(ASK)).toMatchObject({ result: 'ORDER_TRANSMISSION_SIDE_RESTRICTED', params: { way: 'ask' } });
  });

  it('gas release assets need the asset among the client\'s gas release assets', () => {
    expect(setUp({ gasRelease: true }).refusal(BID)).toMatchObject({ result: 'ORDER_GAS_RELEASE_FORBIDDEN', params: { clientCode: 'C1', assetId: 'GAS-DA' } });
    const allowed = setUp({ gasRelease: true }, { gasReleaseAssets: ['*'] });
    expect(allowed.rules.bidOk).toBe(true);
    expect(allowed.refusal(BID)).toBeNull();
  });
});
