/**
 * Property test: random command sequences (add limit / IOC / FOK / market, modify, cancel, suspend,
 * activate, tick with expiries) run through the engine and through a deliberately simple reference
 * matcher written here (sorted arrays, no cleverness). After every step: same result code, same
 * trades, same books level by level and order by order (so FIFO holds), same live orders with the
 * same traded and offered quantities (quantities conserved), the book never crossed in trading,
 * and validateInternalState() finds nothing. At the end a replay gives the same state hash.
 *
 * The same runs on a bilateral (whitelist-restricted) asset with random relations (setWhitelistRelation
 * steps): the reference skips non-partners' resting orders, so the engine must never trade between
 * non-partners; the book may then cross between non-partners. A second property runs the opening
 * uncross of a bilateral asset on random books and relations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../server/engine/engine.ts';
import type { EngineCommand, EngineResult } from '../../../server/engine/types.ts';
import { trades } from './helpers.ts';

const T0 = Date.UTC(2026, 10, 23, 8, 0, 0);
const MARKET = 'M';
const ASSET = 'A';
const CLIENTS = ['A1', 'A2', 'A3'] as const;

// ------------------------------------------------------------------------------------------------
// Reference matcher
// ------------------------------------------------------------------------------------------------

interface RefOrder {
  id: number;
  client: string;
  bid: boolean;
  price: number;
  remaining: number;
  traded: number;
  priority: number;
  suspended: boolean;
  expiresAt: number | null;
}

type RefTrade = [buyId: number, sellId: number, price: number, qty: number];

class Reference {
  orders = new Map<number, RefOrder>();
  nextId = 1;
  nextPriority = 1;
  /** Set on a bilateral asset: the active relations as 'X|Y' both ways. */
  relations: Set<string> | null = null;

  constructor(bilateral = false) {
    if (bilateral) this.relations = new Set();
  }

  /** Whether two clients may trade together (always off a bilateral asset). */
  partners(x: string, y: string): boolean {
    return this.relations === null || this.relations.has(`${x}|${y}`);
  }

  relate(x: string, y: string, active: boolean): string {
    if (x === y) return 'TRANSACTION_SAME_PARTY';
    for (const key of [`${x}|${y}`, `${y}|${x}`]) {
      if (active) this.relations!.add(key);
      else this.relations!.delete(key);
    }
    return 'OK';
  }

  private resting(bid: boolean): RefOrder[] {
    return [...this.orders.values()]
      .filter((o) => o.bid === bid && !o.suspended)
      .sort((x, y) => (x.price !== y.price ? (bid ? y.price - x.price : x.price - y.price) : x.priority - y.priority));
  }

  book(bid: boolean): Array<[number, number[]]> {
    const out: Array<[number, number[]]> = [];
    for (const o of this.resting(bid)) {
      const last = out.at(-1);
      if (last && last[0] === o.price) last[1].push(o.id);
      else out.push([o.price, [o.id]]);
    }
    return out;
  }

  private meets(bid: boolean, limit: number, other: number): boolean {
    return bid ? other <= limit : other >= limit;
  }

  private crosses(client: string, bid: boolean, limit: number): boolean {
    return this.resting(!bid).some((o) => o.client === client && this.meets(bid, limit, o.price));
  }

  private match(o: RefOrder): RefTrade[] {
    const out: RefTrade[] = [];
    for (const maker of this.resting(!o.bid)) {
      if (o.remaining === 0 || !this.meets(o.bid, o.price, maker.price)) break;
      if (!this.partners(o.client, maker.client)) continue;
      const q = Math.min(o.remaining, maker.remaining);
      o.remaining -= q;
      o.traded += q;
      maker.remaining -= q;
      maker.traded += q;
      out.push(o.bid ? [o.id, maker.id, maker.price, q] : [maker.id, o.id, maker.price, q]);
      if (maker.remaining === 0) this.orders.delete(maker.id);
    }
    return out;
  }

  add(client: string, bid: boolean, price: number | null, qty: number, exec: 'normal' | 'IOC' | 'FOK', expiresAt: number | null): [string, RefTrade[]] {
    const limit = price ?? (bid ? Infinity : -Infinity);
    if (this.crosses(client, bid, limit)) return ['ORDER_CROSS', []];
    const available = this.resting(!bid)
      .filter((o) => this.meets(bid, limit, o.price) && this.partners(client, o.client))
      .reduce((s, o) => s + o.remaining, 0);
    if (exec === 'FOK' && available < qty) return ['ORDER_FOK_NOT_FILLED', []];
    if (exec === 'IOC' && available === 0) return ['ORDER_IOC_NOT_FILLED', []];
    const o: RefOrder = { id: this.nextId++, client, bid, price: limit, remaining: qty, traded: 0, priority: this.nextPriority++, suspended: false, expiresAt };
    this.orders.set(o.id, o);
    const t = this.match(o);
    if (o.remaining === 0 || exec !== 'normal') this.orders.delete(o.id);
    return ['OK', t];
  }

  /** Unknown, finished, or past its expiry but not yet expired by a tick: not found. */
  private live(id: number, at: number): RefOrder | undefined {
    const o = this.orders.get(id);
    return o && (o.expiresAt === null || o.expiresAt > at) ? o : undefined;
  }

  modify(id: number, price: number | undefined, qty: number | undefined, at: number): [string, RefTrade[]] {
    const o = this.live(id, at);
    if (!o) return ['ORDER_NOT_FOUND', []];
    if (o.suspended) return ['ORDER_STATE_INVALID', []];
    const newPrice = price ?? o.price;
    const newQty = qty ?? o.remaining;
    if (newPrice !== o.price && this.crosses(o.client, o.bid, newPrice)) return ['ORDER_CROSS', []];
    const keeps = newPrice === o.price && newQty <= o.remaining;
    o.price = newPrice;
    o.remaining = newQty;
    if (keeps) return ['OK', []];
    o.priority = this.nextPriority++;
    const t = this.match(o);
    if (o.remaining === 0) this.orders.delete(o.id);
    return ['OK', t];
  }

  cancel(id: number, at: number): string {
    if (!this.live(id, at)) return 'ORDER_NOT_FOUND';
    this.orders.delete(id);
    return 'OK';
  }

  suspend(id: number, at: number): string {
    const o = this.live(id, at);
    if (!o) return 'ORDER_NOT_FOUND';
    if (o.suspended) return 'ORDER_STATE_INVALID';
    o.suspended = true;
    return 'OK';
  }

  activate(id: number, at: number): [string, RefTrade[]] {
    const o = this.live(id, at);
    if (!o) return ['ORDER_NOT_FOUND', []];
    if (!o.suspended) return ['ORDER_STATE_INVALID', []];
    if (this.crosses(o.client, o.bid, o.price)) return ['ORDER_CROSS', []];
    o.suspended = false;
    o.priority = this.nextPriority++;
    const t = this.match(o);
    if (o.remaining === 0) this.orders.delete(o.id);
    return ['OK', t];
  }

  tick(at: number): void {
    for (const o of [...this.orders.values()]) if (o.expiresAt !== null && o.expiresAt <= at) this.orders.delete(o.id);
  }
}

// ------------------------------------------------------------------------------------------------
// Random commands
// ------------------------------------------------------------------------------------------------

type Step =
  | { k: 'add'; client: number; bid: boolean; price: number; qty: number; exec: 'normal' | 'IOC' | 'FOK'; market: boolean; ttl: number | null }
  | { k: 'modify'; ref: number; price: number | null; qty: number | null }
  | { k: 'cancel' | 'suspend' | 'activate'; ref: number }
  | { k: 'tick'; advance: number }
  | { k: 'relation'; a: number; b: number; active: boolean };

const price = fc.integer({ min: 95, max: 105 });
const qty = fc.integer({ min: 1, max: 10 });
const ref = fc.nat({ max: 60 });

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      k: fc.constant('add' as const),
      client: fc.nat({ max: CLIENTS.length - 1 }),
      bid: fc.boolean(),
      price,
      qty,
      exec: fc.constantFrom('normal' as const, 'normal' as const, 'normal' as const, 'IOC' as const, 'FOK' as const),
      market: fc.boolean(),
      ttl: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('modify' as const), ref, price: fc.option(price, { nil: null }), qty: fc.option(qty, { nil: null }) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('cancel' as const), ref }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('suspend' as const), ref }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('activate' as const), ref }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('tick' as const), advance: fc.integer({ min: 1, max: 20 }) }) },
);

const client = fc.nat({ max: CLIENTS.length - 1 });
/** Steps on a bilateral asset: the same, and whitelist relations made and ended. */
const bilateralStep: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: step },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('relation' as const), a: client, b: client, active: fc.boolean() }) },
);

function setup(bilateral = false): EngineCommand[] {
  const out: EngineCommand[] = [
    { type: 'upsertMarket', at: T0, market: { marketId: MARKET, currency: 'RON' } },
    { type: 'upsertAsset', at: T0, asset: { assetId: ASSET, marketId: MARKET, priceDecimals: 0, quantityDecimals: 0, priceStep: 1, quantityStep: 1, minQuantity: 1, maxQuantity: 100, minPrice: 1, maxPrice: 1_000, marginBps: 100, bilateral } },
  ];
  for (const c of CLIENTS) out.push({ type: 'upsertClient', at: T0, client: { clientCode: c, rights: { '*': { bid: true, ask: true } }, clearing: { funds: 10 ** 9, tradingLimit: 10 ** 12, maxContracts: 10 ** 6 } } });
  // a bilateral asset starts with one relation (A1-A2), so trades come early; the steps change it
  if (bilateral) out.push({ type: 'setWhitelistRelation', at: T0, clientCode: 'A1', partnerCode: 'A2', active: true });
  out.push({ type: 'setPhase', at: T0, marketId: MARKET, phase: 'trading', sessionDate: '2026-11-23' });
  return out;
}

function check(engine: Engine, model: Reference): void {
  expect(engine.getQueue(ASSET, 'bid').map((l) => [l.price, l.orderIds])).toEqual(model.book(true));
  expect(engine.getQueue(ASSET, 'ask').map((l) => [l.price, l.orderIds])).toEqual(model.book(false));
  const book = engine.getBook(ASSET)!;
  // a bilateral book may cross between non-partners
  if (model.relations === null && book.bids.length > 0 && book.asks.length > 0) expect(book.bids[0]!.price).toBeLessThan(book.asks[0]!.price);
  const live = engine.listOrders({ assetId: ASSET });
  expect(live.map((o) => o.orderId)).toEqual([...model.orders.keys()].sort((x, y) => x - y));
  for (const o of live) {
    const r = model.orders.get(o.orderId)!;
    expect([o.offeredQty, o.tradedQty, o.suspended]).toEqual([r.remaining, r.traded, r.suspended]);
    expect(o.qty).toBe(o.offeredQty + o.tradedQty);
  }
  expect(engine.validateInternalState()).toEqual([]);
}

function run(steps: Step[], bilateral = false): void {
  const engine = new Engine();
  const model = new Reference(bilateral);
  if (bilateral) model.relate('A1', 'A2', true);
  const log: EngineCommand[] = setup(bilateral);
  for (const c of log) expect(engine.execute(c).result).toBe('OK');
  let at = T0 + 1;
  let volume = 0;
  for (const s of steps) {
    at += 1;
    const resolve = (n: number): number => 1 + (n % Math.max(1, model.nextId));
    let command: EngineCommand;
    let expected: [string, RefTrade[]];
    switch (s.k) {
      case 'add': {
        const client = CLIENTS[s.client]!;
        const isMarket = s.market && s.exec !== 'normal';
        const expiresAt = s.ttl === null ? null : at + s.ttl;
        command = {
          type: 'addOrder',
          at,
          assetId: ASSET,
          clientCode: client,
          way: s.bid ? 'bid' : 'ask',
          qty: s.qty,
          executionType: s.exec,
          validityType: s.ttl === null ? 'GTC' : 'GTSV',
          validity: expiresAt,
          ...(isMarket ? {} : { price: s.price }),
        };
        expected = model.add(client, s.bid, isMarket ? null : s.price, s.qty, s.exec, expiresAt);
        break;
      }
      case 'modify': {
        const id = resolve(s.ref);
        command = { type: 'modifyOrder', at, orderId: id, ...(s.price !== null ? { price: s.price } : {}), ...(s.qty !== null ? { qty: s.qty } : {}) };
        expected = model.modify(id, s.price ?? undefined, s.qty ?? undefined, at);
        break;
      }
      case 'cancel': {
        const id = resolve(s.ref);
        command = { type: 'cancelOrder', at, orderId: id };
        expected = [model.cancel(id, at), []];
        break;
      }
      case 'suspend': {
        const id = resolve(s.ref);
        command = { type: 'suspendOrder', at, orderId: id };
        expected = [model.suspend(id, at), []];
        break;
      }
      case 'activate': {
        const id = resolve(s.ref);
        command = { type: 'activateOrder', at, orderId: id };
        expected = model.activate(id, at);
        break;
      }
      case 'tick': {
        at += s.advance;
        command = { type: 'tick', at };
        model.tick(at);
        expected = ['OK', []];
        break;
      }
      case 'relation': {
        const [x, y] = [CLIENTS[s.a]!, CLIENTS[s.b]!];
        command = { type: 'setWhitelistRelation', at, clientCode: x, partnerCode: y, active: s.active };
        expected = [model.relate(x, y, s.active), []];
        break;
      }
    }
    log.push(command);
    const r: EngineResult = engine.execute(command);
    expect(r.result, JSON.stringify(command)).toBe(expected[0]);
    const got = trades(r).map((t): RefTrade => [t.buyOrderId ?? 0, t.sellOrderId ?? 0, t.price, t.qty]);
    expect(got, JSON.stringify(command)).toEqual(expected[1]);
    volume += got.reduce((sum, t) => sum + t[3], 0);
    // never a trade between non-partners
    for (const t of trades(r)) expect(model.partners(t.buyer, t.seller), JSON.stringify(t)).toBe(true);
    check(engine, model);
  }
  expect(engine.getStats(ASSET)!.volume).toBe(volume);
  // replaying the command log gives the same state
  const replay = new Engine();
  for (const c of log) replay.execute(c);
  expect(replay.stateHash()).toBe(engine.stateHash());
}

describe('engine against a reference matcher (fast-check)', () => {
  it('agrees with the reference after every step of random command sequences', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 120 }), (steps) => {
        run(steps);
      }),
      { numRuns: 200, seed: 4242 },
    );
  });

  it('also holds with fresh seeds', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 80 }), (steps) => {
        run(steps);
      }),
      { numRuns: 60 },
    );
  });

  it('on a bilateral asset with random relations, matches only partners and keeps every invariant', () => {
    fc.assert(
      fc.property(fc.array(bilateralStep, { minLength: 40, maxLength: 120 }), (steps) => {
        run(steps, true);
      }),
      { numRuns: 150, seed: 1515 },
    );
  });
});

describe('bilateral opening uncross (fast-check)', () => {
  const order = fc.record({ client, bid: fc.boolean(), price, qty });
  const relation = fc.record({ a: client, b: client });

  it('trades only between partners, at one price, conserving quantities, and leaves a consistent book', () => {
    fc.assert(
      fc.property(fc.array(order, { minLength: 1, maxLength: 40 }), fc.array(relation, { maxLength: 4 }), (orders, relations) => {
        const engine = new Engine();
        const log = setup(true).filter((c) => c.type !== 'setWhitelistRelation');
        log[log.length - 1] = { type: 'setPhase', at: T0, marketId: MARKET, phase: 'opening', sessionDate: '2026-11-23' };
        for (const c of log) expect(engine.execute(c).result).toBe('OK');
        const partners = new Set<string>();
        let at = T0 + 1;
        for (const { a, b } of relations) {
          if (a === b) continue;
          const [x, y] = [CLIENTS[a]!, CLIENTS[b]!];
          expect(engine.execute({ type: 'setWhitelistRelation', at: at++, clientCode: x, partnerCode: y, active: true }).result).toBe('OK');
          partners.add(`${x}|${y}`).add(`${y}|${x}`);
        }
        for (const o of orders) {
          engine.execute({ type: 'addOrder', at: at++, assetId: ASSET, clientCode: CLIENTS[o.client]!, way: o.bid ? 'bid' : 'ask', price: o.price, qty: o.qty, validityType: 'GTC' });
        }
        expect(engine.validateInternalState()).toEqual([]);
        const before = engine.listOrders({ assetId: ASSET });
        const openBefore = before.reduce((sum, o) => sum + o.offeredQty, 0);
        const r = engine.execute({ type: 'setPhase', at, marketId: MARKET, phase: 'trading' });
        expect(r.result).toBe('OK');
        const done = trades(r);
        for (const t of done) expect(partners.has(`${t.buyer}|${t.seller}`), JSON.stringify(t)).toBe(true);
        expect(new Set(done.map((t) => t.price)).size).toBeLessThanOrEqual(1);
        const openAfter = engine.listOrders({ assetId: ASSET }).reduce((sum, o) => sum + o.offeredQty, 0);
        expect(openBefore - openAfter).toBe(2 * done.reduce((sum, t) => sum + t.qty, 0));
        expect(engine.validateInternalState()).toEqual([]);
        // no pair of partners is left crossed at the uncross price: their orders would have traded
        if (done.length > 0) {
          const p = done[0]!.price;
          const live = engine.listOrders({ assetId: ASSET });
          const bids = live.filter((o) => o.way === 'bid' && o.price! >= p);
          const asks = live.filter((o) => o.way === 'ask' && o.price! <= p);
          for (const b of bids) for (const a of asks) expect(partners.has(`${b.clientCode}|${a.clientCode}`)).toBe(false);
        }
      }),
      { numRuns: 150, seed: 77 },
    );
  });
});
