import type { FastifyInstance } from 'fastify';
import { apiError, ExchangeError, orderIdParamsSchema } from '../../protocol/index.ts';
import type { OrderTimeline } from '../../protocol/order-timeline.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { Store } from '../store/store.ts';
import { buildOrderTimeline } from '../trading/order-timeline.ts';
import type { ReadModelProjector } from '../trading/read-model-projector.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

export interface OrderTimelineRoutesOptions {
  auth: AuthService;
  store: Store;
  projector: ReadModelProjector;
  marketOfAsset: ReadonlyMap<string, string>;
}

/** How long the read waits for the read models to hold the commands acknowledged before it (as the order history). */
const FLUSH_WAIT_MS = 2_000;

/**
 * GET /orders/:orderId/timeline (issue 16, item 7): the order's entry, changes, fills and end, and the
 * clearing, settlement and workflows of its transactions, counterparties anonymous. Who may see it is
 * the order history's rule (the user's clients, all of them for the administrator, on the user's
 * markets); anyone else, an unknown and a malformed id get the same ORDER_NOT_FOUND.
 */
export function orderTimelineRoutes({ auth, store, projector, marketOfAsset }: OrderTimelineRoutesOptions) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/orders/:orderId/timeline', async (request): Promise<OrderTimeline> => {
      const user = await requireUser(auth, request);
      const { orderId } = parseWith(orderIdParamsSchema, request.params);
      // Behind after the wait (a slow or failed write): answered anyway, and readModel says where it stands.
      await projector.flushed(FLUSH_WAIT_MS);
      const order = await store.trading.order(orderId);
      const visible = order && (user.roles.includes('administrator') || user.clientCodes.includes(order.clientCode)) && user.marketIds.includes(marketOfAsset.get(order.assetId) ?? '');
      if (!order || !visible) throw new ExchangeError(apiError('ORDER_NOT_FOUND', { orderId }));
      return buildOrderTimeline({
        db: store.db,
        orderEvents: (id) => store.trading.orderEvents(id),
        transaction: (id) => store.trading.transaction(id),
        user: (id) => store.users.findById(id),
        readModel: () => ({ seq: projector.health.writtenSeq, behindBy: projector.health.behindBy }),
      }, order);
    });
  };
}
