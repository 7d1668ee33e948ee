import { describe, expect, it } from 'vitest';
import { ceilDiv, computeDailySettlementPrice, floorDiv, midPrice, variationBps, volumeWeightedPrice } from '../../../server/clearing/settlement-price.ts';

describe('daily settlement price formulas', () => {
  it('floors and ceils BigInt divisions on both signs', () => {
    expect([floorDiv(7n, 2n), floorDiv(-7n, 2n), floorDiv(6n, 3n), floorDiv(-6n, 3n)]).toEqual([3n, -4n, 2n, -2n]);
    expect([ceilDiv(7n, 2n), ceilDiv(-7n, 2n), ceilDiv(6n, 3n)]).toEqual([4n, -3n, 2n]);
  });

  it('weights by volume and rounds half up (docs/clearing.md worked example)', () => {
    // (410.00 × 5.0 + 412.50 × 2.5) / 7.5 = 410.8333… → 410.83
    expect(volumeWeightedPrice([{ price: 41_000, qty: 50 }, { price: 41_250, qty: 25 }])).toBe(41_083);
    // (350.55 × 12.3 + 351.00 × 4.0) / 16.3 = 350.6604… → 350.66
    expect(volumeWeightedPrice([{ price: 35_055, qty: 123 }, { price: 35_100, qty: 40 }])).toBe(35_066);
    // exactly half: (100 + 101) / 2 = 100.5 → 101
    expect(volumeWeightedPrice([{ price: 100, qty: 1 }, { price: 101, qty: 1 }])).toBe(101);
    expect(volumeWeightedPrice([])).toBeNull();
  });

  it('takes the mid of bid and ask, rounded half up, only with both', () => {
    expect(midPrice(40_000, 40_101)).toBe(40_051);
    expect(midPrice(40_000, 40_100)).toBe(40_050);
    expect(midPrice(null, 40_100)).toBeNull();
    expect(midPrice(40_000, null)).toBeNull();
  });

  it('gives the variation in basis points, half away from zero', () => {
    expect(variationBps(41_083, 40_000)).toBe(271); // 270.75
    expect(variationBps(39_999, 40_000)).toBe(0); // -0.25
    expect(variationBps(39_998, 40_000)).toBe(-1); // -0.5
    expect(variationBps(40_000, null)).toBeNull();
    expect(variationBps(null, 40_000)).toBeNull();
  });

  it('tries transactions, then orders, then the previous price', () => {
    expect(computeDailySettlementPrice({ windowTrades: [{ price: 41_000, qty: 10 }], bestBid: 1, bestAsk: 3, previous: 5 })).toEqual({
      priceFromTransactions: 41_000, priceFromOrders: 2, value: 41_000, source: 'transactions',
    });
    expect(computeDailySettlementPrice({ windowTrades: [], bestBid: 40_000, bestAsk: 40_101, previous: 5 })).toEqual({
      priceFromTransactions: null, priceFromOrders: 40_051, value: 40_051, source: 'orders',
    });
    expect(computeDailySettlementPrice({ windowTrades: [], bestBid: 40_000, bestAsk: null, previous: 39_000 })).toEqual({
      priceFromTransactions: null, priceFromOrders: null, value: 39_000, source: 'previous',
    });
    expect(computeDailySettlementPrice({ windowTrades: [], bestBid: null, bestAsk: null, previous: null }).value).toBeNull();
  });
});
