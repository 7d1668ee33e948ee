import { describe, expect, it } from 'vitest';
import { Engine } from '../../../server/engine/engine.ts';
import { orderViewOf } from '../../../server/engine/events.ts';
import type { EngineCommand } from '../../../server/engine/types.ts';
import { ASSET, MARKET, T0, eventsOf, expectConsistent, harness, orderEvents, queue, trades } from './helpers.ts';

describe('orders: fields, modify, suspend, activate', () => {
  it('carries the SPEC order fields', () => {
    const h = harness({ asset: { deliveryDays: 30, settlementIntervalsPerDay: 24 } });
    const id = h.place('bid', 1_000, 48, 'C1', { validityType: 'GTSV', validity: T0 + 3_600_000 });
    expect(h.engine.getOrder(id)).toEqual({
      orderId: id,
      assetId: ASSET,
      marketId: MARKET,
      status: 'created',
      suspended: false,
      clientCode: 'C1',
      brokerId: 'BR1',
      way: 'bid',
      qty: 48,
      noCnt: 48,
      price: 1_000,
      sessionDate: '2026-11-23',
      tradedQty: 0,
      tradedPrice: null,
      offeredQty: 48,
      offeredPrice: 1_000,
      executionType: 'normal',
      validityType: 'GTSV',
      validity: T0 + 3_600_000,
      expiresAt: T0 + 3_600_000,
      createdAt: expect.any(Number),
      lastModifiedAt: expect.any(Number),
      priority: expect.any(Number),
      position: 1,
      powerPerInterval: 2,
      totalQty: 48 * 30,
      balancingGroupId: null,
      initiator: false,
    });
  });

  it('keeps time priority only for a quantity decrease at the same price', () => {
    const h = harness();
    const o1 = h.place('bid', 1_000, 10, 'C1');
    const o2 = h.place('bid', 1_000, 10, 'C3');
    h.ok({ type: 'modifyOrder', at: h.now, orderId: o1, qty: 5 });
    expect(queue(h, 'bid')).toEqual([[1_000, [o1, o2]]]);
    h.ok({ type: 'modifyOrder', at: h.now, orderId: o1, qty: 8 });
    expect(queue(h, 'bid')).toEqual([[1_000, [o2, o1]]]);
    h.ok({ type: 'modifyOrder', at: h.now, orderId: o2, price: 995 });
    h.ok({ type: 'modifyOrder', at: h.now, orderId: o2, price: 1_000 });
    expect(queue(h, 'bid')).toEqual([[1_000, [o1, o2]]]);
    expect(h.engine.getOrder(o1)).toMatchObject({ status: 'modified', offeredQty: 8 });
    expectConsistent(h);
  });

  it('a modify that crosses trades as the aggressor', () => {
    const h = harness();
    const askId = h.place('ask', 1_100, 10, 'C2');
    const bidId = h.place('bid', 1_000, 10, 'C1');
    const r = h.modify(bidId, { price: 1_100 });
    expect(r.result).toBe('OK');
    expect(trades(r).map((t) => [t.buyOrderId, t.sellOrderId, t.price, t.aggressor])).toEqual([[bidId, askId, 1_100, 'bid']]);
    expect(h.engine.getBook(ASSET)).toEqual({ assetId: ASSET, bids: [], asks: [] });
  });

  it('suspended orders leave the book, keep their data and come back with new priority', () => {
    const h = harness();
    const o1 = h.place('bid', 1_000, 10, 'C1');
    const o2 = h.place('bid', 1_000, 7, 'C3');
    expect(h.suspend(o1).result).toBe('OK');
    expect(queue(h, 'bid')).toEqual([[1_000, [o2]]]);
    expect(h.engine.getOrder(o1)).toMatchObject({ suspended: true, offeredQty: 10, price: 1_000, position: null });
    expect(h.suspend(o1).result).toBe('ORDER_STATE_INVALID');
    expect(h.activate(o1).result).toBe('OK');
    expect(queue(h, 'bid')).toEqual([[1_000, [o2, o1]]]);
    expect(h.engine.getOrder(o1)).toMatchObject({ suspended: false, position: 2 });
    expectConsistent(h);
  });

  it('an activated order that crosses trades', () => {
    const h = harness();
    const bidId = h.place('bid', 1_000, 10, 'C1');
    h.suspend(bidId);
    h.place('ask', 1_000, 4, 'C2');
    const r = h.activate(bidId);
    expect(trades(r).map((t) => t.qty)).toEqual([4]);
    expect(h.engine.getOrder(bidId)).toMatchObject({ offeredQty: 6, status: 'tradedPartially' });
  });
});

describe('execution types', () => {
  it('IOC trades what it can at once and cancels the rest', () => {
    const h = harness();
    h.place('ask', 1_000, 4, 'C2');
    const r = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 10, executionType: 'IOC' });
    expect(trades(r).map((t) => t.qty)).toEqual([4]);
    const last = orderEvents(r).at(-1)!;
    expect([last.kind, last.reason, last.status, orderViewOf(last).offeredQty]).toEqual(['cancelled', 'ioc', 'cancelled', 6]);
    expect(h.engine.getBook(ASSET)!.bids).toEqual([]);
  });

  it('FOK fills completely across levels', () => {
    const h = harness();
    h.place('ask', 1_000, 4, 'C2');
    h.place('ask', 1_005, 6, 'C3');
    const r = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_005, qty: 10, executionType: 'FOK' });
    expect(trades(r).map((t) => [t.qty, t.price])).toEqual([
      [4, 1_000],
      [6, 1_005],
    ]);
  });

  it('a market order (IOC without price) takes any price and never rests', () => {
    const h = harness();
    h.place('bid', 900, 3, 'C1');
    h.place('bid', 800, 3, 'C3');
    const r = h.add({ assetId: ASSET, clientCode: 'C2', way: 'ask', qty: 10, executionType: 'IOC' });
    expect(trades(r).map((t) => [t.qty, t.price, t.aggressor])).toEqual([
      [3, 900, 'ask'],
      [3, 800, 'ask'],
    ]);
    expect(orderViewOf(orderEvents(r)[0]!).price).toBeNull();
    expect(h.engine.getBook(ASSET)).toEqual({ assetId: ASSET, bids: [], asks: [] });
    expect(h.add({ assetId: ASSET, clientCode: 'C2', way: 'ask', qty: 10 }).result).toBe('ORDER_PRICE_MISSING');
  });
});

describe('validity and expiry', () => {
  it('GTD and GTSV orders expire on tick with an event, suspended ones too', () => {
    const h = harness();
    const gtd = h.place('bid', 1_000, 1, 'C1', { validityType: 'GTD', validity: T0 + 10_000 });
    const gtsv = h.place('bid', 1_000, 1, 'C3', { validityType: 'GTSV', validity: T0 + 20_000 });
    h.suspend(gtsv);
    const gtc = h.place('bid', 995, 1, 'C4');
    expect(eventsOf(h.tick(T0 + 9_999), 'order')).toEqual([]);
    const r1 = h.tick(T0 + 10_000);
    expect(orderEvents(r1).map((e) => [e.orderId, e.kind, e.reason, e.status])).toEqual([[gtd, 'expired', 'expired', 'cancelled']]);
    const r2 = h.tick(T0 + 60_000);
    expect(orderEvents(r2).map((e) => e.orderId)).toEqual([gtsv]);
    expect(h.engine.listOrders().map((o) => o.orderId)).toEqual([gtc]);
    expectConsistent(h);
  });

  it('a modified expiry replaces the old one', () => {
    const h = harness();
    const id = h.place('bid', 1_000, 1, 'C1', { validityType: 'GTD', validity: T0 + 10_000 });
    h.ok({ type: 'modifyOrder', at: h.now, orderId: id, validity: T0 + 50_000 });
    expect(orderEvents(h.tick(T0 + 20_000))).toEqual([]);
    expect(orderEvents(h.tick(T0 + 50_000)).map((e) => e.orderId)).toEqual([id]);
  });

  it('day orders expire when the session closes; GTC orders stay', () => {
    const h = harness();
    const day = h.place('bid', 1_000, 1, 'C1', { validityType: 'day' });
    const gtc = h.place('bid', 995, 1, 'C3');
    h.phase('closing');
    const r = h.phase('closed');
    expect(orderEvents(r).map((e) => [e.orderId, e.kind])).toEqual([[day, 'expired']]);
    expect(h.engine.listOrders().map((o) => o.orderId)).toEqual([gtc]);
  });
});

describe('more edge cases', () => {
  it('leaving trading with a delta T running executes its match at once', () => {
    const h = harness({ asset: { deltaT: { durationMs: 60_000, priceStep: 10 } } });
    h.place('ask', 1_000, 10, 'C2');
    h.place('bid', 1_020, 4, 'C1');
    const r = h.phase('closing');
    expect(trades(r).map((t) => [t.qty, t.price])).toEqual([[4, 1_020]]);
    expect(eventsOf(r, 'deltaT').map((e) => e.kind)).toEqual(['end']);
    expect(h.engine.getDeltaT(ASSET)).toBeNull();
    expectConsistent(h);
  });

  it('a suspended asset keeps its delta T waiting until trading resumes', () => {
    const h = harness({ asset: { deltaT: { durationMs: 1_000, priceStep: 10 } } });
    h.place('ask', 1_000, 10, 'C2');
    h.place('bid', 1_000, 10, 'C1');
    h.ok({ type: 'operatorSuspend', at: h.now, marketId: MARKET });
    expect(trades(h.tick(T0 + 5_000))).toEqual([]);
    h.ok({ type: 'operatorResume', at: T0 + 6_000, marketId: MARKET });
    expect(trades(h.tick(T0 + 6_001)).map((t) => t.qty)).toEqual([10]);
  });

  it('the opening auction without a reference price takes the midpoint on the price grid', () => {
    const h = harness({ phase: 'opening' });
    h.place('bid', 1_100, 5, 'C1');
    h.place('ask', 1_000, 5, 'C2');
    const r = h.phase('trading');
    expect(trades(r).map((t) => [t.qty, t.price, t.aggressor])).toEqual([[5, 1_050, 'ask']]);
  });

  it('cross orders are checked on modify and activate too', () => {
    const h = harness();
    h.place('ask', 1_100, 5, 'C1');
    const bidId = h.place('bid', 1_000, 5, 'C1');
    expect(h.modify(bidId, { price: 1_100 })).toMatchObject({ result: 'ORDER_CROSS', params: { orderId: 1 } });
    h.suspend(bidId);
    h.ok({ type: 'modifyOrder', at: h.now, orderId: 1, price: 995 });
    expect(h.activate(bidId)).toMatchObject({ result: 'ORDER_CROSS', params: { orderId: 1 } });
  });

  it('contract assets take noCnt and count contracts', () => {
    const h = harness({ asset: { quantityInput: 'noCnt', contractQty: 24, quantityStep: 24, minQuantity: 24 }, clients: { C3: { clearing: { maxContracts: 3 } } } });
    const r = h.add({ assetId: ASSET, clientCode: 'C3', way: 'bid', price: 1_000, noCnt: 2 });
    expect(h.engine.getOrder(r.orderId!)).toMatchObject({ qty: 48, noCnt: 2 });
    expect(h.engine.getClientFinancials('C3')!.openContracts).toBe(2);
    expect(h.add({ assetId: ASSET, clientCode: 'C3', way: 'bid', price: 1_000, noCnt: 2 })).toMatchObject({ result: 'CLEARING_MAX_CONTRACTS', params: { max: 3 } });
  });

  it('a client restricted by imbalance may still trade within its quantity, and traded quantity counts against the tradeable limit', () => {
    const h = harness({ clients: { C3: { tradeableQuantity: { '*': { bid: 10 } } } } });
    h.place('ask', 1_000, 6, 'C2');
    h.place('bid', 1_000, 6, 'C3');
    expect(h.add({ assetId: ASSET, clientCode: 'C3', way: 'bid', price: 900, qty: 5 })).toMatchObject({ result: 'ORDER_TRADEABLE_QUANTITY_INSUFFICIENT', params: { excess: '1', limit: '10' } });
    expect(h.add({ assetId: ASSET, clientCode: 'C3', way: 'bid', price: 900, qty: 4 }).result).toBe('OK');
  });

  it('the simple competitive initiator sells to the best partner bids', () => {
    const h = harness({ asset: { simpleCompetitive: { initiatorClientCode: 'C1', initiatorWay: 'ask' } } });
    h.place('bid', 1_000, 5, 'C2');
    h.place('bid', 1_050, 5, 'C3');
    const r = h.add({ assetId: ASSET, clientCode: 'C1', way: 'ask', price: 1_000, qty: 8 });
    expect(trades(r).map((t) => [t.buyer, t.qty, t.price])).toEqual([
      ['C3', 5, 1_050],
      ['C2', 3, 1_000],
    ]);
    expect(h.engine.getOrder(r.orderId!)).toBeUndefined();
  });
});

describe('statistics', () => {
  it('keeps min, max, last, volume, transactions, closing and client averages', () => {
    const h = harness({ asset: { settlementPrice: 990 } });
    h.place('ask', 1_000, 4, 'C2');
    h.place('ask', 1_020, 6, 'C2');
    h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_020, qty: 10 });
    h.place('bid', 950, 5, 'C3');
    const r = h.add({ assetId: ASSET, clientCode: 'C4', way: 'ask', price: 950, qty: 5 });
    expect(eventsOf(r, 'stats')).toHaveLength(1);
    expect(h.engine.getStats(ASSET)).toEqual({
      assetId: ASSET,
      sessionDate: '2026-11-23',
      minPrice: 950,
      maxPrice: 1_020,
      lastPrice: 950,
      volume: 15,
      transactions: 3,
      closingPrice: null,
      tradeableQty: 0,
      surplusQty: 0,
      settlementPrice: 990,
    });
    expect(h.engine.getClientStats(ASSET, 'C1')).toEqual({ clientCode: 'C1', tradedQty: 10, averagePrice: 1_012 });
    expect(h.engine.getClientStats(ASSET, 'C2')).toEqual({ clientCode: 'C2', tradedQty: 10, averagePrice: 1_012 });
    expect(h.engine.getClientStats(ASSET, 'C9')).toEqual({ clientCode: 'C9', tradedQty: 0, averagePrice: null });
    h.phase('closing');
    h.phase('closed');
    expect(h.engine.getStats(ASSET)!.closingPrice).toBe(950);
    h.ok({ type: 'setSettlementPrice', at: h.now, assetId: ASSET, price: 1_001 });
    h.phase('opening', undefined, '2026-11-24');
    expect(h.engine.getStats(ASSET)).toMatchObject({ sessionDate: '2026-11-24', volume: 0, lastPrice: null, settlementPrice: 1_001 });
  });
});

describe('determinism', () => {
  function script(): EngineCommand[] {
    const out: EngineCommand[] = [
      { type: 'upsertMarket', at: T0, market: { marketId: MARKET, currency: 'RON' } },
      { type: 'upsertAsset', at: T0, asset: { assetId: ASSET, marketId: MARKET, priceDecimals: 2, quantityDecimals: 0, priceStep: 1, quantityStep: 1, minQuantity: 1, maxQuantity: 1000, minPrice: 1, maxPrice: 10_000, marginBps: 500 } },
      { type: 'upsertClient', at: T0, client: { clientCode: 'A', rights: { '*': { bid: true, ask: true } }, clearing: { funds: 10 ** 12 } } },
      { type: 'upsertClient', at: T0, client: { clientCode: 'B', rights: { '*': { bid: true, ask: true } }, clearing: { funds: 10 ** 12 } } },
      { type: 'setPhase', at: T0, marketId: MARKET, phase: 'trading', sessionDate: '2026-11-23' },
    ];
    let seed = 7;
    const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 2_000; i++) {
      const at = T0 + 1 + i;
      const r = rnd();
      if (r < 0.6) out.push({ type: 'addOrder', at, assetId: ASSET, clientCode: rnd() < 0.5 ? 'A' : 'B', way: rnd() < 0.5 ? 'bid' : 'ask', price: 100 + Math.floor(rnd() * 20), qty: 1 + Math.floor(rnd() * 20), validityType: rnd() < 0.2 ? 'GTSV' : 'GTC', validity: at + 500 });
      else if (r < 0.8) out.push({ type: 'cancelOrder', at, orderId: 1 + Math.floor(rnd() * (i + 1)) });
      else if (r < 0.9) out.push({ type: 'modifyOrder', at, orderId: 1 + Math.floor(rnd() * (i + 1)), price: 100 + Math.floor(rnd() * 20) });
      else out.push({ type: 'tick', at });
    }
    return out;
  }

  it('the same commands give the same state hash; a different command gives another', () => {
    const commands = script();
    const a = new Engine();
    const b = new Engine();
    const outcomesA = commands.map((c) => a.execute(c).result);
    const outcomesB = commands.map((c) => b.execute(c).result);
    expect(outcomesA).toEqual(outcomesB);
    expect(outcomesA.filter((r) => r === 'OK').length).toBeGreaterThan(500);
    expect(a.stateHash()).toBe(b.stateHash());
    expect(a.validateInternalState()).toEqual([]);
    const c = new Engine();
    commands.slice(0, -1).forEach((cmd) => c.execute(cmd));
    c.execute({ type: 'addOrder', at: T0 + 10_000, assetId: ASSET, clientCode: 'A', way: 'bid', price: 1, qty: 1, validityType: 'GTC' });
    expect(c.stateHash()).not.toBe(a.stateHash());
  });

  it('events are plain data that serialise to JSON', () => {
    const h = harness();
    h.place('ask', 1_000, 4, 'C2');
    const r = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 4 });
    const json = JSON.parse(JSON.stringify(r.events)) as Array<{ type: string; orderId?: number; price?: number }>;
    expect(json.filter((e) => e.type === 'order').map((e) => e.orderId)).toEqual([2, 1, 2]);
    expect(json.find((e) => e.type === 'trade')!.price).toBe(1_000);
  });

  it('each result owns its events: later commands neither reuse nor change them', () => {
    const h = harness();
    const first = h.add({ assetId: ASSET, clientCode: 'C2', way: 'ask', price: 1_000, qty: 4 });
    const before = JSON.stringify(first.events);
    expect(first.events.map((e) => e.type)).toEqual(['order', 'level']);
    const second = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 4 });
    expect(second.events).not.toBe(first.events);
    expect(second.events.length).toBeGreaterThan(2);
    expect(h.cancel(first.orderId!).result).toBe('ORDER_NOT_FOUND');
    expect(JSON.stringify(first.events)).toBe(before);
  });

  it('getOrder without the queue position gives the same order with position null', () => {
    const h = harness();
    h.place('bid', 1_000, 10, 'C1');
    const o2 = h.place('bid', 1_000, 7, 'C3');
    expect(h.engine.getOrder(o2)).toMatchObject({ orderId: o2, position: 2 });
    expect(h.engine.getOrder(o2, { position: false })).toEqual({ ...h.engine.getOrder(o2), position: null });
    expect(h.engine.getOrder(999, { position: false })).toBeUndefined();
  });

  it('unknown commands and bad times are refused without a crash', () => {
    const e = new Engine();
    expect(e.execute({ type: 'nope', at: T0 } as never).result).toBe('REQUEST_INVALID');
    expect(e.execute({ type: 'tick', at: Number.NaN }).result).toBe('REQUEST_INVALID');
  });
});
