import { z } from 'zod';
import {
  assetSpecificationSchema,
  marketSchema,
  ringSchema,
  type AssetSpecification,
  type Market,
  type Ring,
} from '../../protocol/reference.ts';
import { getSession, subscribeSession } from '../auth/session.ts';
import { authedRequest } from './http.ts';

const marketsResponseSchema = z.strictObject({ markets: z.array(marketSchema), rings: z.array(ringSchema) });
const assetsResponseSchema = z.strictObject({ assets: z.array(assetSpecificationSchema) });

export interface MarketsAndRings {
  markets: Market[];
  rings: Ring[];
}

/**
 * Reference data (markets, rings, assets) changes rarely: it is fetched once per session and kept
 * until the session changes. A failed fetch is not kept, so the next page tries again.
 */
let cacheToken: string | null = null;
let marketsPromise: Promise<MarketsAndRings> | null = null;
let assetsPromise: Promise<AssetSpecification[]> | null = null;

function forCurrentSession(): void {
  const token = getSession()?.token ?? null;
  if (token !== cacheToken) {
    cacheToken = token;
    marketsPromise = null;
    assetsPromise = null;
  }
}
subscribeSession(forCurrentSession);

export function fetchMarkets(): Promise<MarketsAndRings> {
  forCurrentSession();
  if (!marketsPromise) {
    const promise = authedRequest('/markets', (body) => marketsResponseSchema.safeParse(body).data ?? null);
    marketsPromise = promise;
    promise.catch(() => {
      if (marketsPromise === promise) marketsPromise = null;
    });
  }
  return marketsPromise;
}

export function fetchAssets(): Promise<AssetSpecification[]> {
  forCurrentSession();
  if (!assetsPromise) {
    const promise = authedRequest('/assets', (body) => assetsResponseSchema.safeParse(body).data?.assets ?? null);
    assetsPromise = promise;
    promise.catch(() => {
      if (assetsPromise === promise) assetsPromise = null;
    });
  }
  return assetsPromise;
}

/** Forgets the cached reference data (tests). */
export function clearReferenceCache(): void {
  cacheToken = null;
  marketsPromise = null;
  assetsPromise = null;
}
