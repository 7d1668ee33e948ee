/**
 * Small engine state records built the way the engine builds them (configureAsset, ClientState.apply,
 * resolveRules, OrderState.init, the book and client-list links), for tests of the pure rule, clearing
 * and matching functions without an Engine around them.
 */
import type { SessionPhase } from '../../../protocol/enums.ts';
import { configureAsset } from '../../../server/engine/configuration.ts';
import { EngineState } from '../../../server/engine/engine-state.ts';
import { resolveRules } from '../../../server/engine/rules/resolve.ts';
import { AssetState, ClientAssetState, ClientState, MarketState, OrderState, ResolvedRules, clientLink } from '../../../server/engine/state.ts';
import type { AssetConfig, ClientConfig } from '../../../server/engine/types.ts';
import { ASSET, MARKET, T0, assetConfig, clientConfig } from './helpers.ts';

export function market(currency = 'RON'): MarketState {
  return new MarketState({ marketId: MARKET, currency });
}

/** An asset of `assetConfig(overrides)` (price decimals 2, step 5, qty 1..10 000) in `phase`. */
export function asset(overrides: Partial<AssetConfig> = {}, phase: SessionPhase = 'trading'): AssetState {
  const m = market();
  const a = new AssetState(overrides.assetId ?? ASSET);
  a.phase = phase;
  a.sessionDate = '2026-11-23';
  m.assets.push(a);
  configureAsset(a, assetConfig(overrides), m);
  return a;
}

export function client(clientCode = 'C1', overrides: Partial<ClientConfig> = {}): ClientState {
  const c = new ClientState(clientCode);
  c.apply(clientConfig(clientCode, overrides));
  return c;
}

/** The client's record on the asset with its rules resolved (what the engine's clientAsset() does). */
export function clientOn(a: AssetState, c: ClientState): ClientAssetState {
  const cas = new ClientAssetState(c, a, new ResolvedRules());
  a.clients.set(c.clientCode, cas);
  resolveRules(cas.rules, c, a, 0);
  return cas;
}

let nextId = 1;

/** A normal GTC order of the client's record; `rest` puts it in the book and the client's list (no reservation). */
export function order(cas: ClientAssetState, way: 'bid' | 'ask', price: number, qty: number, options: { rest?: boolean; balancingGroupId?: string; initiator?: boolean } = {}): OrderState {
  const id = nextId++;
  const o = new OrderState().init(id, cas.asset.product, cas.clientCode, null, way, price, qty, 'normal', 'GTC', null, T0, id, options.balancingGroupId ?? null, options.initiator ?? false, false, null, cas);
  if (options.rest ?? true) {
    cas.asset.book.sides[o.side].append(o);
    clientLink(o);
    o.resting = true;
  }
  return o;
}

/** An EngineState holding the asset, its market and the clients (for clearing and matching functions that emit). */
export function engineState(a: AssetState, ...clients: ClientState[]): EngineState {
  const s = new EngineState();
  s.markets.set(a.marketId, a.market);
  s.assets.set(a.assetId, a);
  for (const c of clients) s.clients.set(c.clientCode, c);
  s.begin();
  return s;
}
