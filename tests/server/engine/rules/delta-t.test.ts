import { describe, expect, it } from 'vitest';
import { deltaTLockRefusal, deltaTOrderRefusal } from '../../../../server/engine/rules/delta-t.ts';
import { ASK, BID } from '../../../../server/engine/sides.ts';
import { T0 } from '../helpers.ts';
import { asset, client, clientOn, order } from '../state-builders.ts';

/** A delta-T asset (step 0.10) in a running period: bid 100.00 rests against ask 100.00. */
function running() {
  const a = asset({ deltaT: { durationMs: 60_000, priceStep: 10 } });
  order(clientOn(a, client('C2')), 'ask', 10_000, 10);
  order(clientOn(a, client('C1')), 'bid', 10_000, 10);
  a.deltaT = { endsAt: T0 + 60_000, side: BID, startedAt: T0 };
  return a;
}

describe('rules/delta-t', () => {
  it('outside a period nothing is locked', () => {
    const a = asset({ deltaT: { durationMs: 60_000, priceStep: 10 } });
    expect(deltaTLockRefusal(a)).toBeNull();
    expect(deltaTOrderRefusal(a, BID, 10_000, 'IOC')).toBeNull();
  });

  it('during a period resting orders are locked until its end', () => {
    expect(deltaTLockRefusal(running())).toMatchObject({ result: 'ORDER_DELTA_T_LOCKED', params: { endsAt: new Date(T0 + 60_000).toISOString() } });
  });

  it('immediate orders are refused; a crossing order improves its side by the step', () => {
    const a = running();
    expect(deltaTOrderRefusal(a, BID, 10_010, 'FOK')?.result).toBe('ORDER_DELTA_T_LOCKED');
    expect(deltaTOrderRefusal(a, BID, 10_005, 'normal')).toMatchObject({ result: 'ORDER_DELTA_T_PRICE_STEP', params: { step: '0.10', currency: 'RON' } });
    expect(deltaTOrderRefusal(a, BID, 10_010, 'normal')).toBeNull();
    // not crossing: no step needed
    expect(deltaTOrderRefusal(a, BID, 9_000, 'normal')).toBeNull();
    expect(deltaTOrderRefusal(a, ASK, 10_500, 'normal')).toBeNull();
  });
});
