import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transactionViewOf } from '../../../server/engine/events.ts';
import { ASSET, harness, trades } from '../engine/helpers.ts';
import type { OrderUpdate } from '../../../protocol/index.ts';
import { transactionSchema } from '../../../protocol/market-data.ts';
import { iso, orderUpdateJson, transactionToWire, transactionViewToWire } from '../../../server/trading/wire.ts';

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
      origin: 'book',
      status: 'active',
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

describe('orderUpdateJson', () => {
  const order: OrderUpdate['order'] = {
    orderId: '123456',
    assetId: 'GSPOT-DA',
    status: 'created',
    suspended: false,
    clientCode: 'RO-HIDRO',
    brokerId: 'BR1',
    way: 'bid',
    price: 14_995,
    qty: 30,
    noCnt: 0,
    totalQty: 30,
    powerPerInterval: null,
    tradedQty: 0,
    tradedPrice: null,
    offeredQty: 30,
    offeredPrice: 14_995,
    executionType: 'normal',
    validityType: 'day',
    validity: null,
    sessionDate: '2026-11-25',
    createdAt: '2026-11-25T12:00:00.123Z',
    lastModifiedAt: '2026-11-25T12:00:00.123Z',
    expiresAt: '2026-11-25T21:59:59.999Z',
    position: 12,
  };

  it('writes the text JSON.stringify writes, field order and nulls included', () => {
    const update = { seq: 42, order };
    expect(orderUpdateJson(update)).toBe(JSON.stringify(update));
    const finished = { seq: 7, order: { ...order, status: 'traded' as const, brokerId: null, price: null, tradedPrice: -5, position: null, expiresAt: null, validity: '2026-11-30T21:59:59.999Z' } };
    expect(orderUpdateJson(finished)).toBe(JSON.stringify(finished));
    // Strings that need escaping go through JSON.stringify; numbers JSON cannot write are null there too.
    const odd = { seq: 0, order: { ...order, clientCode: 'a"b\\c\n\u0001ț', assetId: '</script>', qty: Number.NaN, price: Number.POSITIVE_INFINITY } };
    expect(orderUpdateJson(odd)).toBe(JSON.stringify(odd));
  });

  it('matches JSON.stringify for any strings and numbers in every field', () => {
    const value = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.integer(), fc.double(), fc.constant(null), fc.boolean());
    const keys = Object.keys(order) as Array<keyof typeof order>;
    const kinds: Record<string, unknown> = { ...order, brokerId: '', powerPerInterval: 0, tradedPrice: 0, validity: '', expiresAt: '', position: 0 };
    const nullable = new Set(['brokerId', 'price', 'powerPerInterval', 'tradedPrice', 'offeredPrice', 'validity', 'expiresAt', 'position']);
    fc.assert(
      fc.property(fc.nat(), fc.array(fc.tuple(fc.constantFrom(...keys), value), { maxLength: 10 }), (seq, changes) => {
        const changed: Record<string, unknown> = { ...order };
        // Each field keeps its type: a string field gets a string, a number field a number, null only where allowed.
        for (const [key, next] of changes) {
          if (next === null ? nullable.has(key) : typeof next === typeof kinds[key]) changed[key] = next;
        }
        const update = { seq, order: changed as OrderUpdate['order'] };
        expect(orderUpdateJson(update)).toBe(JSON.stringify(update));
      }),
    );
  });
});

describe('transactionViewToWire', () => {
  it('writes an off-book transaction: no orders, the transfer fields as ids and ISO times', () => {
    const wire = transactionViewToWire({
      transactionId: 12,
      assetId: 'GCCP-M-2027-01',
      marketId: 'GAS-CCP',
      buyer: 'C1',
      seller: 'C2',
      buyOrderId: null,
      sellOrderId: null,
      buyerBrokerId: null,
      sellerBrokerId: null,
      aggressor: null,
      origin: 'transfer',
      status: 'active',
      qty: 40,
      price: 16_100,
      noCnt: 40,
      txDate: '2026-11-23',
      timestamp: Date.UTC(2026, 10, 23, 10),
      marginsExposureActive: true,
      externalTransactionId: null,
      gasfwTransactionId: null,
      transferTimestamp: Date.UTC(2026, 10, 23, 10),
      parentTransactionId: 7,
      grandParentTransactionId: 3,
      splitTimestamp: null,
    });
    expect(wire).toMatchObject({ transactionId: '12', buyOrderId: '', sellOrderId: '', aggressor: 'bid', origin: 'transfer', status: 'active', transferTimestamp: '2026-11-23T10:00:00.000Z', parentTransactionId: '7', grandParentTransactionId: '3', splitTimestamp: null });
    expect(transactionSchema.parse(wire)).toEqual(wire);
  });
});
