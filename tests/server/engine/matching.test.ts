/**
 * matching.ts: continuous matching through the engine (price-time priority, events, transactions), and
 * the uncross simulation and price directly (the same simulation serves delta T's end, the opening
 * auction and indicativeUncross()).
 */
import { describe, expect, it } from 'vitest';
import { simulateUncross, uncross, uncrossPrice } from '../../../server/engine/matching.ts';
import { ASK, BID } from '../../../server/engine/sides.ts';
import { ASSET, MARKET, T0, eventsOf, expectConsistent, harness, orderEvents, queue, trades } from './helpers.ts';
import { asset, client, clientOn, engineState, order } from './state-builders.ts';

describe('matching: price-time priority', () => {
  it('fills the best price first, FIFO within a level, at the resting price', () => {
    const h = harness();
    const a1 = h.place('ask', 1_010, 5, 'C2');
    const a2 = h.place('ask', 1_000, 5, 'C3');
    const a3 = h.place('ask', 1_000, 5, 'C4');
    const r = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_010, qty: 12 });
    expect(r.result).toBe('OK');
    const t = trades(r);
    expect(t.map((x) => [x.sellOrderId, x.qty, x.price])).toEqual([
      [a2, 5, 1_000],
      [a3, 5, 1_000],
      [a1, 2, 1_010],
    ]);
    expect(t.every((x) => x.buyOrderId === r.orderId && x.aggressor === 'bid' && x.buyer === 'C1')).toBe(true);
    expect(queue(h, 'ask')).toEqual([[1_010, [a1]]]);
    expect(h.engine.getOrder(a1)).toMatchObject({ status: 'tradedPartially', offeredQty: 3, tradedQty: 2, tradedPrice: 1_010 });
    expect(h.engine.getOrder(a2)).toBeUndefined();
    expect(h.engine.getOrder(r.orderId!)).toBeUndefined();
    expectConsistent(h);
  });

  it('rests the remainder of a limit order and reports its order events', () => {
    const h = harness();
    h.place('ask', 1_000, 4, 'C2');
    const r = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_005, qty: 10 });
    const kinds = orderEvents(r).map((e) => [e.orderId, e.kind, e.status]);
    expect(kinds).toEqual([
      [r.orderId, 'created', 'created'],
      [1, 'traded', 'traded'],
      [r.orderId, 'tradedPartially', 'tradedPartially'],
    ]);
    expect(h.engine.getBook(ASSET)).toEqual({ assetId: ASSET, bids: [{ price: 1_005, qty: 6, orders: 1 }], asks: [] });
    expect(h.engine.getOrder(r.orderId!)).toMatchObject({ qty: 10, offeredQty: 6, tradedQty: 4, tradedPrice: 1_000, position: 1 });
  });

  it('emits level deltas with the new aggregate of each touched level', () => {
    const h = harness();
    h.place('ask', 1_000, 4, 'C2');
    h.place('ask', 1_000, 6, 'C3');
    const r = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 5 });
    expect(eventsOf(r, 'level')).toEqual([{ type: 'level', assetId: ASSET, way: 'ask', price: 1_000, qty: 5, orders: 1 }]);
    const c = h.cancel(2);
    expect(eventsOf(c, 'level')).toEqual([{ type: 'level', assetId: ASSET, way: 'ask', price: 1_000, qty: 0, orders: 0 }]);
  });

  it('builds transactions with every SPEC field', () => {
    const h = harness({ asset: { marginsExposureActive: true } });
    h.place('ask', 1_000, 4, 'C2');
    const [tx] = trades(h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 4 }));
    expect(tx).toEqual({
      transactionId: 1,
      assetId: ASSET,
      marketId: MARKET,
      buyer: 'C1',
      seller: 'C2',
      buyOrderId: 2,
      sellOrderId: 1,
      buyerBrokerId: 'BR1',
      sellerBrokerId: 'BR1',
      aggressor: 'bid',
      origin: 'book',
      status: 'active',
      qty: 4,
      price: 1_000,
      noCnt: 4,
      txDate: '2026-11-23',
      timestamp: expect.any(Number),
      marginsExposureActive: true,
      externalTransactionId: null,
      gasfwTransactionId: null,
      transferTimestamp: null,
      parentTransactionId: null,
      grandParentTransactionId: null,
      splitTimestamp: null,
    });
  });
});

describe('uncross', () => {
  /** Bids 102.00 ×10, 101.00 ×5; asks 99.00 ×8, 101.50 ×10 (the opening-auction book of session.test.ts). */
  function crossedBook() {
    const a = asset({ priceStep: 5 }, 'opening');
    const c1 = clientOn(a, client('C1'));
    const c2 = clientOn(a, client('C2'));
    order(c1, 'bid', 10_200, 10);
    order(c1, 'bid', 10_100, 5);
    order(c2, 'ask', 9_900, 8);
    order(c2, 'ask', 10_150, 10);
    return { a, c1, c2 };
  }

  it('simulates on level aggregates: the volume and the marginal bid and ask prices', () => {
    const { a } = crossedBook();
    expect(simulateUncross(a)).toEqual({ volume: 10, bidPrice: 10_200, askPrice: 10_150 });
    expect(a.book.sides[BID].levels.map((l) => l.qty)).toEqual([5, 10]); // unchanged
  });

  it('a book that does not cross simulates to nothing', () => {
    const a = asset();
    const c = clientOn(a, client('C1'));
    order(c, 'bid', 9_000, 5);
    order(c, 'ask', 9_500, 5);
    expect(simulateUncross(a)).toEqual({ volume: 0, bidPrice: 0, askPrice: 0 });
  });

  it('the price: the competing side at the end of delta T; in an auction the reference clamped into the range, else the midpoint on the step', () => {
    const { a } = crossedBook();
    const sim = simulateUncross(a);
    expect(uncrossPrice(a, 'deltaT', BID, sim)).toBe(10_200);
    expect(uncrossPrice(a, 'deltaT', ASK, sim)).toBe(10_150);
    a.settlementPrice = 10_180;
    expect(uncrossPrice(a, 'auction', BID, sim)).toBe(10_180);
    a.settlementPrice = 9_000;
    expect(uncrossPrice(a, 'auction', BID, sim)).toBe(10_150);
    a.settlementPrice = null;
    expect(uncrossPrice(a, 'auction', BID, sim)).toBe(10_175);
  });

  it('executes what the simulation found, all at one price, and records volume and surplus', () => {
    const { a } = crossedBook();
    const s = engineState(a, a.clients.get('C1')!.client, a.clients.get('C2')!.client);
    const sim = simulateUncross(a);
    const price = uncross(s, a, 'auction', BID, T0);
    const done = s.takeEvents().filter((e) => e.type === 'trade');
    expect(done.reduce((sum, e) => sum + (e.type === 'trade' ? e.qty : 0), 0)).toBe(sim.volume);
    expect(new Set(done.map((e) => (e.type === 'trade' ? e.price : 0)))).toEqual(new Set([price]));
    expect(a.book.crossed()).toBe(false);
    // at 101.75 (the midpoint: no reference price) nothing is left on the bid side, the ask at 101.50 keeps 8
    expect(price).toBe(10_175);
    expect(a.stats).toMatchObject({ tradeableQty: 10, surplusQty: -8 });
  });
});
