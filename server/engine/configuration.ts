/**
 * Configuration commands: markets (with their phase schedule), assets, clients and settlement
 * prices. Every change bumps the epoch, so the rules cached per client and asset resolve again.
 */
import { apiError } from '../../protocol/error-codes.ts';
import type { EngineState } from './engine-state.ts';
import { refuse, type Refusal } from './refusal.ts';
import { resolvePriceBounds } from './rules/price.ts';
import { isPositiveInt } from './rules/quantity.ts';
import { ASK, BID } from './sides.ts';
import { AssetState, ClientState, MarketState } from './state.ts';
import type { AssetConfig, ClientConfig, MarketConfig } from './types.ts';

/** Normalises an asset's configuration into its fields, with the precomputed fast-path bounds. */
export function configureAsset(a: AssetState, config: AssetConfig, m: MarketState): void {
  a.apply(config, m);
  resolvePriceBounds(a);
}

export function upsertMarket(s: EngineState, config: MarketConfig, at: number): Refusal | null {
  if (!config || !config.marketId) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'missing' }));
  let m = s.markets.get(config.marketId);
  if (m === undefined) {
    m = new MarketState(config);
    s.markets.set(config.marketId, m);
  }
  m.config = config;
  m.schedule = [...(config.schedule ?? [])].sort((x, y) => x.at - y.at);
  let i = 0;
  while (i < m.schedule.length && m.schedule[i]!.at <= at) i++;
  m.scheduleIndex = i;
  s.epoch++;
  s.emit({ type: 'config', kind: 'market', id: config.marketId, at });
  return null;
}

export function upsertAsset(s: EngineState, config: AssetConfig, at: number): Refusal | null {
  if (!config || !config.assetId) return refuse(apiError('REQUEST_INVALID', { field: 'assetId', issue: 'missing' }));
  const m = s.markets.get(config.marketId);
  if (m === undefined) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'unknown' }));
  for (const [field, v] of [
    ['priceStep', config.priceStep],
    ['quantityStep', config.quantityStep],
    ['minQuantity', config.minQuantity],
    ['maxQuantity', config.maxQuantity],
  ] as const) {
    if (!isPositiveInt(v)) return refuse(apiError('REQUEST_INVALID', { field, issue: 'notAPositiveInteger' }));
  }
  if (config.contractQty !== undefined && !isPositiveInt(config.contractQty)) return refuse(apiError('REQUEST_INVALID', { field: 'contractQty', issue: 'notAPositiveInteger' }));
  let a = s.assets.get(config.assetId);
  if (a === undefined) {
    a = new AssetState(config.assetId);
    s.assets.set(config.assetId, a);
    a.phase = m.phase;
    a.sessionDate = m.sessionDate;
    m.assets.push(a);
  } else if (a.market !== m) {
    if (a.book.sides[BID].levels.length > 0 || a.book.sides[ASK].levels.length > 0) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'assetHasOrders' }));
    const old = a.market.assets;
    old.splice(old.indexOf(a), 1);
    m.assets.push(a);
  }
  configureAsset(a, config, m);
  s.epoch++;
  s.emit({ type: 'config', kind: 'asset', id: config.assetId, at });
  return null;
}

export function upsertClient(s: EngineState, config: ClientConfig, at: number): Refusal | null {
  if (!config || !config.clientCode) return refuse(apiError('REQUEST_INVALID', { field: 'clientCode', issue: 'missing' }));
  let c = s.clients.get(config.clientCode);
  if (c === undefined) {
    c = new ClientState(config.clientCode);
    s.clients.set(config.clientCode, c);
  }
  c.apply(config);
  s.epoch++;
  s.emit({ type: 'config', kind: 'client', id: config.clientCode, at });
  return null;
}

export function setSettlementPrice(s: EngineState, assetId: string, price: number | null, at: number): Refusal | null {
  const a = s.assets.get(assetId);
  if (a === undefined) return refuse(apiError('ORDER_ASSET_ID_INVALID', { assetId }));
  if (price !== null && !Number.isSafeInteger(price)) return refuse(apiError('REQUEST_INVALID', { field: 'price', issue: 'notAnInteger' }));
  a.settlementPrice = price;
  s.emit({ type: 'config', kind: 'settlementPrice', id: assetId, at });
  s.statsChanged(a);
  return null;
}
