/**
 * Engine snapshots: random command streams (orders of every kind, expiries, delta T, phases and
 * sessions, operator suspend/resume, configuration changes, settlement prices) run through one
 * engine; at random points its state is exported, sent through JSON and imported into a fresh
 * engine. The copy must have the same stateHash() and, fed the same remaining commands, give the
 * same results and events and the same hash after every step (and re-exported, the same snapshot).
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../server/engine/engine.ts';
import type { EngineSnapshot } from '../../../server/engine/snapshot.ts';
import type { AssetConfig, ClientConfig, EngineCommand } from '../../../server/engine/types.ts';
import { prng } from '../../helpers/prng.ts';

const T0 = Date.UTC(2026, 10, 23, 8, 0, 0);

const ASSETS: Record<string, AssetConfig> = {
  A1: { assetId: 'A1', marketId: 'M1', priceDecimals: 2, quantityDecimals: 0, priceStep: 1, quantityStep: 1, minQuantity: 1, maxQuantity: 1000, minPrice: 1, maxPrice: 100_000, marginBps: 1000 },
  A2: { assetId: 'A2', marketId: 'M1', priceDecimals: 2, quantityDecimals: 0, priceStep: 1, quantityStep: 1, minQuantity: 1, maxQuantity: 1000, minPrice: 1, maxPrice: 100_000, deltaT: { durationMs: 400, priceStep: 1 } },
  A3: { assetId: 'A3', marketId: 'M2', priceDecimals: 1, quantityDecimals: 0, priceStep: 1, quantityStep: 1, minQuantity: 1, maxQuantity: 1000, minPrice: 1, maxPrice: 100_000, contractQty: 5, balancingGroup: { maxDecreasePercent: 50 } },
};
const CLIENTS = ['C1', 'C2', 'C3', 'C4', 'C5'];

function clientConfig(clientCode: string, random: () => number): ClientConfig {
  const config: ClientConfig = { clientCode, rights: { '*': { bid: true, ask: true } } };
  const roll = random();
  if (roll < 0.2) config.imbalance = { A1: { way: random() < 0.5 ? 'bid' : 'ask', quantity: 20 + Math.floor(random() * 100) } };
  else if (roll < 0.4) config.tradeableQuantity = { '*': { bid: 50 + Math.floor(random() * 200), ask: 50 + Math.floor(random() * 200) } };
  else if (roll < 0.5) config.clearing = { funds: 1_000_000_000 + Math.floor(random() * 1_000_000_000), maxContracts: 300 };
  else if (roll < 0.55) config.active = false;
  return config;
}

/** A deterministic random command stream with times (some equal, so ties happen). */
function workload(seed: number, count: number): EngineCommand[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const out: EngineCommand[] = [];
  let at = T0;
  let issued = 0;
  let day = 23;
  out.push({ type: 'upsertMarket', at, market: { marketId: 'M1', currency: 'RON', schedule: [{ at: T0 + 30_000, phase: 'closing' }, { at: T0 + 60_000, phase: 'closed' }, { at: T0 + 61_000, phase: 'opening', sessionDate: '2026-11-24' }, { at: T0 + 62_000, phase: 'trading' }] } });
  out.push({ type: 'upsertMarket', at, market: { marketId: 'M2', currency: 'RON' } });
  for (const asset of Object.values(ASSETS)) out.push({ type: 'upsertAsset', at, asset });
  for (const code of CLIENTS) out.push({ type: 'upsertClient', at, client: clientConfig(code, random) });
  out.push({ type: 'setPhase', at, marketId: 'M1', phase: 'trading', sessionDate: '2026-11-23' });
  out.push({ type: 'setPhase', at, marketId: 'M2', phase: 'opening', sessionDate: '2026-11-23' });
  while (out.length < count) {
    if (random() < 0.5) at += Math.floor(random() * 300);
    const roll = random();
    if (roll < 0.5 || issued === 0) {
      const way = random() < 0.5 ? 'bid' : 'ask';
      const offset = Math.floor(random() * 16) - 4;
      const assetId = pick(Object.keys(ASSETS));
      const validityType = pick(['day', 'GTC', 'GTC', 'GTD', 'GTSV'] as const);
      const execution = random();
      const executionType = execution < 0.06 ? 'IOC' : execution < 0.1 ? 'FOK' : 'normal';
      const isMarket = executionType !== 'normal' && random() < 0.3;
      issued++;
      out.push({
        type: 'addOrder',
        at,
        actor: random() < 0.5 ? { brokerId: 'B1' } : {},
        assetId,
        clientCode: pick(CLIENTS),
        way,
        ...(isMarket ? {} : { price: way === 'bid' ? 1000 - offset : 1000 + offset }),
        qty: assetId === 'A3' ? 5 * (1 + Math.floor(random() * 8)) : 1 + Math.floor(random() * 40),
        validityType,
        ...(validityType === 'GTD' || validityType === 'GTSV' ? { validity: at + 1 + Math.floor(random() * 3000) } : {}),
        executionType,
        ...(assetId === 'A3' && random() < 0.5 ? { balancingGroupId: 'G1' } : {}),
      });
    } else if (roll < 0.78) {
      const orderId = 1 + Math.floor(random() * issued);
      const kind = random();
      if (kind < 0.35) out.push({ type: 'cancelOrder', at, actor: {}, orderId });
      else if (kind < 0.75)
        out.push({
          type: 'modifyOrder',
          at,
          actor: {},
          orderId,
          ...(random() < 0.5 ? { qty: 5 * (1 + Math.floor(random() * 8)) } : {}),
          ...(random() < 0.5 ? { price: 1000 + Math.floor(random() * 16) - 8 } : {}),
          ...(random() < 0.15 ? { validityType: 'GTD' as const, validity: at + 1 + Math.floor(random() * 2000) } : {}),
        });
      else if (kind < 0.88) out.push({ type: 'suspendOrder', at, actor: {}, orderId });
      else out.push({ type: 'activateOrder', at, actor: {}, orderId });
    } else if (roll < 0.88) {
      at += Math.floor(random() * 1000);
      out.push({ type: 'tick', at });
    } else if (roll < 0.93) {
      const marketId = pick(['M1', 'M2']);
      const phase = pick(['opening', 'trading', 'trading', 'closing', 'closed'] as const);
      const assetId = random() < 0.3 ? (marketId === 'M1' ? pick(['A1', 'A2']) : 'A3') : null;
      const sessionDate = phase === 'opening' && random() < 0.5 ? `2026-11-${++day}` : undefined;
      out.push({ type: 'setPhase', at, marketId, assetId, phase, ...(sessionDate ? { sessionDate } : {}) });
    } else if (roll < 0.95) {
      const marketId = pick(['M1', 'M2']);
      const assetId = random() < 0.4 ? (marketId === 'M1' ? 'A2' : 'A3') : null;
      out.push({ type: random() < 0.5 ? 'operatorSuspend' : 'operatorResume', at, marketId, assetId });
    } else if (roll < 0.97) {
      out.push({ type: 'upsertClient', at, client: clientConfig(pick(CLIENTS), random) });
    } else if (roll < 0.98) {
      const base = ASSETS.A1!;
      out.push({ type: 'upsertAsset', at, asset: { ...base, deliveryDays: pick([1, 1, 2]), flags: { oneSidePerClient: random() < 0.3, priceMustImprove: random() < 0.3 } } });
    } else if (roll < 0.99) {
      out.push({ type: 'setSettlementPrice', at, assetId: pick(Object.keys(ASSETS)), price: random() < 0.2 ? null : 990 + Math.floor(random() * 20) });
    } else {
      out.push({ type: 'upsertMarket', at, market: { marketId: 'M2', currency: 'RON', schedule: [{ at: at + 500, phase: 'trading' }, { at: at + 5_000, phase: 'closed' }] } });
    }
  }
  return out;
}

/** export → JSON → import, as the journal does. */
function roundTrip(engine: Engine): Engine {
  const json = JSON.stringify(engine.exportState());
  return Engine.fromSnapshot(JSON.parse(json) as EngineSnapshot);
}

describe('engine snapshots', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('an imported engine equals the original and behaves the same (seed %i)', (seed) => {
    const commands = workload(seed, 1_500);
    const random = prng(seed * 7919);
    const checkpoints = new Set([0, 1, 20, 21].concat(Array.from({ length: 6 }, () => Math.floor(random() * commands.length))));
    const original = new Engine();
    let copy: Engine | null = null;
    let trades = 0;
    let live = 0;
    for (let index = 0; index < commands.length; index++) {
      if (checkpoints.has(index)) {
        // chain: each checkpoint re-imports from the copy (the original at the first one)
        copy = roundTrip(copy ?? original);
        expect(copy.stateHash()).toBe(original.stateHash());
        expect(copy.validateInternalState()).toEqual([]);
        expect(copy.clock).toBe(original.clock);
        expect(copy.executedCommands).toBe(original.executedCommands);
        live = Math.max(live, copy.listOrders().length);
      }
      const command = commands[index]!;
      const expected = original.execute(structuredClone(command));
      for (const event of expected.events) if (event.type === 'trade') trades++;
      if (copy !== null) {
        const actual = copy.execute(structuredClone(command));
        expect(actual, `command ${index} (${command.type})`).toEqual(expected);
        expect(copy.stateHash(), `hash after command ${index}`).toBe(original.stateHash());
      }
    }
    expect(copy!.validateInternalState()).toEqual([]);
    expect(original.validateInternalState()).toEqual([]);
    expect(JSON.stringify(copy!.exportState())).toBe(JSON.stringify(original.exportState()));
    // the stream exercised what the snapshot has to carry
    expect(trades).toBeGreaterThan(20);
    expect(live).toBeGreaterThan(5);
  });

  it('keeps FIFO order within levels, client lists, expiries and delta T', () => {
    const commands = workload(42, 3_000);
    const original = new Engine();
    let sawDeltaT = false;
    let sawExpiries = false;
    let sawSharedLevel = false;
    for (const [index, command] of commands.entries()) {
      original.execute(command);
      if (index % 50 !== 0) continue;
      const snapshot = original.exportState();
      sawDeltaT ||= snapshot.deltaTAssets.length > 0;
      sawExpiries ||= snapshot.expiries.length > 0;
      sawSharedLevel ||= snapshot.assets.some((a) => a.book.some((side) => side.some(([, ids]) => ids.length > 1)));
      const copy = roundTrip(original);
      for (const assetId of Object.keys(ASSETS)) {
        for (const way of ['bid', 'ask'] as const) expect(copy.getQueue(assetId, way)).toEqual(original.getQueue(assetId, way));
        expect(copy.getDeltaT(assetId)).toEqual(original.getDeltaT(assetId));
        expect(copy.getStats(assetId)).toEqual(original.getStats(assetId));
      }
      expect(copy.listOrders()).toEqual(original.listOrders());
    }
    expect(sawDeltaT && sawExpiries && sawSharedLevel).toBe(true);
  });

  it('imports only into a new engine and refuses an unknown version', () => {
    const engine = new Engine();
    engine.execute({ type: 'upsertMarket', at: T0, market: { marketId: 'M1', currency: 'RON' } });
    const snapshot = engine.exportState();
    expect(() => engine.importState(snapshot)).toThrow();
    expect(() => Engine.fromSnapshot({ ...snapshot, version: 99 })).toThrow(/version/);
    expect(Engine.fromSnapshot(snapshot).stateHash()).toBe(engine.stateHash());
  });
});
