/**
 * whitelist.ts and the bilateral matching: relations (symmetric, no change is no event), the
 * continuous matching that skips non-partners, IOC / FOK counting partners only, the tradeable levels
 * query, and relations through replay and snapshots.
 */
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
