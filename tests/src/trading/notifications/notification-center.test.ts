import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Notification, OrderUpdate, Transaction } from '../../../../protocol/market-data.ts';
import {
  addContent,
  createNotificationCenter,
  NOTIFICATION_LIMIT,
  REPLAY_WINDOW_MS,
  unreadCount,
  type NotificationEntry,
} from '../../../../src/trading/notifications/notification-center.ts';
import { order } from '../fixtures.ts';
import { serverNotification, transaction } from './fixtures.ts';

function setup() {
  let clock = 1_000_000;
  const orders = new Subject<OrderUpdate>();
  const trades = new Subject<Transaction>();
  const notifications = new Subject<Notification>();
  const center = createNotificationCenter({ orders, trades, notifications, now: () => clock });
  const added: NotificationEntry[] = [];
  center.added$.subscribe((entry) => added.push(entry));
  center.start();
  clock += REPLAY_WINDOW_MS + 1; // past the replay window: updates are news
  return { center, orders, trades, notifications, added };
}

describe('the notification centre', () => {
  it('keeps one entry per trade whichever source tells it first; the server version replaces the text, without a second toast', () => {
    const { center, trades, notifications, added } = setup();
    trades.next(transaction);
    notifications.next(serverNotification({ kind: 'orderTraded', values: { transactionId: 'T-1', orderId: 'O-1', way: 'ask', assetId: 'GSPOT-DA', qty: 50, price: 15100, clientCode: 'RO-HIDRO' } }));
    // The other side of the same trade, for a user acting for both clients.
    notifications.next(serverNotification({ id: 'n-2', kind: 'orderTraded', values: { transactionId: 'T-1', orderId: 'O-2', way: 'bid' } }));
    trades.next(transaction); // a repeated frame
    expect(added).toHaveLength(1);
    expect(center.current().entries).toHaveLength(1);
    expect(center.current().entries[0]).toMatchObject({ key: 'trade:T-1', category: 'trade', priority: 2, content: { source: 'server' } });
  });

  it("merges an order's end from /user/queue/orders with the server's expiry, in either order", () => {
    const { center, orders, notifications, added } = setup();
    orders.next({ seq: 5, order: order({ orderId: 'O-5', status: 'cancelled' }) });
    notifications.next(serverNotification({ kind: 'orderExpired', values: { orderId: 'O-5' } }));
    notifications.next(serverNotification({ id: 'n-6', kind: 'orderCancelled', values: { orderId: 'O-6', reason: 'ioc' } }));
    orders.next({ seq: 6, order: order({ orderId: 'O-6', status: 'cancelled' }) });
    expect(added.map((entry) => entry.key)).toEqual(['order-end:O-5', 'order-end:O-6']);
    expect(center.current().entries.map((entry) => entry.content.source)).toEqual(['server', 'server']);
  });

  it('does not report fills from the order stream (the trade is the news) nor the replay on subscribe', () => {
    let clock = 0;
    const orders = new Subject<OrderUpdate>();
    const center = createNotificationCenter({ orders, trades: new Subject(), now: () => clock });
    const added: NotificationEntry[] = [];
    center.added$.subscribe((entry) => added.push(entry));
    center.start();
    orders.next({ seq: 3, order: order({ orderId: 'old', tradedQty: 20, status: 'tradedPartially' }) });
    clock += REPLAY_WINDOW_MS + 1;
    orders.next({ seq: 3, order: order({ orderId: 'old-2' }) }); // still the replay
    orders.next({ seq: 4, order: order({ orderId: 'old', tradedQty: 40, status: 'tradedPartially' }) }); // a fill
    orders.next({ seq: 5, order: order({ orderId: 'old', tradedQty: 40, status: 'modified', price: 15200 }) }); // a change
    orders.next({ seq: 6, order: order({ orderId: 'new', tradedQty: 100, status: 'traded' }) }); // filled on arrival
    expect(added.map((entry) => entry.key)).toEqual(['order:old:5:modified:false']);
  });

  it('counts unread entries, marks one or all read, and keeps the newest NOTIFICATION_LIMIT', () => {
    const { center, notifications } = setup();
    for (let index = 0; index < NOTIFICATION_LIMIT + 5; index++) {
      notifications.next(serverNotification({ id: `p-${index}`, kind: 'phaseChanged', values: { marketId: 'GAS-SPOT', assetId: '', phase: 'closing' } }));
    }
    const entries = center.current().entries;
    expect(entries).toHaveLength(NOTIFICATION_LIMIT);
    expect(entries[0]!.key).toBe(`n:p-${NOTIFICATION_LIMIT + 4}`);
    expect(unreadCount(entries)).toBe(NOTIFICATION_LIMIT);
    center.markRead(entries[0]!.key);
    expect(unreadCount(center.current().entries)).toBe(NOTIFICATION_LIMIT - 1);
    center.markAllRead();
    expect(unreadCount(center.current().entries)).toBe(0);
  });

  it('a lower-priority copy never replaces what the server said', () => {
    const server = serverNotification({ kind: 'orderExpired', values: { orderId: 'O-9' } });
    const first = addContent({ entries: [] }, { source: 'server', notification: server });
    const second = addContent(first.state, { source: 'order', seq: 1, order: order({ orderId: 'O-9', status: 'cancelled' }) });
    expect(second.state).toBe(first.state);
    expect(second.added).toBeNull();
  });
});
