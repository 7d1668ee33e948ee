import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../../server/engine/types.ts';
import { OwnPrices } from '../../../server/trading/own-prices.ts';

function order(orderId: number, clientCode: string, way: 'bid' | 'ask', price: number | null, extra: Partial<OrderView> = {}): OrderView {
  return { orderId, assetId: 'A', clientCode, way, price, status: 'created', suspended: false, ...extra } as OrderView;
}

describe('OwnPrices', () => {
  it('keeps each client best bid and ask and the participants through changes', () => {
    const prices = new OwnPrices();
    prices.track(order(1, 'C1', 'bid', 100));
    prices.track(order(2, 'C1', 'bid', 105));
    prices.track(order(3, 'C2', 'ask', 110));
    prices.track(order(4, 'C2', 'ask', 108));
    expect(prices.best('A', ['C1'])).toEqual({ bid: 105, ask: null });
    expect(prices.best('A', ['C1', 'C2'])).toEqual({ bid: 105, ask: 108 });
    expect(prices.participants('A')).toBe(2);

    prices.track(order(2, 'C1', 'bid', 101, { status: 'modified' })); // price changed
    expect(prices.best('A', ['C1']).bid).toBe(101);
    prices.track(order(4, 'C2', 'ask', 108, { suspended: true }));
    expect(prices.best('A', ['C2']).ask).toBe(110);
    prices.track(order(3, 'C2', 'ask', 110, { status: 'traded' }));
    expect(prices.best('A', ['C2']).ask).toBeNull();
    expect(prices.participants('A')).toBe(1); // C2 has only a suspended order left
    prices.track(order(4, 'C2', 'ask', 108, { status: 'cancelled', suspended: true }));
    prices.track(order(1, 'C1', 'bid', 100, { status: 'cancelled' }));
    prices.track(order(2, 'C1', 'bid', 101, { status: 'cancelled' }));
    expect(prices.participants('A')).toBe(0);
    expect(prices.best('A', ['C1', 'C2'])).toEqual({ bid: null, ask: null });
  });

  it('counts several orders at one price until the last leaves', () => {
    const prices = new OwnPrices();
    prices.track(order(1, 'C1', 'ask', 200));
    prices.track(order(2, 'C1', 'ask', 200));
    prices.track(order(1, 'C1', 'ask', 200, { status: 'cancelled' }));
    expect(prices.best('A', ['C1']).ask).toBe(200);
    prices.track(order(2, 'C1', 'ask', 200, { status: 'traded' }));
    expect(prices.best('A', ['C1']).ask).toBeNull();
  });
});
