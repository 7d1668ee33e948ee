import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { addOrderRequestSchema, apiError, cancelAllRequestSchema, ExchangeError, modifyOrderRequestSchema, orderIdParamsSchema, sessionPhases, type OrderUpdate } from '../../protocol/index.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { MarketPhaseControl } from '../operator/market-phases.ts';
import type { Store } from '../store/store.ts';
import { executeOrderCommand } from '../trading/order-commands.ts';
import { EXCHANGE_SEQ_HEADER, type ReadYourWrites } from '../trading/read-your-writes.ts';
import type { TradingService } from '../trading/trading-service.ts';
import { orderUpdateJson } from '../trading/wire.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
export const assetParamsSchema = z.strictObject({ assetId: z.string().regex(idPattern) });
export const marketParamsSchema = z.strictObject({ marketId: z.string().regex(idPattern) });
/** Read-your-writes: answer with data at least as new as this journal seq (an order reply's `seq`). */
const minSeq = z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional();
export const ordersQuerySchema = z.strictObject({ assetId: z.string().regex(idPattern).optional(), history: z.enum(['true', 'false']).optional(), minSeq });
export const transactionsQuerySchema = z.strictObject({
  scope: z.enum(['all', 'mine']).optional(),
  assetId: z.string().regex(idPattern).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  minSeq,
});
export const bookQuerySchema = z.strictObject({ minSeq });
/** The Idempotency-Key header of cancel-all: the alphabet and length of an add's `idempotencyKey`. */
const idempotencyHeaderSchema = z.strictObject({ idempotencyKey: z.string().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/) });
export const phaseBodySchema = z.strictObject({ phase: z.enum([...sessionPhases, 'suspend', 'resume']), assetId: z.string().regex(idPattern).nullable().optional() });

export interface OrdersRoutesOptions {
  auth: AuthService;
  store: Store;
  trading: TradingService;
  marketOfAsset: ReadonlyMap<string, string>;
  /** The operator's phase changes, audited (server/operator/market-phases.ts). */
  phases: MarketPhaseControl;
  /** The `minSeq` reads (books, transactions, orders with history). */
  reads: ReadYourWrites;
}

/** Orders, books, transactions, statistics and the operator's session commands. */
export function ordersRoutes({ auth, store, trading, marketOfAsset, phases, reads }: OrdersRoutesOptions) {
  function visibleAsset(marketIds: string[], assetId: string): void {
    const marketId = marketOfAsset.get(assetId);
    if (!marketId || !marketIds.includes(marketId)) throw new ExchangeError(apiError('ORDER_ASSET_ID_INVALID', { assetId }));
  }

  /** An order call's `{ seq, order }` reply, serialised here (orderUpdateJson: JSON.stringify's text, faster). */
  function sendOrderUpdate(reply: FastifyReply, update: OrderUpdate, status = 200): FastifyReply {
    return reply.status(status).type('application/json; charset=utf-8').send(orderUpdateJson(update));
  }

  return async function register(app: FastifyInstance): Promise<void> {
    app.post('/orders', async (request, reply) => {
      const user = await requireUser(auth, request);
      return sendOrderUpdate(reply, await executeOrderCommand(trading, user, { type: 'add', order: parseWith(addOrderRequestSchema, request.body) }), 201);
    });

    app.patch('/orders/:orderId', async (request, reply) => {
      const user = await requireUser(auth, request);
      const { orderId } = parseWith(orderIdParamsSchema, request.params);
      return sendOrderUpdate(reply, await executeOrderCommand(trading, user, { type: 'modify', orderId, changes: parseWith(modifyOrderRequestSchema, request.body) }));
    });

    /**
     * The kill switch: every live order of the user's clients (optionally one market, asset or
     * client). Orders the rules keep are listed with their code, not refused as a whole.
     */
    app.post('/orders/cancel-all', async (request) => {
      const user = await requireUser(auth, request);
      const body = parseWith(cancelAllRequestSchema, request.body ?? {});
      const header = request.headers['idempotency-key'];
      const key = header === undefined ? undefined : parseWith(idempotencyHeaderSchema, { idempotencyKey: Array.isArray(header) ? header[0] : header }).idempotencyKey;
      return trading.cancelAll(user, body, key);
    });

    for (const type of ['cancel', 'suspend', 'activate'] as const) {
      app.post(`/orders/:orderId/${type}`, async (request, reply) => {
        const user = await requireUser(auth, request);
        const { orderId } = parseWith(orderIdParamsSchema, request.params);
        return sendOrderUpdate(reply, await executeOrderCommand(trading, user, { type, orderId }));
      });
    }

    /** Live orders; `history=true` adds finished ones from the read model. */
    app.get('/orders/mine', async (request, reply) => {
      const user = await requireUser(auth, request);
      const query = parseWith(ordersQuerySchema, request.query);
      // The finished orders come from the read model: with minSeq, once it holds that record.
      const storedSeq = query.history === 'true' ? await reads.readModels(query.minSeq) : null;
      await reads.engine(query.minSeq);
      const live = trading.liveOrders(user, query.assetId);
      // The journal seq the live orders stand at (never below a minSeq the client got in a reply):
      // the client keeps them only where it knows no newer state.
      const seq = trading.journalSeq;
      void reply.header(EXCHANGE_SEQ_HEADER, String(storedSeq ?? seq));
      if (storedSeq === null) return { items: live, seq };
      const stored = await store.trading.orders({ clientCodes: user.clientCodes, assetId: query.assetId, limit: 500 });
      const liveIds = new Set(live.map((order) => order.orderId));
      return { items: [...live, ...stored.filter((order) => !liveIds.has(order.orderId))], seq };
    });

    app.get('/transactions', async (request, reply) => {
      const user = await requireUser(auth, request);
      const query = parseWith(transactionsQuerySchema, request.query);
      if (query.assetId) visibleAsset(user.marketIds, query.assetId);
      // The read model lags the engine by a batch (~250 ms): with minSeq, it is waited for.
      const seq = await reads.readModels(query.minSeq);
      void reply.header(EXCHANGE_SEQ_HEADER, String(seq));
      const items = await store.trading.transactions({
        clientCodes: query.scope === 'mine' ? user.clientCodes : null,
        assetId: query.assetId,
        limit: query.limit ?? 200,
      });
      // Only markets the user sees; outside its own trades the parties are not shown.
      const own = new Set(user.clientCodes);
      const visible = items.filter((transaction) => user.marketIds.includes(marketOfAsset.get(transaction.assetId) ?? ''));
      return {
        items: visible.map((transaction) =>
          own.has(transaction.buyer) || own.has(transaction.seller) || user.roles.includes('administrator')
            ? transaction
            : { ...transaction, buyer: '', seller: '', buyOrderId: '', sellOrderId: '' },
        ),
        seq,
      };
    });

    app.get('/books/:assetId', async (request, reply) => {
      const user = await requireUser(auth, request);
      const { assetId } = parseWith(assetParamsSchema, request.params);
      const query = parseWith(bookQuerySchema, request.query);
      visibleAsset(user.marketIds, assetId);
      const { book, seq } = await reads.book(assetId, query.minSeq);
      void reply.header(EXCHANGE_SEQ_HEADER, String(seq));
      return book;
    });

    app.get('/assets/:assetId/stats', async (request) => {
      const user = await requireUser(auth, request);
      const { assetId } = parseWith(assetParamsSchema, request.params);
      visibleAsset(user.marketIds, assetId);
      return { history: await store.trading.stats(assetId) };
    });

    app.post('/admin/markets/:marketId/phase', async (request, reply) => {
      const user = await requireUser(auth, request);
      const { marketId } = parseWith(marketParamsSchema, request.params);
      const body = parseWith(phaseBodySchema, request.body);
      await phases.setPhase({ user, remoteAddress: request.ip }, marketId, body.phase, body.assetId ?? null);
      return reply.status(204).send();
    });
  };
}
