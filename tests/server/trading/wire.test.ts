import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transactionViewOf } from '../../../server/engine/events.ts';
import { iso, transactionToWire } from '../../../server/trading/wire.ts';
import { ASSET, harness, trades } from '../engine/helpers.ts';

describe('iso', () => {
  it('writes every instant as toISOString does, also when instants share a cache slot', () => {
    const base = Date.UTC(2026, 10, 23, 12, 0, 0);
    // 64 ms apart: the same slot, one after the other
    for (const ms of [base, base + 64, base, base + 128, base + 64]) expect(iso(ms)).toBe(new Date(ms).toISOString());
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 8.64e15 }), { minLength: 1, maxLength: 200 }), (instants) => {
        for (const ms of instants) expect(iso(ms)).toBe(new Date(ms).toISOString());
      }),
    );
    expect(() => iso(Number.NaN)).toThrow(RangeError);
  });
});

describe('trades to the wire from the compact event', () => {
  it('give the values of the SPEC transaction view (noCnt, txDate, timestamp, the unset fields null)', () => {
    const h = harness({ asset: { contractQty: 4 } });
    h.place('ask', 1_000, 6, 'C2');
    const r = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 6 });
    const event = r.events.find((e) => e.type === 'trade')!;
    if (event.type !== 'trade') throw new Error('no trade');
    const view = trades(r)[0]!;
    expect(view).toEqual(transactionViewOf(event));
    expect(transactionToWire(event)).toEqual({
      transactionId: String(view.transactionId),
      assetId: view.assetId,
      price: view.price,
      qty: view.qty,
      noCnt: 2,
      aggressor: 'bid',
      txDate: view.txDate,
      timestamp: new Date(view.timestamp).toISOString(),
      buyer: 'C1',
      seller: 'C2',
      buyOrderId: String(view.buyOrderId),
      sellOrderId: String(view.sellOrderId),
      marginsExposureActive: view.marginsExposureActive,
      externalTransactionId: null,
      gasfwTransactionId: null,
      transferTimestamp: null,
      parentTransactionId: null,
      grandParentTransactionId: null,
      splitTimestamp: null,
    });
  });
});
