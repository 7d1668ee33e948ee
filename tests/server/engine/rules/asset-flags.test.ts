import { describe, expect, it } from 'vitest';
import { cancelFlagsRefusal, modifyFlagsRefusal, tradingActiveRefusal } from '../../../../server/engine/rules/asset-flags.ts';
import { asset, client, clientOn, order } from '../state-builders.ts';

function restingBid(overrides: Parameters<typeof asset>[0], qty = 10, balancingGroupId?: string) {
  const a = asset(overrides);
  const o = order(clientOn(a, client('C1')), 'bid', 10_000, qty, balancingGroupId ? { balancingGroupId } : {});
  return { a, o };
}

describe('rules/asset-flags', () => {
  it('a deactivated asset refuses with its id', () => {
    expect(tradingActiveRefusal(asset())).toBeNull();
    expect(tradingActiveRefusal(asset({ tradingActive: false }))).toMatchObject({ result: 'ORDER_TRADING_DEACTIVATED', params: { assetId: 'GAS-DA' } });
  });

  it('without flags every modify passes', () => {
    const { a, o } = restingBid({});
    expect(modifyFlagsRefusal(a, o, 1, true, true, true)).toBeNull();
  });

  it('each modify flag refuses its change only', () => {
    const noPrice = restingBid({ flags: { noPriceChange: true } });
    expect(modifyFlagsRefusal(noPrice.a, noPrice.o, 10, true, false, false)?.result).toBe('ORDER_PRICE_NOT_CHANGEABLE');
    expect(modifyFlagsRefusal(noPrice.a, noPrice.o, 5, false, false, true)).toBeNull();
    const improve = restingBid({ flags: { priceMustImprove: true } });
    expect(modifyFlagsRefusal(improve.a, improve.o, 10, true, true, false)).toMatchObject({ result: 'ORDER_PRICE_CANNOT_WORSEN', params: { previous: '100.00' } });
    expect(modifyFlagsRefusal(improve.a, improve.o, 10, true, false, false)).toBeNull();
    const noDecrease = restingBid({ flags: { noQuantityDecrease: true } });
    expect(modifyFlagsRefusal(noDecrease.a, noDecrease.o, 9, false, false, false)).toMatchObject({ result: 'ORDER_QUANTITY_CANNOT_DECREASE', params: { previous: '10' } });
    expect(modifyFlagsRefusal(noDecrease.a, noDecrease.o, 11, false, false, false)).toBeNull();
    const noAttributes = restingBid({ flags: { noAttributeChange: true } });
    expect(modifyFlagsRefusal(noAttributes.a, noAttributes.o, 10, false, false, true)?.result).toBe('ORDER_ATTRIBUTES_NOT_CHANGEABLE');
  });

  it('balancing-group orders only improve and decrease within the cap', () => {
    const { a, o } = restingBid({ balancingGroup: { maxDecreasePercent: 30 } }, 10, 'BG1');
    expect(modifyFlagsRefusal(a, o, 10, true, true, false)?.result).toBe('ORDER_BALANCING_GROUP_ONLY_IMPROVE');
    expect(modifyFlagsRefusal(a, o, 7, false, false, false)).toBeNull();
    expect(modifyFlagsRefusal(a, o, 6, false, false, false)).toMatchObject({ result: 'ORDER_BALANCING_GROUP_DECREASE_CAP', params: { maxDecrease: '3' } });
    const other = restingBid({ balancingGroup: { maxDecreasePercent: 30 } }, 10);
    expect(modifyFlagsRefusal(other.a, other.o, 1, true, true, false)).toBeNull();
  });

  it('no cancel, and no cancel of a balancing-group order', () => {
    const plain = restingBid({});
    expect(cancelFlagsRefusal(plain.a, plain.o)).toBeNull();
    const noCancel = restingBid({ flags: { noCancel: true } });
    expect(cancelFlagsRefusal(noCancel.a, noCancel.o)?.result).toBe('ORDER_NOT_CANCELLABLE');
    const group = restingBid({ balancingGroup: { maxDecreasePercent: 30 } }, 10, 'BG1');
    expect(cancelFlagsRefusal(group.a, group.o)?.result).toBe('ORDER_BALANCING_GROUP_NO_CANCEL');
  });
});
