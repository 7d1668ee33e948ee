import { describe, expect, it } from 'vitest';
import { partnersOnlyLevels, tradeableBookOf, tradeableQty } from '../../../../src/trading/bilateral/tradeable-levels.ts';

const response = {
  assetId: 'GBIL-M-2027-01',
  bids: [
    { price: 15000, qty: 40, orders: 1 },
    { price: 14990, qty: 0, orders: 0 },
  ],
  asks: [{ price: 15100, qty: 70, orders: 1 }],
};

describe('tradeable levels', () => {
  it('looks a level up by price, capped at what the level holds now, null when not known', () => {
    const book = tradeableBookOf(response, 'RO-HIDRO');
    expect(book.clientCode).toBe('RO-HIDRO');
    expect(tradeableQty(book.bids, { price: 15000, qty: 100, orders: 2 })).toBe(40);
    expect(tradeableQty(book.bids, { price: 15000, qty: 30, orders: 1 })).toBe(30); // the level shrank since the fetch
    expect(tradeableQty(book.bids, { price: 14990, qty: 50, orders: 1 })).toBe(0);
    expect(tradeableQty(book.bids, { price: 14980, qty: 50, orders: 1 })).toBeNull();
    expect(tradeableQty(book.asks, { price: 15000, qty: 100, orders: 2 })).toBeNull(); // sides are apart
  });

  it("keeps only the partners' part of each level, drops levels without any, keeps levels not known yet", () => {
    const book = tradeableBookOf(response, null);
    const whole = { price: 15100, qty: 70, orders: 1 };
    const levels = [{ price: 15000, qty: 100, orders: 2 }, { price: 14990, qty: 50, orders: 1 }, { price: 14980, qty: 10, orders: 1 }];
    expect(partnersOnlyLevels(levels, book.bids)).toEqual([
      { price: 15000, qty: 40, orders: 1 },
      { price: 14980, qty: 10, orders: 1 },
    ]);
    // A level that is all partners' stays the same object (its row is not drawn again).
    expect(partnersOnlyLevels([whole], book.asks)[0]).toBe(whole);
  });
});
