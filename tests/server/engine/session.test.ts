/**
 * session.ts: phases and the opening auction, operator suspend / resume, the schedule, delta-T
 * periods, and the order in which a tick applies what is due.
 */
import { describe, expect, it } from 'vitest';
import { TickKind } from '../../../server/engine/session.ts';
import { ASSET, MARKET, T0, eventsOf, expectConsistent, harness, trades } from './helpers.ts';

describe('session phases', () => {
  it('opening accepts orders without matching; trading opens with a single-price auction', () => {
    const h = harness({ phase: 'opening', asset: { settlementPrice: 1_010 } });
    h.place('bid', 1_020, 10, 'C1');
    h.place('bid', 1_000, 5, 'C3');
    h.place('ask', 990, 8, 'C2');
    h.place('ask', 1_015, 10, 'C4');
    expect(h.engine.getBook(ASSET)!.bids[0]!.price).toBe(1_020); // crossed, not matched
    expect(h.engine.indicativeUncross(ASSET)).toEqual({ volume: 10, bidPrice: 1_020, askPrice: 1_015 });
    const r = h.phase('trading');
    const t = trades(r);
    expect(t.map((x) => [x.qty, x.price])).toEqual([
      [8, 1_015],
      [2, 1_015],
    ]);
    expect(h.engine.getStats(ASSET)).toMatchObject({ tradeableQty: 10, surplusQty: -8, lastPrice: 1_015, volume: 10, transactions: 2 });
    expect(h.engine.getBook(ASSET)).toEqual({ assetId: ASSET, bids: [{ price: 1_000, qty: 5, orders: 1 }], asks: [{ price: 1_015, qty: 8, orders: 1 }] });
    expectConsistent(h);
  });

  it('immediate orders are refused in opening', () => {
    const h = harness({ phase: 'opening' });
    expect(h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 1, executionType: 'IOC' })).toMatchObject({ result: 'SESSION_PHASE_FORBIDS', params: { phase: 'opening' } });
  });

  it('closing allows cancels and quantity changes, closed refuses everything', () => {
    const h = harness();
    const a = h.place('bid', 1_000, 10, 'C1');
    const b = h.place('bid', 995, 10, 'C3');
    h.phase('closing');
    expect(h.modify(a, { qty: 4 }).result).toBe('OK');
    expect(h.cancel(b).result).toBe('OK');
    expect(h.suspend(a).result).toBe('OK');
    expect(h.activate(a)).toMatchObject({ result: 'SESSION_PHASE_FORBIDS', params: { phase: 'closing' } });
    h.phase('closed');
    expect(h.cancel(a)).toMatchObject({ result: 'SESSION_PHASE_FORBIDS', params: { phase: 'closed' } });
  });

  it('operator suspend and resume restore the previous phase per market and asset', () => {
    const h = harness();
    h.ok({ type: 'upsertAsset', at: h.now, asset: { ...h.engine.internals().assets.get(ASSET)!.config, assetId: 'GAS-WD' } });
    h.ok({ type: 'operatorSuspend', at: h.now, marketId: MARKET, assetId: 'GAS-WD' });
    expect([h.engine.getPhase(ASSET), h.engine.getPhase('GAS-WD')]).toEqual(['trading', 'suspended']);
    const id = h.place('bid', 1_000, 1, 'C1');
    expect(h.cancel(id).result).toBe('OK');
    expect(h.run({ type: 'operatorResume', at: h.now, marketId: MARKET, assetId: ASSET })).toMatchObject({ result: 'SESSION_PHASE_FORBIDS' });
    h.ok({ type: 'operatorResume', at: h.now, marketId: MARKET, assetId: 'GAS-WD' });
    expect(h.engine.getPhase('GAS-WD')).toBe('trading');
    const id2 = h.place('bid', 1_000, 1, 'C1');
    const r = h.ok({ type: 'operatorSuspend', at: h.now, marketId: MARKET });
    expect(eventsOf(r, 'phase').map((e) => [e.assetId, e.phase])).toEqual([
      [null, 'suspended'],
      [ASSET, 'suspended'],
      ['GAS-WD', 'suspended'],
    ]);
    expect(h.cancel(id2).result).toBe('SESSION_SUSPENDED');
    h.ok({ type: 'operatorResume', at: h.now, marketId: MARKET });
    expect(h.engine.getMarketPhase(MARKET)).toEqual({ phase: 'trading', sessionDate: '2026-11-23' });
  });

  it('the market schedule drives phases on tick', () => {
    const h = harness({ phase: 'closed' });
    h.ok({
      type: 'upsertMarket',
      at: h.now,
      market: {
        marketId: MARKET,
        currency: 'RON',
        schedule: [
          { at: T0 + 60_000, phase: 'opening', sessionDate: '2026-11-24' },
          { at: T0 + 120_000, phase: 'trading' },
          { at: T0 + 180_000, phase: 'closing' },
          { at: T0 + 240_000, phase: 'closed' },
        ],
      },
    });
    const r = h.tick(T0 + 130_000);
    expect(eventsOf(r, 'phase').filter((e) => e.assetId === ASSET).map((e) => e.phase)).toEqual(['opening', 'trading']);
    expect(h.engine.getMarketPhase(MARKET)).toEqual({ phase: 'trading', sessionDate: '2026-11-24' });
    h.tick(T0 + 300_000);
    expect(h.engine.getPhase(ASSET)).toBe('closed');
  });
});

describe('delta T', () => {
  const deltaT = { durationMs: 60_000, priceStep: 10 };

  it('a crossing starts delta T; competing orders improve by the step; at its end the match executes', () => {
    const h = harness({ asset: { deltaT } });
    const askId = h.place('ask', 1_000, 10, 'C2');
    const r1 = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 10 });
    expect(trades(r1)).toEqual([]);
    const [start] = eventsOf(r1, 'deltaT');
    expect(start).toMatchObject({ kind: 'start', assetId: ASSET, price: 1_000 });
    const endsAt = start!.endsAt;
    expect(h.modify(askId, { qty: 5 }).result).toBe('ORDER_DELTA_T_LOCKED');
    expect(h.add({ assetId: ASSET, clientCode: 'C3', way: 'bid', price: 1_005, qty: 10 }).result).toBe('ORDER_DELTA_T_PRICE_STEP');
    // a non-competing order rests normally
    expect(h.add({ assetId: ASSET, clientCode: 'C3', way: 'bid', price: 900, qty: 10 }).result).toBe('OK');
    const r2 = h.add({ assetId: ASSET, clientCode: 'C4', way: 'bid', price: 1_010, qty: 10 });
    expect(r2.result).toBe('OK');
    const restarted = eventsOf(r2, 'deltaT')[0]!.endsAt;
    expect(restarted).toBeGreaterThan(endsAt);
    expectConsistent(h);
    expect(trades(h.tick(restarted - 1))).toEqual([]);
    const r3 = h.tick(restarted);
    expect(trades(r3).map((t) => [t.buyer, t.seller, t.qty, t.price])).toEqual([['C4', 'C2', 10, 1_010]]);
    expect(eventsOf(r3, 'deltaT')).toMatchObject([{ kind: 'end', price: 1_010 }]);
    expect(h.engine.getDeltaT(ASSET)).toBeNull();
    expect(h.engine.getBook(ASSET)!.bids.map((l) => l.price)).toEqual([1_000, 900]);
    expectConsistent(h);
  });
});

describe('tick', () => {
  it('names its kinds; on the same instant an expiry goes before the end of delta T and a scheduled phase', () => {
    expect(TickKind).toEqual({ none: 0, expiry: 1, deltaTEnd: 2, schedule: 3 });
    const h = harness({ asset: { deltaT: { durationMs: 60_000, priceStep: 10 } } });
    h.place('ask', 1_000, 5, 'C2');
    h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 5 }); // starts delta T
    const due = h.engine.getDeltaT(ASSET)!.endsAt;
    h.ok({ type: 'upsertMarket', at: h.now, market: { marketId: MARKET, currency: 'RON', schedule: [{ at: due, phase: 'closing' }] } });
    const gtd = h.place('bid', 900, 1, 'C3', { validityType: 'GTD', validity: due });
    const r = h.tick(due);
    const kinds: string[] = [];
    for (const e of r.events) {
      if (e.type === 'order') kinds.push(`order:${e.kind}:${e.orderId}`);
      else if (e.type === 'deltaT') kinds.push(`deltaT:${e.kind}`);
      else if (e.type === 'phase' && e.assetId === null) kinds.push(`phase:${e.phase}`);
    }
    expect(kinds[0]).toBe(`order:expired:${gtd}`);
    expect(kinds.indexOf('deltaT:end')).toBeLessThan(kinds.indexOf('phase:closing'));
    expect(trades(r)).toHaveLength(1);
    expectConsistent(h);
  });
});
