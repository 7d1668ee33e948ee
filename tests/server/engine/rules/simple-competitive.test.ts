import { describe, expect, it } from 'vitest';
import { initiatorQuantityRefusal, isInitiator, scRoleRefusal, scValidityRefusal } from '../../../../server/engine/rules/simple-competitive.ts';
import { ASK, BID } from '../../../../server/engine/sides.ts';
import { asset, client, clientOn, order } from '../state-builders.ts';

const sc = { simpleCompetitive: { initiatorClientCode: 'C1', initiatorWay: 'ask' as const } };

describe('rules/simple-competitive', () => {
  it('other assets are not concerned', () => {
    const a = asset();
    expect(scValidityRefusal(a, 'day')).toBeNull();
    expect(scRoleRefusal(a, 'C1', BID, 'bid')).toBeNull();
    expect(isInitiator(a, 'C1')).toBe(false);
  });

  it('GTC orders only', () => {
    const a = asset(sc);
    expect(scValidityRefusal(a, 'GTC')).toBeNull();
    expect(scValidityRefusal(a, 'GTD')?.result).toBe('ORDER_SIMPLE_COMPETITIVE_GTC_ONLY');
  });

  it('the initiator on its side, partners on the other', () => {
    const a = asset(sc);
    expect(scRoleRefusal(a, 'C1', ASK, 'ask')).toBeNull();
    expect(isInitiator(a, 'C1')).toBe(true);
    expect(scRoleRefusal(a, 'C1', BID, 'bid')).toMatchObject({ result: 'ORDER_SIMPLE_COMPETITIVE_WRONG_SIDE', params: { way: 'bid' } });
    expect(scRoleRefusal(a, 'C2', ASK, 'ask')).toMatchObject({ result: 'ORDER_SIMPLE_COMPETITIVE_WRONG_SIDE', params: { way: 'ask' } });
    expect(scRoleRefusal(a, 'C2', BID, 'bid')).toBeNull();
  });

  it('one initiator order per session', () => {
    const a = asset(sc);
    a.initiatorOrderId = 7;
    expect(scRoleRefusal(a, 'C1', ASK, 'ask')).toMatchObject({ result: 'ORDER_INITIATOR_EXISTS', params: { orderId: 7 } });
    a.initiatorOrderId = null;
    a.initiatorPlaced = true;
    expect(scRoleRefusal(a, 'C1', ASK, 'ask')?.result).toBe('ORDER_INITIATOR_NO_NEW_ORDER');
  });

  it("the initiator's quantity is locked", () => {
    const a = asset(sc);
    const cas = clientOn(a, client('C1'));
    const o = order(cas, 'ask', 10_000, 10, { initiator: true });
    expect(initiatorQuantityRefusal(o, true)?.result).toBe('ORDER_INITIATOR_QUANTITY_LOCKED');
    expect(initiatorQuantityRefusal(o, false)).toBeNull();
    // a partner's order (initiator is fixed at creation: in the order's header)
    expect(initiatorQuantityRefusal(order(cas, 'ask', 10_000, 10), true)).toBeNull();
  });
});
