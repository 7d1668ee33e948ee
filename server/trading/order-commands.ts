import type { AddOrderRequest, ModifyOrderRequest, OrderUpdate } from '../../protocol/index.ts';
import type { UserRecord } from '../store/users.repository.ts';
import type { TradingService } from './trading-service.ts';

/**
 * An order command as both entry points take it, once its body is read: REST (server/http/orders.routes.ts)
 * and STOMP SEND to /app/orders (order-entry.ts). The rules, rights, idempotency and journal
 * acknowledgement are TradingService's; this only picks the call, so both doors run the same path.
 */
export type OrderCommand =
  | { type: 'add'; order: AddOrderRequest }
  | { type: 'modify'; orderId: string; changes: ModifyOrderRequest }
  | { type: 'cancel' | 'suspend' | 'activate'; orderId: string };

const actions = { cancel: 'cancelOrder', suspend: 'suspendOrder', activate: 'activateOrder' } as const;

/** Runs one command for `user`; resolves once the journal has synced it, rejects with the ExchangeError of a refusal. */
export function executeOrderCommand(trading: TradingService, user: UserRecord, command: OrderCommand): Promise<OrderUpdate> {
  switch (command.type) {
    case 'add':
      return trading.addOrder(user, command.order);
    case 'modify':
      return trading.modifyOrder(user, command.orderId, command.changes);
    default:
      return trading.orderAction(user, command.orderId, actions[command.type]);
  }
}
