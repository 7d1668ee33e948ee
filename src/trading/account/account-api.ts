import { limitsResponseSchema, positionsResponseSchema, type LimitsResponse, type PositionsResponse } from '../../../protocol/account.ts';
import { authedRequest } from '../../api/http.ts';

/** GET /account/positions?marketId=: the current session's positions of the clients the user may see. */
export function fetchPositions(marketId: string | undefined, signal?: AbortSignal): Promise<PositionsResponse> {
  const query = marketId ? `?${new URLSearchParams({ marketId }).toString()}` : '';
  return authedRequest(`/account/positions${query}`, (body) => positionsResponseSchema.safeParse(body).data ?? null, {
    ...(signal ? { signal } : {}),
  });
}

/** GET /account/limits: financial limits and the general account of each client the user may see. */
export function fetchLimits(signal?: AbortSignal): Promise<LimitsResponse> {
  return authedRequest('/account/limits', (body) => limitsResponseSchema.safeParse(body).data ?? null, {
    ...(signal ? { signal } : {}),
  });
}

/** The client's available funds (amount units) as the engine sees them now; null when funds are not checked or unknown. */
export async function fetchAvailableFunds(clientCode: string, signal?: AbortSignal): Promise<number | null> {
  const limits = await authedRequest(`/account/limits?${new URLSearchParams({ clientCode }).toString()}`, (body) => limitsResponseSchema.safeParse(body).data ?? null, {
    ...(signal ? { signal } : {}),
  });
  return limits.items.find((item) => item.client.code === clientCode)?.availableFunds ?? null;
}
