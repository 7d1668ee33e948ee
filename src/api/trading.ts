import { transactionListSchema, type Transaction } from '../../protocol/market-data.ts';
import { createOrdersApi, type OrdersApi } from '../../streams/api.ts';
import { activeToken } from '../auth/session.ts';
import { orderReplies } from '../realtime/order-replies.ts';
import { authedRequest } from './http.ts';


export type TransactionScope = 'all' | 'mine';

/** GET /transactions?scope=&assetId=: newest first as the server gives them; parties blank outside one's own. */
export function fetchTransactions(scope: TransactionScope, assetId?: string, signal?: AbortSignal): Promise<Transaction[]> {
  const query = new URLSearchParams({ scope });
  if (assetId) query.set('assetId', assetId);
  return authedRequest(`/transactions?${query.toString()}`, (body) => transactionListSchema.safeParse(body).data?.items ?? null, {
    ...(signal ? { signal } : {}),
  });
}

let ordersApi: OrdersApi | null = null;

/** The order calls of the order dialog, with the session's current token. */
export function appOrdersApi(): OrdersApi {
  ordersApi ??= createOrdersApi({ getToken: () => activeToken(), onReply: (update) => orderReplies.next(update) });
  return ordersApi;
}
