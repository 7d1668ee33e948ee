import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError, ExchangeError, operatorRoutes } from '../../protocol/index.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { MarketPhaseControl } from '../operator/market-phases.ts';
import type { OperatorFeed } from '../operator/operator-feed.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { requireUser } from './auth.routes.ts';
import { marketParamsSchema } from './orders.routes.ts';
import { parseWith } from './validation.ts';

export interface OperatorConsoleRoutesOptions {
  auth: AuthService;
  feed: Pick<OperatorFeed, 'snapshot'>;
  phases: MarketPhaseControl;
}

/** The operator console (issue 16): its snapshot and the market suspend / resume buttons, administrators only. */
export function operatorConsoleRoutes({ auth, feed, phases }: OperatorConsoleRoutesOptions) {
  async function administrator(request: FastifyRequest): Promise<UserRecord> {
    const user = await requireUser(auth, request);
    if (!user.roles.includes('administrator')) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'administrator' }));
    return user;
  }

  return async function register(app: FastifyInstance): Promise<void> {
    app.get(operatorRoutes.snapshot, async (request) => {
      await administrator(request);
      return feed.snapshot();
    });

    app.post(operatorRoutes.suspendMarket(':marketId'), async (request, reply) => {
      const user = await administrator(request);
      const { marketId } = parseWith(marketParamsSchema, request.params);
      await phases.suspend({ user, remoteAddress: request.ip }, marketId);
      return reply.status(204).send();
    });

    app.post(operatorRoutes.resumeMarket(':marketId'), async (request, reply) => {
      const user = await administrator(request);
      const { marketId } = parseWith(marketParamsSchema, request.params);
      await phases.resume({ user, remoteAddress: request.ip }, marketId);
      return reply.status(204).send();
    });
  };
}
