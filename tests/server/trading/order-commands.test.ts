import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../server/store/users.repository.ts';
import { executeOrderCommand } from '../../../server/trading/order-commands.ts';
import type { TradingService } from '../../../server/trading/trading-service.ts';

/** A TradingService that records which call each command became. */
function recordingTrading(calls: unknown[][]): TradingService {
  const answer = (name: string) => async (...args: unknown[]) => {
    calls.push([name, ...args.slice(1)]);
    return { seq: calls.length, order: {} };
  };
  return { addOrder: answer('addOrder'), modifyOrder: answer('modifyOrder'), orderAction: answer('orderAction') } as unknown as TradingService;
}

const user = { id: 'u1' } as UserRecord;

describe('executeOrderCommand', () => {
  it("runs each command through TradingService's call for it, as REST does", async () => {
    const calls: unknown[][] = [];
    const trading = recordingTrading(calls);
    const order = { idempotencyKey: 'key-00000001', assetId: 'A', way: 'bid' as const, qty: 10 };
    await executeOrderCommand(trading, user, { type: 'add', order });
    await executeOrderCommand(trading, user, { type: 'modify', orderId: '7', changes: { qty: 20 } });
    for (const type of ['cancel', 'suspend', 'activate'] as const) await executeOrderCommand(trading, user, { type, orderId: '7' });
    expect(calls).toEqual([
      ['addOrder', order],
      ['modifyOrder', '7', { qty: 20 }],
      ['orderAction', '7', 'cancelOrder'],
      ['orderAction', '7', 'suspendOrder'],
      ['orderAction', '7', 'activateOrder'],
    ]);
  });
});
