import type { FastifyInstance } from 'fastify';
import { apiError, ExchangeError, orderIdParamsSchema } from '../../protocol/index.ts';
import { orderHistoryQuerySchema, type OrderEventsResponse, type OrderHistoryPage } from '../../protocol/order-history.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { Store } from '../store/store.ts';
import type { UserRecord } from '../store/users.repository.ts';
import type { ReadModelProjector } from '../trading/read-model-projector.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

export interface OrderHistoryRoutesOptions {
  auth: AuthService;
  store: Store;
  projector: ReadModelProjector;
  marketOfAsset: ReadonlyMap<string, string>;
}

const DEFAULT_LIMIT = 50;
/** How long a read waits for the read models to hold the commands acknowledged before it. */
const FLUSH_WAIT_MS = 2_000;

const isAdmin = (user: UserRecord) => user.roles.includes('administrator');

/**
 * Order history: GET /orders/history (every order of the user's clients, live and finished, with
 * filters and paging) and GET /orders/:orderId/events (one order's events, oldest first).
 * Both read the store's read models after waiting for the projector, so a user reads their own writes.
 */
export function orderHistoryRoutes({ auth, store, projector, marketOfAsset }: OrderHistoryRoutesOptions) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/orders/history', async (request): Promise<OrderHistoryPage> => {
      const user = await requireUser(auth, request);
      const query = parseWith(orderHistoryQuerySchema, request.query);
      // Only the assets of the user's markets, narrowed by the asset and market filters.
      let assetIds = [...marketOfAsset].filter(([, marketId]) => user.marketIds.includes(marketId)).map(([assetId]) => assetId);
      if (query.marketId !== undefined) {
        if (!user.marketIds.includes(query.marketId)) throw new ExchangeError(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'unknown' }));
        assetIds = assetIds.filter((assetId) => marketOfAsset.get(assetId) === query.marketId);
      }
      if (query.assetId !== undefined) {
        if (!assetIds.includes(query.assetId)) throw new ExchangeError(apiError('REQUEST_INVALID', { field: 'assetId', issue: 'unknown' }));
        assetIds = [query.assetId];
      }
      if (query.clientCode !== undefined && !isAdmin(user) && !user.clientCodes.includes(query.clientCode)) {
        throw new ExchangeError(apiError('REQUEST_INVALID', { field: 'clientCode', issue: 'unknown' }));
      }
      const offset = query.offset ?? 0;
      const limit = query.limit ?? DEFAULT_LIMIT;
      await projector.flushed(FLUSH_WAIT_MS);
      const { items, total } = await store.trading.orderHistory({
        clientCodes: isAdmin(user) ? null : user.clientCodes,
        assetIds,
        way: query.way,
        status: query.status,
        clientCode: query.clientCode,
        from: query.from,
        to: query.to,
        offset,
        limit,
      });
      return { items, total, offset, limit };
    });

    app.get('/orders/:orderId/events', async (request): Promise<OrderEventsResponse> => {
      const user = await requireUser(auth, request);
      const { orderId } = parseWith(orderIdParamsSchema, request.params);
      await projector.flushed(FLUSH_WAIT_MS);
      const order = await store.trading.order(orderId);
      // Someone else's order is answered as not found: its existence is not the caller's business.
      const visible = order && (isAdmin(user) || user.clientCodes.includes(order.clientCode)) && user.marketIds.includes(marketOfAsset.get(order.assetId) ?? '');
      if (!order || !visible) throw new ExchangeError(apiError('ORDER_NOT_FOUND', { orderId }));
      return { order, events: await store.trading.orderEvents(orderId) };
    });
  };
}
