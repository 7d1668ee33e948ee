import { expect } from 'vitest';
import { Engine } from '../../../server/engine/engine.ts';
import type {
  AddOrderCommand,
  AssetConfig,
  ClientConfig,
  EngineCommand,
  EngineEvent,
  EngineResult,
  ModifyOrderCommand,
  OrderEvent,
  TradeEvent,
  TransactionView,
} from '../../../server/engine/types.ts';
import { transactionViewOf } from '../../../server/engine/events.ts';

export const T0 = Date.UTC(2026, 10, 23, 7, 0, 0);
export const MARKET = 'GAS-SPOT';
export const ASSET = 'GAS-DA';

/** Price decimals 2, quantity decimals 0: 150.00 is 15000. */
export function assetConfig(overrides: Partial<AssetConfig> = {}): AssetConfig {
  return {
    assetId: ASSET,
    marketId: MARKET,
    priceDecimals: 2,
    quantityDecimals: 0,
    priceStep: 5,
    quantityStep: 1,
    minQuantity: 1,
    maxQuantity: 10_000,
    minPrice: 100,
    maxPrice: 1_000_000,
    ...overrides,
  };
}

export function clientConfig(clientCode: string, overrides: Partial<ClientConfig> = {}): ClientConfig {
  return { clientCode, agencyId: 'AG1', rights: { '*': { bid: true, ask: true } }, ...overrides };
}

export interface Harness {
  engine: Engine;
  now: number;
  run(command: EngineCommand): EngineResult;
  /** Runs and expects OK; returns the result. */
  ok(command: EngineCommand): EngineResult;
  add(fields: Omit<AddOrderCommand, 'type' | 'at'> & { at?: number }): EngineResult;
  /** Adds and expects OK, returns the new order id. */
  place(way: 'bid' | 'ask', price: number, qty: number, clientCode?: string, extra?: Partial<AddOrderCommand>): number;
  modify(orderId: number, fields: Omit<ModifyOrderCommand, 'type' | 'at' | 'orderId'>): EngineResult;
  cancel(orderId: number): EngineResult;
  suspend(orderId: number): EngineResult;
  activate(orderId: number): EngineResult;
  phase(phase: 'opening' | 'trading' | 'closing' | 'suspended' | 'closed', assetId?: string, sessionDate?: string): EngineResult;
  tick(at: number): EngineResult;
  upsertAsset(overrides?: Partial<AssetConfig>): EngineResult;
  upsertClient(clientCode: string, overrides?: Partial<ClientConfig>): EngineResult;
}

/**
 * An engine with market GAS-SPOT (RON) and asset GAS-DA in trading, session 2026-11-23, and clients
 * C1..C4 of agency AG1 with every right. Each command advances the clock by 1 ms.
 */
export function harness(options: { asset?: Partial<AssetConfig>; clients?: Record<string, Partial<ClientConfig>>; phase?: 'opening' | 'trading' | 'closed' } = {}): Harness {
  const engine = new Engine();
  const h: Harness = {
    engine,
    now: T0,
    run(command) {
      h.now = Math.max(h.now, command.at) + 1;
      return engine.execute(command);
    },
    ok(command) {
      const r = h.run(command);
      expect(r.result, JSON.stringify(r.params ?? {})).toBe('OK');
      return r;
    },
    add(fields) {
      return h.run({ type: 'addOrder', at: fields.at ?? h.now, actor: { brokerId: 'BR1', agencyId: 'AG1' }, validityType: 'GTC', ...fields } as AddOrderCommand);
    },
    place(way, price, qty, clientCode = way === 'bid' ? 'C1' : 'C2', extra = {}) {
      const r = h.add({ assetId: ASSET, clientCode, way, price, qty, ...extra });
      expect(r.result, JSON.stringify(r.params ?? {})).toBe('OK');
      return r.orderId!;
    },
    modify(orderId, fields) {
      return h.run({ type: 'modifyOrder', at: h.now, orderId, actor: { brokerId: 'BR1', agencyId: 'AG1' }, ...fields });
    },
    cancel(orderId) {
      return h.run({ type: 'cancelOrder', at: h.now, orderId, actor: { agencyId: 'AG1' } });
    },
    suspend(orderId) {
      return h.run({ type: 'suspendOrder', at: h.now, orderId, actor: { agencyId: 'AG1' } });
    },
    activate(orderId) {
      return h.run({ type: 'activateOrder', at: h.now, orderId, actor: { agencyId: 'AG1' } });
    },
    phase(phase, assetId, sessionDate) {
      return h.run({ type: 'setPhase', at: h.now, marketId: MARKET, assetId: assetId ?? null, phase, ...(sessionDate ? { sessionDate } : {}) });
    },
    tick(at) {
      return h.run({ type: 'tick', at });
    },
    upsertAsset(overrides = {}) {
      return h.run({ type: 'upsertAsset', at: h.now, asset: assetConfig(overrides) });
    },
    upsertClient(clientCode, overrides = {}) {
      return h.run({ type: 'upsertClient', at: h.now, client: clientConfig(clientCode, overrides) });
    },
  };
  h.ok({ type: 'upsertMarket', at: T0, market: { marketId: MARKET, currency: 'RON' } });
  h.ok({ type: 'upsertAsset', at: T0, asset: assetConfig(options.asset) });
  for (const code of ['C1', 'C2', 'C3', 'C4']) h.ok({ type: 'upsertClient', at: T0, client: clientConfig(code, options.clients?.[code]) });
  for (const [code, overrides] of Object.entries(options.clients ?? {})) {
    if (!['C1', 'C2', 'C3', 'C4'].includes(code)) h.ok({ type: 'upsertClient', at: T0, client: clientConfig(code, overrides) });
  }
  h.ok({ type: 'setPhase', at: T0, marketId: MARKET, phase: options.phase ?? 'trading', sessionDate: '2026-11-23' });
  return h;
}

/** The trades of a result as SPEC transactions. */
export function trades(r: EngineResult): TransactionView[] {
  return r.events.filter((e): e is TradeEvent => e.type === 'trade').map(transactionViewOf);
}

export function orderEvents(r: EngineResult): OrderEvent[] {
  return r.events.filter((e): e is OrderEvent => e.type === 'order');
}

export function eventsOf<T extends EngineEvent['type']>(r: EngineResult, type: T): Array<Extract<EngineEvent, { type: T }>> {
  return r.events.filter((e) => e.type === type) as Array<Extract<EngineEvent, { type: T }>>;
}

/** Resting order ids per level, best first. */
export function queue(h: Harness, way: 'bid' | 'ask'): Array<[number, number[]]> {
  return h.engine.getQueue(ASSET, way).map((l) => [l.price, l.orderIds]);
}

export function expectConsistent(h: Harness): void {
  expect(h.engine.validateInternalState()).toEqual([]);
}
