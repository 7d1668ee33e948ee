/**
 * Compact events: an order event carries what changed plus the order's shared header, never a full
 * view; orderViewOf(event) gives back exactly the order the engine's queries show for that moment.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../server/engine/engine.ts';
import { orderViewOf, transactionViewOf } from '../../../server/engine/events.ts';
import type { EngineCommand, EngineResult, OrderEvent, TradeEvent } from '../../../server/engine/types.ts';
import { orderEventFromLegacy } from '../../../server/trading/sequencer.ts';
import { ASSET, MARKET, T0, eventsOf, harness, orderEvents } from './helpers.ts';

const ORDER_EVENT_KEYS = [
  'at',
  'header',
  'kind',
  'orderId',
  'price',
  'priority',
  'reason',
  'remaining',
  'seq',
  'status',
  'suspended',
  'tradedQty',
  'tradedValue',
  'type',
];
const TRADE_EVENT_KEYS = ['aggressor', 'at', 'buyOrderId', 'buyer', 'buyerBrokerId', 'marginsExposureActive', 'price', 'product', 'qty', 'sellOrderId', 'seller', 'sellerBrokerId', 'seq', 'transactionId', 'type'];

/** Each order's last event of a command: its state when the command was done. */
function lastPerOrder(r: EngineResult): OrderEvent[] {
  const last = new Map<number, OrderEvent>();
  for (const event of orderEvents(r)) last.set(event.orderId, event);
  return [...last.values()];
}

/** An asset whose derived fields differ from the plain ones: 5 per contract, 2 delivery days. */
const productAsset = { contractQty: 5, deliveryDays: 2, settlementIntervalsPerDay: 24 };

describe('compact order and trade events', () => {
  it('an order event has no full view: its own keys are the compact set, primitives and the header', () => {
    const h = harness();
    h.place('ask', 1_000, 4, 'C2');
    const r = h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 10, executionType: 'IOC' });
    const events = orderEvents(r);
    expect(events.map((e) => e.kind)).toEqual(['created', 'traded', 'tradedPartially', 'cancelled']);
    for (const event of events) {
      expect(Object.keys(event).sort()).toEqual(ORDER_EVENT_KEYS);
      expect('order' in event).toBe(false);
      for (const key of ORDER_EVENT_KEYS) if (key !== 'header') expect(['string', 'number', 'boolean', 'undefined']).toContain(typeof event[key as keyof OrderEvent]);
    }
    const trade = eventsOf(r, 'trade')[0]!;
    expect(Object.keys(trade).sort()).toEqual(TRADE_EVENT_KEYS);
    expect('transaction' in trade).toBe(false);
  });

  it('the events of one order share its header by reference; a validity change makes a new one', () => {
    const h = harness();
    const created = orderEvents(h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 1_000, qty: 10, validityType: 'GTD', validity: T0 + 60_000 }))[0]!;
    const id = created.orderId;
    const modified = orderEvents(h.modify(id, { qty: 8 }))[0]!;
    expect(modified.header).toBe(created.header);
    const internal = h.engine.internals().orders.get(id)!;
    expect(internal.header).toBe(created.header);

    const revalidated = orderEvents(h.modify(id, { validity: T0 + 90_000 }))[0]!;
    expect(revalidated.header).not.toBe(created.header);
    expect(revalidated.header.clientCode).toBe('C1');
    expect([created.header.validity, created.header.expiresAt]).toEqual([T0 + 60_000, T0 + 60_000]);
    expect([revalidated.header.validity, revalidated.header.expiresAt]).toEqual([T0 + 90_000, T0 + 90_000]);
    // an earlier event still shows the order as it was
    expect(orderViewOf(created).validity).toBe(T0 + 60_000);
    expect(orderViewOf(revalidated).validity).toBe(T0 + 90_000);
  });

  it('orderViewOf(event) is what getOrder gives at that moment, for any command sequence', () => {
    const compared = new Set<string>();
    const op = fc.oneof(
      fc.record({ op: fc.constant('add' as const), way: fc.constantFrom('bid' as const, 'ask' as const), price: fc.integer({ min: 190, max: 210 }), qty: fc.integer({ min: 1, max: 30 }), client: fc.constantFrom('C1', 'C2', 'C3', 'C4'), gtd: fc.boolean(), ioc: fc.boolean() }),
      fc.record({ op: fc.constant('market' as const), way: fc.constantFrom('bid' as const, 'ask' as const), qty: fc.integer({ min: 1, max: 30 }), client: fc.constantFrom('C1', 'C2', 'C3', 'C4') }),
      fc.record({ op: fc.constantFrom('cancel' as const, 'suspend' as const, 'activate' as const), pick: fc.nat() }),
      fc.record({ op: fc.constant('modify' as const), pick: fc.nat(), price: fc.option(fc.integer({ min: 190, max: 210 })), qty: fc.option(fc.integer({ min: 1, max: 30 })), validity: fc.option(fc.integer({ min: 1, max: 5 })) }),
      fc.record({ op: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 40_000 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), (drawn) => {
        // every run starts with each kind a live order can end a command with, then the draw
        const ops: Array<typeof drawn[number]> = [
          { op: 'add', way: 'bid', price: 200, qty: 10, client: 'C1', gtd: false, ioc: false },
          { op: 'suspend', pick: 0 },
          { op: 'activate', pick: 0 },
          { op: 'modify', pick: 0, price: null, qty: 8, validity: 2 },
          { op: 'add', way: 'ask', price: 200, qty: 3, client: 'C3', gtd: false, ioc: false },
          ...drawn,
        ];
        const h = harness({ asset: { ...productAsset, priceStep: 1 } });
        const ids: number[] = [];
        /** seq of the last changing command seen (-1: none yet; the harness set-up counts too). */
        let changed = -1;
        for (const o of ops) {
          let r: EngineResult;
          const id = 'pick' in o ? ids[o.pick % Math.max(1, ids.length)] ?? 1 : 0;
          if (o.op === 'add') r = h.add({ assetId: ASSET, clientCode: o.client, way: o.way, price: o.price * 5, qty: o.qty, executionType: o.ioc ? 'IOC' : 'normal', ...(o.gtd ? { validityType: 'GTD', validity: h.now + 20_000 } : {}) });
          else if (o.op === 'market') r = h.add({ assetId: ASSET, clientCode: o.client, way: o.way, qty: o.qty, executionType: 'IOC' });
          else if (o.op === 'modify') {
            r = h.modify(id, {
              ...(o.price === null ? {} : { price: o.price * 5 }),
              ...(o.qty === null ? {} : { qty: o.qty }),
              ...(o.validity === null ? {} : { validityType: 'GTD' as const, validity: h.now + o.validity * 10_000 }),
            });
          } else if (o.op === 'tick') r = h.tick(h.now + o.ms);
          else if (o.op === 'cancel') r = h.cancel(id);
          else if (o.op === 'suspend') r = h.suspend(id);
          else r = h.activate(id);
          if (r.orderId !== undefined && !ids.includes(r.orderId)) ids.push(r.orderId);

          // one seq per changing command, the same on every event of it
          const seqs = new Set(r.events.flatMap((e) => (e.type === 'order' || e.type === 'trade' ? [e.seq] : [])));
          expect(seqs.size).toBeLessThanOrEqual(1);
          if (seqs.size === 1) {
            const [seq] = seqs;
            if (changed >= 0) expect(seq).toBe(changed + 1);
            changed = seq!;
          } else if (r.events.length > 0 && changed >= 0) changed++;

          for (const event of lastPerOrder(r)) {
            expect(Object.keys(event).sort()).toEqual(ORDER_EVENT_KEYS);
            const live = h.engine.getOrder(event.orderId, { position: false });
            if (live) {
              expect(orderViewOf(event)).toEqual(live);
              compared.add(event.kind);
            } else expect(['traded', 'cancelled']).toContain(event.status);
          }
          for (const event of orderEvents(r)) {
            // what an older snapshot kept (the full view) converts back to the same view
            const legacy = orderEventFromLegacy({ type: 'order', kind: event.kind, order: orderViewOf(event), at: event.at, reason: event.reason }, event.seq);
            expect(orderViewOf(legacy)).toEqual(orderViewOf(event));
          }
          for (const trade of eventsOf(r, 'trade')) {
            const view = transactionViewOf(trade);
            expect([view.assetId, view.noCnt, view.txDate, view.timestamp]).toEqual([ASSET, Math.ceil(trade.qty / 5), '2026-11-23', trade.at]);
          }
        }
        expect(h.engine.validateInternalState()).toEqual([]);
      }),
      { numRuns: 60 },
    );
    // the comparisons covered every kind of event a live order can end a command with
    expect([...compared].sort()).toEqual(['activated', 'created', 'modified', 'suspended', 'tradedPartially']);
  });

  it('a market order event shows no price in its view; the internal limit stays in the event', () => {
    const h = harness({ asset: productAsset });
    h.place('bid', 900, 3, 'C1');
    const created = orderEvents(h.add({ assetId: ASSET, clientCode: 'C2', way: 'ask', qty: 10, executionType: 'IOC' }))[0]!;
    expect(created.header.market).toBe(true);
    expect(orderViewOf(created)).toMatchObject({ price: null, offeredPrice: null, qty: 10, noCnt: 2, totalQty: 20 });
  });
});

describe('event seq', () => {
  function run(engine: Engine, commands: EngineCommand[]): number[] {
    const seqs: number[] = [];
    for (const command of commands) {
      const r = engine.execute(command);
      const seq = r.events.find((e): e is OrderEvent | TradeEvent => e.type === 'order' || e.type === 'trade')?.seq;
      if (seq !== undefined) seqs.push(seq);
    }
    return seqs;
  }

  const setup: EngineCommand[] = [
    { type: 'upsertMarket', at: T0, market: { marketId: MARKET, currency: 'RON' } },
    { type: 'upsertAsset', at: T0, asset: { assetId: ASSET, marketId: MARKET, priceDecimals: 2, quantityDecimals: 0, priceStep: 5, quantityStep: 1, minQuantity: 1, maxQuantity: 100, minPrice: 100, maxPrice: 100_000 } },
    { type: 'upsertClient', at: T0, client: { clientCode: 'C1', rights: { '*': { bid: true, ask: true } } } },
    { type: 'upsertClient', at: T0, client: { clientCode: 'C2', rights: { '*': { bid: true, ask: true } } } },
    { type: 'setPhase', at: T0, marketId: MARKET, phase: 'trading', sessionDate: '2026-11-23' },
  ];
  const add = (at: number, clientCode: string, way: 'bid' | 'ask', price: number, qty: number): EngineCommand => ({ type: 'addOrder', at, assetId: ASSET, clientCode, way, price, qty, validityType: 'GTC' });
  const orders: EngineCommand[] = [add(T0 + 1, 'C1', 'bid', 1_000, 5), add(T0 + 2, 'C2', 'ask', 1_000, 3), { type: 'cancelOrder', at: T0 + 3, orderId: 1 }];
  const refused: EngineCommand[] = [add(T0 + 1, 'C1', 'bid', 1_001, 5), { type: 'tick', at: T0 + 1 }, { type: 'cancelOrder', at: T0 + 2, orderId: 99 }];

  it('counts the commands that changed the engine: refusals and idle ticks do not move it, so a replay gives the same seqs', () => {
    const live = new Engine();
    // the live run sees refusals and idle ticks in between; the journal (and a replay) never does
    const seqsLive = run(live, [...setup, refused[0]!, orders[0]!, refused[1]!, orders[1]!, refused[2]!, orders[2]!]);
    const seqsReplay = run(new Engine(), [...setup, ...orders]);
    expect(seqsLive).toEqual([6, 7, 8]);
    expect(seqsReplay).toEqual(seqsLive);
    expect(live.executedCommands).toBe(setup.length + 6);
  });

  it('goes on from a snapshot; a snapshot written before it existed needs the count to import', () => {
    const engine = new Engine();
    run(engine, [...setup, orders[0]!]);
    const snapshot = engine.exportState();
    expect(snapshot.counters.changedCommands).toBe(6);
    expect(run(Engine.fromSnapshot(snapshot), [orders[1]!])).toEqual([7]);

    const { changedCommands: _dropped, ...olderCounters } = snapshot.counters;
    const older = { ...snapshot, counters: olderCounters } as typeof snapshot;
    expect(() => Engine.fromSnapshot(older)).toThrow(/changedCommands.*journal seq/);
    expect(run(Engine.fromSnapshot(older, { changedCommands: 6 }), [orders[1]!])).toEqual([7]);
  });
});
