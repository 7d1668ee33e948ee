import { notFound } from '@tanstack/react-router';
import type { AssetSpecification, Market, Ring } from '../../../protocol/reference.ts';
import { fetchAssets, fetchMarkets } from '../../api/reference.ts';

/** Ids in URLs: the server's format for asset and market ids. Anything else is a 404 before any request. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function parseMarketParams<P extends { marketId?: string | undefined }>(params: P): P {
  if (params.marketId !== undefined && !ID_PATTERN.test(params.marketId)) throw notFound();
  return params;
}

export function parseAssetParams<P extends { marketId?: string | undefined; assetId: string }>(params: P): P {
  parseMarketParams(params);
  if (!ID_PATTERN.test(params.assetId)) throw notFound();
  return params;
}

export interface MarketAccountData {
  market: Market | null;
  markets: Market[];
  assets: AssetSpecification[];
}

/** /trading/market/{marketId?}/account: an unknown market is a 404. */
export async function loadMarketAccount(marketId: string | undefined): Promise<MarketAccountData> {
  const [{ markets }, assets] = await Promise.all([fetchMarkets(), fetchAssets()]);
  const market = marketId === undefined ? null : (markets.find((candidate) => candidate.id === marketId) ?? null);
  if (marketId !== undefined && !market) throw notFound();
  return { market, markets, assets: market ? assets.filter((asset) => asset.marketId === market.id) : assets };
}

export interface AssetData {
  asset: AssetSpecification;
  market: Market | null;
}

/** /trading/market/{marketId?}/assets/{assetId}: an unknown asset, or one of another market, is a 404. */
export async function loadAsset(marketId: string | undefined, assetId: string): Promise<AssetData> {
  const [{ markets }, assets] = await Promise.all([fetchMarkets(), fetchAssets()]);
  const asset = assets.find((candidate) => candidate.id === assetId);
  if (!asset || (marketId !== undefined && asset.marketId !== marketId)) throw notFound();
  return { asset, market: markets.find((candidate) => candidate.id === asset.marketId) ?? null };
}

export interface WorkspaceData {
  markets: Market[];
  rings: Ring[];
  assets: AssetSpecification[];
}

export async function loadWorkspace(): Promise<WorkspaceData> {
  const [{ markets, rings }, assets] = await Promise.all([fetchMarkets(), fetchAssets()]);
  return { markets, rings, assets };
}
