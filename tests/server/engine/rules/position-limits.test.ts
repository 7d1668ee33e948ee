import { describe, expect, it } from 'vitest';
import { positionLimitsRefusal } from '../../../../server/engine/rules/position-limits.ts';
import { ASK, BID } from '../../../../server/engine/sides.ts';
import type { ClientConfig } from '../../../../server/engine/types.ts';
import { asset, client, clientOn, order } from '../state-builders.ts';

function setUp(overrides: Partial<ClientConfig>) {
  const a = asset();
  const cas = clientOn(a, client('C1', overrides));
  return { a, cas };
}

describe('rules/position-limits', () => {
  it('without imbalance or tradeable limits the fast flag is set and nothing refuses', () => {
    const { a, cas } = setUp({});
    expect(cas.rules.limitsFree).toBe(true);
    expect(positionLimitsRefusal(a, cas, BID, 1_000_000)).toBeNull();
  });

  it('imbalance: one way only, within its quantity (open orders count)', () => {
    const { a, cas } = setUp({ imbalance: { '*': { way: 'bid', quantity: 50 } } });
    expect(cas.rules.limitsFree).toBe(false);
    expect(positionLimitsRefusal(a, cas, ASK, 1)).toMatchObject({ result: 'ORDER_IMBALANCE_BID_ONLY', params: { quantity: '50' } });
    order(cas, 'bid', 10_000, 30);
    expect(positionLimitsRefusal(a, cas, BID, 20)).toBeNull();
    expect(positionLimitsRefusal(a, cas, BID, 21)).toMatchObject({ result: 'ORDER_IMBALANCE_QUANTITY_LIMIT', params: { limit: '50' } });
    const askOnly = setUp({ imbalance: { 'GAS-DA': { way: 'ask', quantity: 5 } } });
    expect(positionLimitsRefusal(askOnly.a, askOnly.cas, BID, 1)?.result).toBe('ORDER_IMBALANCE_ASK_ONLY');
  });

  it('tradeable quantity: open + traded this session + new within the limit of the way', () => {
    const { a, cas } = setUp({ tradeableQuantity: { '*': { bid: 100 } } });
    order(cas, 'bid', 10_000, 40);
    cas.tradedQty[BID] = 50;
    expect(positionLimitsRefusal(a, cas, BID, 10)).toBeNull();
    expect(positionLimitsRefusal(a, cas, BID, 15)).toMatchObject({ result: 'ORDER_TRADEABLE_QUANTITY_INSUFFICIENT', params: { excess: '5', limit: '100' } });
    expect(positionLimitsRefusal(a, cas, ASK, 1_000)).toBeNull();
  });
});
