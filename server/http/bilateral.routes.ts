import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiError, ExchangeError } from '../../protocol/index.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { TradingService } from '../trading/trading-service.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
export const assetParamsSchema = z.strictObject({ assetId: z.string().regex(idPattern) });
export const tradeableQuerySchema = z.strictObject({ clientCode: z.string().regex(idPattern).optional() });

export interface BilateralRoutesOptions {
  auth: AuthService;
  trading: TradingService;
  marketOfAsset: ReadonlyMap<string, string>;
}

/**
 * Whitelist-restricted (bilateral) assets: what the user's clients may trade with in the book, per
 * price level (their whitelist partners' resting quantity), so the book can mark the rest.
 */
export function bilateralRoutes({ auth, trading, marketOfAsset }: BilateralRoutesOptions) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/assets/:assetId/tradeable-levels', async (request) => {
      const user = await requireUser(auth, request);
      const { assetId } = parseWith(assetParamsSchema, request.params);
      const { clientCode } = parseWith(tradeableQuerySchema, request.query);
      // An asset of a market the user does not see is answered as unknown.
      const marketId = marketOfAsset.get(assetId);
      if (!marketId || !user.marketIds.includes(marketId)) throw new ExchangeError(apiError('ASSET_NOT_FOUND', { assetId }));
      if (clientCode !== undefined && !user.clientCodes.includes(clientCode)) throw new ExchangeError(apiError('ACCOUNT_CLIENT_FORBIDDEN', { clientCode }));
      return trading.tradeableLevels(assetId, clientCode === undefined ? user.clientCodes : [clientCode]);
    });
  };
}
