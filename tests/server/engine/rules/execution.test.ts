import { describe, expect, it } from 'vitest';
import { executionTypeRefusal, immediateFillRefusal, restingExecutionRefusal } from '../../../../server/engine/rules/execution.ts';
import { ASK, BID } from '../../../../server/engine/sides.ts';
import { asset, client, clientOn, order } from '../state-builders.ts';

describe('rules/execution', () => {
  it('normal, IOC and FOK only; a resting order stays normal', () => {
    expect(['normal', 'IOC', 'FOK'].map(executionTypeRefusal)).toEqual([null, null, null]);
    expect(executionTypeRefusal('GTX')).toMatchObject({ result: 'REQUEST_INVALID', params: { field: 'executionType', issue: 'invalid' } });
    expect(restingExecutionRefusal('normal')).toBeNull();
    expect(restingExecutionRefusal('IOC')).toMatchObject({ result: 'REQUEST_INVALID', params: { field: 'executionType', issue: 'restingOrderIsNormal' } });
  });

  it('FOK needs the whole quantity at acceptable prices, IOC something', () => {
    const a = asset();
    const cas = clientOn(a, client('C2'));
    order(cas, 'ask', 10_000, 5);
    order(cas, 'ask', 10_010, 5);
    expect(immediateFillRefusal(a, BID, 10_010, 10, 'FOK')).toBeNull();
    expect(immediateFillRefusal(a, BID, 10_005, 10, 'FOK')?.result).toBe('ORDER_FOK_NOT_FILLED');
    expect(immediateFillRefusal(a, BID, 10_000, 100, 'IOC')).toBeNull();
    expect(immediateFillRefusal(a, BID, 9_995, 1, 'IOC')?.result).toBe('ORDER_IOC_NOT_FILLED');
    expect(immediateFillRefusal(a, ASK, 10_000, 1, 'IOC')?.result).toBe('ORDER_IOC_NOT_FILLED');
    expect(immediateFillRefusal(a, BID, 1, 1, 'normal')).toBeNull();
  });
});
