import { describe, expect, it } from 'vitest';
import { crossFree, crossRefusal } from '../../../../server/engine/rules/cross.ts';
import { ASK, BID } from '../../../../server/engine/sides.ts';
import { asset, client, clientOn, order } from '../state-builders.ts';

describe('rules/cross', () => {
  it('nothing resting on the other side: free', () => {
    const a = asset();
    const cas = clientOn(a, client('C1'));
    order(cas, 'bid', 10_000, 5);
    expect(crossFree(cas, BID)).toBe(true);
    expect(crossRefusal(a, cas, BID, 20_000)).toBeNull();
    expect(crossFree(cas, ASK)).toBe(false);
  });

  it('a price that meets the client\'s own order on the other side names it', () => {
    const a = asset();
    const cas = clientOn(a, client('C1'));
    const ask = order(cas, 'ask', 10_000, 5);
    expect(crossRefusal(a, cas, BID, 9_995)).toBeNull();
    expect(crossRefusal(a, cas, BID, 10_000)).toMatchObject({ result: 'ORDER_CROSS', params: { orderId: ask.id } });
  });

  it('one side per client: any order on the other side refuses', () => {
    const a = asset({ flags: { oneSidePerClient: true } });
    const cas = clientOn(a, client('C1'));
    const bid = order(cas, 'bid', 9_000, 5);
    expect(crossRefusal(a, cas, ASK, 20_000)).toMatchObject({ result: 'ORDER_CROSS_BID', params: { orderId: bid.id } });
  });
});
