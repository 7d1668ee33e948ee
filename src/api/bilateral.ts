import { z } from 'zod';
import { bookLevelSchema, type BookLevel } from '../../protocol/market-data.ts';
import { requestJson } from '../../streams/api.ts';
import { activeToken, endSession } from '../auth/session.ts';
import { ApiRequestError } from './errors.ts';
import { API_BASE, isTokenError } from './http.ts';

/** GET /assets/:assetId/tradeable-levels: every level of each side with the part the clients may trade with (docs/engine.md, Post-trade). */
const tradeableLevelsSchema = z.strictObject({ assetId: z.string(), bids: z.array(bookLevelSchema), asks: z.array(bookLevelSchema) });

export interface TradeableLevelsResponse {
  assetId: string;
  /** Per price level, the quantity and orders of the clients' whitelist partners (0: none of it). */
  bids: BookLevel[];
  asks: BookLevel[];
}

/**
 * What the user's clients may trade with on a bilateral asset: `clientCode` one of the user's clients,
 * or null for all of them. As the signed-in user (blocked with an expired token, a refused token ends
 * the session), but around the loading bar: the book refetches it in the background as it moves.
 */
export async function fetchTradeableLevels(assetId: string, clientCode: string | null, signal?: AbortSignal): Promise<TradeableLevelsResponse> {
  const token = activeToken();
  if (!token) throw new ApiRequestError('AUTH_TOKEN_EXPIRED', {}, 401);
  const query = clientCode === null ? '' : `?${new URLSearchParams({ clientCode }).toString()}`;
  try {
    return await requestJson({ baseUrl: API_BASE }, `/assets/${encodeURIComponent(assetId)}/tradeable-levels${query}`, (body) => tradeableLevelsSchema.safeParse(body).data ?? null, {
      method: 'GET',
      token,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (isTokenError(error)) endSession('expired');
    throw error;
  }
}
