/**
 * whitelist.ts and the bilateral matching: relations (symmetric, no change is no event), the
 * continuous matching that skips non-partners, IOC / FOK counting partners only, the tradeable levels
 * query, and relations through replay and snapshots.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../server/engine/engine.ts';
import type { EngineCommand } from '../../../server/engine/types.ts';
import { ASSET, eventsOf, expectConsistent, harness, trades, type Harness } from './helpers.ts';

const relate = (h: Harness, clientCode: string, partnerCode: string, active = true): EngineCommand => ({ type: 'setWhitelistRelation', at: h.now, clientCode, partnerCode, active });

describe('setWhitelistRelation', () => {
  it('is symmetric; setting what is already there changes nothing', () => {
    const h = harness();
    expect(eventsOf(h.ok(relate(h, 'C1', 'C2')), 'config')).toEqual([expect.objectContaining({ kind: 'whitelist', id: 'C1|C2' })]);
    expect(h.engine.arePartners('C2', 'C1')).toBe(true);
    expect(h.ok(relate(h, 'C2', 'C1')).events).toEqual([]);
    h.ok(relate(h, 'C2', 'C1', false));
    expect(h.engine.arePartners('C1', 'C2')).toBe(false);
    expect(h.ok(relate(h, 'C1', 'C2', false)).events).toEqual([]);
    expect(h.run(relate(h, 'C1', 'C1'))).toMatchObject({ result: 'TRANSACTION_SAME_PARTY', params: { clientCode: 'C1' } });
    expect(h.run({ type: 'setWhitelistRelation', at: h.now, clientCode: '', partnerCode: 'C1', active: true })).toMatchObject({ result: 'REQUEST_INVALID' });
    expectConsistent(h);
  });

  it('relations survive a snapshot and change the hash', () => {
    const h = harness();
    const without = h.engine.stateHash();
    h.ok(relate(h, 'C1', 'C3'));
    expect(h.engine.stateHash()).not.toBe(without);
    const restored = Engine.fromSnapshot(JSON.parse(JSON.stringify(h.engine.exportState())));
    expect(restored.stateHash()).toBe(h.engine.stateHash());
    expect(restored.arePartners('C3', 'C1')).toBe(true);
  });
});

describe('bilateral matching', () => {
  it('an incoming order skips non-partners, who stay in the book (crossed), and trades with partners behind them', () => {
    const h = harness({ asset: { bilateral: true } });
    h.ok(relate(h, 'C1', 'C3'));
    const other = h.place('ask', 1_000, 5, 'C2');
    const partner = h.place('ask', 1_005, 5, 'C3');
    const r = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_010, qty: 8 });
    expect(r.result).toBe('OK');
    expect(trades(r).map((t) => [t.seller, t.qty, t.price, t.sellOrderId])).toEqual([['C3', 5, 1_005, partner]]);
    // the non-partner's ask rests at 1000 under the bid's remainder at 1010
    expect(h.engine.getBook(ASSET)).toMatchObject({ bids: [{ price: 1_010, qty: 3 }], asks: [{ price: 1_000, qty: 5 }] });
    expect(h.engine.getOrder(other)?.offeredQty).toBe(5);
    expectConsistent(h);
  });

  it('IOC and FOK count the partners only', () => {
    const h = harness({ asset: { bilateral: true } });
    h.ok(relate(h, 'C1', 'C3'));
    h.place('ask', 1_000, 5, 'C2');
    h.place('ask', 1_000, 2, 'C3');
    expect(h.add({ assetId: ASSET, clientCode: 'C4', way: 'bid', price: 1_000, qty: 1, executionType: 'IOC' }).result).toBe('ORDER_IOC_NOT_FILLED');
    expect(h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 3, executionType: 'FOK' }).result).toBe('ORDER_FOK_NOT_FILLED');
    const r = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 2, executionType: 'FOK' });
    expect(trades(r).map((t) => [t.seller, t.qty])).toEqual([['C3', 2]]);
    expectConsistent(h);
  });

  it('tradeableLevels: per level, what the given clients may trade with', () => {
    const h = harness({ asset: { bilateral: true } });
    h.ok(relate(h, 'C1', 'C3'));
    h.place('ask', 1_000, 5, 'C2');
    h.place('ask', 1_000, 2, 'C3');
    h.place('ask', 1_010, 4, 'C3');
    h.place('bid', 900, 1, 'C4');
    expect(h.engine.tradeableLevels(ASSET, ['C1'])).toEqual({
      bids: [{ price: 900, qty: 0, orders: 0 }],
      asks: [
        { price: 1_000, qty: 2, orders: 1 },
        { price: 1_010, qty: 4, orders: 1 },
      ],
    });
    expect(h.engine.tradeableLevels('NOPE', ['C1'])).toBeUndefined();
    expect(h.engine.isBilateral(ASSET)).toBe(true);
  });

  it('delta T on a bilateral asset ends in an uncross between partners only', () => {
    const h = harness({ asset: { bilateral: true, deltaT: { durationMs: 1_000, priceStep: 5 } } });
    h.ok(relate(h, 'C1', 'C3'));
    h.place('ask', 1_000, 5, 'C2');
    h.place('ask', 1_000, 5, 'C3');
    h.place('bid', 1_000, 7, 'C1');
    expect(h.engine.getDeltaT(ASSET)).not.toBeNull();
    const r = h.tick(h.now + 2_000);
    expect(trades(r).map((t) => [t.buyer, t.seller, t.qty])).toEqual([['C1', 'C3', 5]]);
    expectConsistent(h);
  });
});

describe('bilateral uncross: price and volume from the orders that can match each other', () => {
  it('opening auction: non-partners crossed above the partners do not move the price away from them', () => {
    const h = harness({ asset: { bilateral: true }, phase: 'opening' });
    h.ok(relate(h, 'C1', 'C3'));
    // C2 and C4 are nobody's partners: their crossing orders cannot trade with anyone
    h.place('bid', 1_500, 50, 'C2');
    h.place('ask', 1_400, 50, 'C4');
    h.place('bid', 1_100, 5, 'C1');
    h.place('ask', 1_000, 5, 'C3');
    // the indicative uncross counts what partners can execute: 5 between 10.00 and 11.00
    expect(h.engine.indicativeUncross(ASSET)).toEqual({ volume: 5, bidPrice: 1_100, askPrice: 1_000 });
    const r = h.phase('trading');
    // no reference price: the middle of the partners' range on the price step
    expect(trades(r).map((t) => [t.buyer, t.seller, t.qty, t.price])).toEqual([['C1', 'C3', 5, 1_050]]);
    expect(h.engine.getStats(ASSET)).toMatchObject({ tradeableQty: 5 });
    expectConsistent(h);
  });

  it('opening auction: the reference price is clamped into the partners’ range', () => {
    const h = harness({ asset: { bilateral: true, settlementPrice: 1_300 }, phase: 'opening' });
    h.ok(relate(h, 'C1', 'C3'));
    h.place('bid', 1_200, 5, 'C2');
    h.place('bid', 1_100, 5, 'C1');
    h.place('ask', 1_000, 5, 'C3');
    const r = h.phase('trading');
    expect(trades(r).map((t) => [t.buyer, t.seller, t.qty, t.price])).toEqual([['C1', 'C3', 5, 1_100]]);
    expectConsistent(h);
  });

  it('opening auction: of two groups of partners crossing at different prices, the price executes the larger', () => {
    const h = harness({ asset: { bilateral: true }, phase: 'opening' });
    h.ok(relate(h, 'C1', 'C3'));
    h.ok(relate(h, 'C2', 'C4'));
    h.place('bid', 1_100, 5, 'C1');
    h.place('ask', 1_000, 5, 'C3');
    h.place('bid', 1_300, 10, 'C2');
    h.place('ask', 1_200, 10, 'C4');
    expect(h.engine.indicativeUncross(ASSET)).toEqual({ volume: 10, bidPrice: 1_300, askPrice: 1_200 });
    const r = h.phase('trading');
    expect(trades(r).map((t) => [t.buyer, t.seller, t.qty, t.price])).toEqual([['C2', 'C4', 10, 1_250]]);
    expectConsistent(h);
  });

  it('end of delta T: the competing side’s marginal price among the partners, not a non-partner’s better bid', () => {
    const h = harness({ asset: { bilateral: true, deltaT: { durationMs: 1_000, priceStep: 5 } } });
    h.ok(relate(h, 'C1', 'C3'));
    h.place('ask', 1_000, 5, 'C3');
    // C2 has no partner: its bid rests crossed and starts nothing
    h.place('bid', 1_030, 5, 'C2');
    expect(h.engine.getDeltaT(ASSET)).toBeNull();
    h.place('bid', 1_020, 5, 'C1');
    expect(h.engine.getDeltaT(ASSET)).not.toBeNull();
    const r = h.tick(h.now + 2_000);
    expect(trades(r).map((t) => [t.buyer, t.seller, t.qty, t.price])).toEqual([['C1', 'C3', 5, 1_020]]);
    expect(eventsOf(r, 'deltaT')).toEqual([expect.objectContaining({ kind: 'end', price: 1_020 })]);
    expectConsistent(h);
  });

  it('a book crossed only between non-partners has nothing to uncross', () => {
    const h = harness({ asset: { bilateral: true }, phase: 'opening' });
    h.place('bid', 1_100, 5, 'C1');
    h.place('ask', 1_000, 5, 'C3');
    expect(h.engine.indicativeUncross(ASSET)).toEqual({ volume: 0, bidPrice: 0, askPrice: 0 });
    expect(trades(h.phase('trading'))).toEqual([]);
    expect(h.engine.getStats(ASSET)).toMatchObject({ tradeableQty: 0 });
    expectConsistent(h);
  });
});

describe('bilateral uncross against a brute force over every price (fast-check)', () => {
  const clients = ['C1', 'C2', 'C3', 'C4'];
  const order = fc.record({ client: fc.integer({ min: 0, max: 3 }), bid: fc.boolean(), price: fc.integer({ min: 20, max: 40 }), qty: fc.integer({ min: 1, max: 9 }) });
  const relation = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }));

  it('executes, at a price on the step, as much as pairing partners in price-time priority gives at the best single price', () => {
    fc.assert(
      fc.property(fc.array(order, { minLength: 1, maxLength: 30 }), fc.array(relation, { maxLength: 4 }), fc.boolean(), (orders, relations, reference) => {
        const h = harness({ asset: { bilateral: true, ...(reference ? { settlementPrice: 150 } : {}) }, phase: 'opening' });
        const partners = new Set<string>();
        for (const [x, y] of relations) {
          if (x === y) continue;
          h.ok(relate(h, clients[x]!, clients[y]!));
          partners.add(`${clients[x]}|${clients[y]}`).add(`${clients[y]}|${clients[x]}`);
        }
        for (const o of orders) h.add({ assetId: ASSET, clientCode: clients[o.client]!, way: o.bid ? 'bid' : 'ask', price: o.price * 5, qty: o.qty });
        const live = h.engine.listOrders({ assetId: ASSET });
        // price-time priority: best price first, then the order of entry (ids)
        const bids = live.filter((o) => o.way === 'bid').sort((x, y) => y.price! - x.price! || x.orderId - y.orderId);
        const asks = live.filter((o) => o.way === 'ask').sort((x, y) => x.price! - y.price! || x.orderId - y.orderId);
        const at = (p: number): number => {
          const left = new Map(asks.map((o) => [o.orderId, o.offeredQty]));
          let v = 0;
          for (const b of bids.filter((o) => o.price! >= p)) {
            let r = b.offeredQty;
            for (const s of asks.filter((o) => o.price! <= p)) {
              if (!partners.has(`${b.clientCode}|${s.clientCode}`)) continue;
              const q = Math.min(r, left.get(s.orderId)!);
              r -= q;
              left.set(s.orderId, left.get(s.orderId)! - q);
              v += q;
            }
          }
          return v;
        };
        let best = 0;
        for (let p = 100; p <= 200; p += 5) best = Math.max(best, at(p));
        const indicative = h.engine.indicativeUncross(ASSET)!;
        expect(indicative.volume).toBe(best);
        const r = h.phase('trading');
        const done = trades(r);
        expect(done.reduce((sum, t) => sum + t.qty, 0)).toBe(best);
        if (best > 0) {
          const p = done[0]!.price;
          expect(p % 5).toBe(0);
          expect(at(p)).toBe(best);
          expect(p).toBeGreaterThanOrEqual(indicative.askPrice);
          expect(p).toBeLessThanOrEqual(indicative.bidPrice);
          // with a reference inside the span of the best prices, the price is the reference
          if (reference && at(150) === best) expect(p).toBe(150);
        }
        for (const t of done) expect(partners.has(`${t.buyer}|${t.seller}`)).toBe(true);
        expectConsistent(h);
      }),
      { numRuns: 150, seed: 2027 },
    );
  });
});

describe('bilateral uncross when everyone is everyone’s partner (fast-check)', () => {
  const clients = ['C1', 'C2', 'C3', 'C4'];
  const order = fc.record({ client: fc.integer({ min: 0, max: 3 }), bid: fc.boolean(), price: fc.integer({ min: 20, max: 40 }), qty: fc.integer({ min: 1, max: 9 }) });

  it('trades exactly what the same book trades on a normal asset', () => {
    fc.assert(
      fc.property(fc.array(order, { minLength: 1, maxLength: 30 }), fc.option(fc.integer({ min: 20, max: 40 })), (orders, reference) => {
        const uncrossed = (bilateral: boolean): unknown[] => {
          const h = harness({ asset: { bilateral, settlementPrice: reference === null ? null : reference * 5 }, phase: 'opening' });
          if (bilateral) for (const x of clients) for (const y of clients) if (x < y) h.ok(relate(h, x, y));
          for (const o of orders) h.add({ assetId: ASSET, clientCode: clients[o.client]!, way: o.bid ? 'bid' : 'ask', price: o.price * 5, qty: o.qty });
          const indicative = h.engine.indicativeUncross(ASSET);
          const r = h.phase('trading');
          return [indicative, trades(r).map((t) => [t.buyOrderId, t.sellOrderId, t.qty, t.price, t.aggressor]), h.engine.getStats(ASSET)!.tradeableQty];
        };
        expect(uncrossed(true)).toEqual(uncrossed(false));
      }),
      { numRuns: 150, seed: 31 },
    );
  });
});
