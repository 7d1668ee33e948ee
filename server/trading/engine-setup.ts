import { z } from 'zod';
import { ways } from '../../protocol/index.ts';
import type { AssetConfig, ClientConfig, MarketConfig } from '../engine/types.ts';
import type { AssetRecord, Client, ClientTradingSetup } from '../store/reference.repository.ts';
import type { Store } from '../store/store.ts';
import type { UnstampedCommand } from './sequencer.ts';

/** The engine-side part of an asset's specification (`spec.config` in the store). */
export const assetEngineConfigSchema = z.strictObject({
  priceMustImprove: z.boolean().optional(),
  noQuantityDecrease: z.boolean().optional(),
  noPriceChange: z.boolean().optional(),
  noAttributeChange: z.boolean().optional(),
  noCancel: z.boolean().optional(),
  oneSidePerClient: z.boolean().optional(),
  gasRelease: z.boolean().optional(),
  marginBps: z.number().int().nonnegative().optional(),
  sessionMinPrice: z.number().int().nullable().optional(),
  sessionMaxPrice: z.number().int().nullable().optional(),
  regulatorMaxPrice: z.number().int().nullable().optional(),
  tradingActive: z.boolean().optional(),
  deltaT: z.strictObject({ durationMs: z.number().int().positive(), priceStep: z.number().int().positive() }).nullable().optional(),
  simpleCompetitive: z.strictObject({ initiatorClientCode: z.string(), initiatorWay: z.enum(ways) }).nullable().optional(),
  balancingGroup: z.strictObject({ maxDecreasePercent: z.number().min(0).max(100) }).nullable().optional(),
  transmissionWay: z.enum(ways).nullable().optional(),
  ownerSides: z.record(z.string(), z.enum(ways)).optional(),
  settlementPrice: z.number().int().nullable().optional(),
});

export function assetConfigOf(asset: AssetRecord): AssetConfig {
  const config = assetEngineConfigSchema.parse(asset.spec.config);
  const { priceMustImprove, noQuantityDecrease, noPriceChange, noAttributeChange, noCancel, oneSidePerClient, ...rest } = config;
  return {
    assetId: asset.id,
    marketId: asset.marketId,
    priceDecimals: asset.spec.priceDecimals,
    quantityDecimals: asset.spec.quantityDecimals,
    priceStep: asset.spec.priceStep,
    quantityStep: asset.spec.quantityStep,
    minQuantity: asset.spec.minQuantity,
    maxQuantity: asset.spec.maxQuantity,
    minPrice: asset.spec.minPrice,
    maxPrice: asset.spec.maxPrice,
    flags: { priceMustImprove, noQuantityDecrease, noPriceChange, noAttributeChange, noCancel, oneSidePerClient },
    ...rest,
  };
}

export function clientConfigOf(client: Client, setup: ClientTradingSetup | undefined): ClientConfig {
  return {
    clientCode: client.code,
    agencyId: client.agencyId,
    active: client.active,
    rights: setup?.rights ?? { '*': { bid: true, ask: true } },
    restrictedAsk: setup?.restrictedAsk ?? false,
    gasReleaseAssets: setup?.gasReleaseAssets ?? [],
    clearing: {
      activeForTrading: client.active,
      funds: setup?.funds ?? null,
      tradingLimit: setup?.tradingLimit ?? null,
      maxContracts: setup?.maxContracts ?? null,
    },
  };
}

/** The configuration commands that load the exchange's reference data into the engine. */
export async function setupCommands(store: Store): Promise<UnstampedCommand[]> {
  const [markets, assets, clients, setups] = await Promise.all([
    store.reference.markets(),
    store.reference.assets(),
    store.reference.clients(),
    store.reference.tradingSetups(),
  ]);
  const setupOf = new Map(setups.map((setup) => [setup.clientCode, setup]));
  return [
    ...markets.map((market): UnstampedCommand => ({ type: 'upsertMarket', market: { marketId: market.id, currency: market.currency } satisfies MarketConfig })),
    ...assets.map((asset): UnstampedCommand => ({ type: 'upsertAsset', asset: assetConfigOf(asset) })),
    ...clients.map((client): UnstampedCommand => ({ type: 'upsertClient', client: clientConfigOf(client, setupOf.get(client.code)) })),
  ];
}
