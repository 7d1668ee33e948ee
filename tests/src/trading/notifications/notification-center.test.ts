import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Notification, OrderUpdate, Transaction } from '../../../../protocol/market-data.ts';
import {
  addContent,
  createNotificationCenter,
  GROUP_WINDOW_MS,
  NOTIFICATION_LIMIT,
  REPLAY_WINDOW_MS,
  toastOf,
  unreadCount,
  type EntryChange,
  type MemberKind,
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
  const changes: EntryChange[] = [];
  const added: NotificationEntry[] = [];
  center.changes$.subscribe((change) => {
    changes.push(change);
    if (change.type === 'added') added.push(change.entry);
  });
  center.start();
  clock += REPLAY_WINDOW_MS + 1; // past the replay window: updates are news
  return { center, orders, trades, notifications, added, changes, advance: (ms: number) => (clock += ms) };
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
    expect(center.current().entries[0]).toMatchObject({ key: 'trade:T-1', category: 'trade', toast: 'fill', content: { source: 'server' } });
    expect(center.current().entries[0]!.members).toEqual([{ fact: 'trade:T-1', kind: 'fill', priority: 2, assetId: 'GSPOT-DA', clientCode: 'RO-HIDRO' }]);
  });

  it('an update of a transaction already reported (superseded, margins switched) is no news: no entry, no toast', () => {
    const { center, trades, added } = setup();
    trades.next({ ...transaction, transactionId: 'T-OLD', status: 'superseded', updatedAt: '2026-11-22T10:00:05.000Z' });
    trades.next({ ...transaction, transactionId: 'T-OLD-2', marginsExposureActive: false, updatedAt: '2026-11-22T10:00:06.000Z' });
    expect(added).toEqual([]);
    expect(center.current().entries).toEqual([]);
    // a transfer's child is a new transaction: a fill as before
    trades.next({ ...transaction, transactionId: 'T-CHILD', origin: 'transfer', parentTransactionId: 'T-OLD' });
    expect(center.current().entries.map((entry) => entry.key)).toEqual(['trade:T-CHILD']);
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
    center.changes$.subscribe((change) => change.type === 'added' && added.push(change.entry));
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
    // Workflow steps are never grouped: each is an entry.
    for (let index = 0; index < NOTIFICATION_LIMIT + 5; index++) {
      notifications.next(serverNotification({ id: `p-${index}`, kind: 'workflow', values: { step: index } }));
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
    expect(second.change).toBeNull();
  });

  it("groups a client's order ends arriving together into one entry with a count, and says which they were", () => {
    const { center, notifications, changes, advance } = setup();
    const expiry = (id: string, clientCode = 'RO-HIDRO') =>
      serverNotification({ id: `e-${id}`, kind: 'orderExpired', values: { orderId: id, assetId: 'GSPOT-DA', clientCode, way: 'bid', qty: 10 } });
    for (let index = 1; index <= 12; index++) notifications.next(expiry(`O-${index}`));
    notifications.next(expiry('O-99', 'RO-TERMO')); // another client: its own entry
    const entries = center.current().entries;
    expect(entries).toHaveLength(2);
    const hidro = entries.find((entry) => entry.group === 'order-end:expired:RO-HIDRO')!;
    expect(hidro.members).toHaveLength(12);
    expect(hidro.members.every((member) => member.kind === 'expired')).toBe(true);
    expect(hidro).toMatchObject({ key: 'order-end:O-1', toast: 'notice', read: false });
    expect(changes.map((change) => change.type)).toEqual(['added', ...Array(11).fill('grown'), 'added']);
    // A repeated frame of a grouped fact adds nothing.
    notifications.next(expiry('O-5'));
    expect(center.current().entries.find((entry) => entry.key === hidro.key)!.members).toHaveLength(12);

    // Past the window, the next expiry starts a new entry.
    advance(GROUP_WINDOW_MS + 1);
    notifications.next(expiry('O-13'));
    expect(center.current().entries.map((entry) => entry.members.length)).toEqual([1, 1, 12]);
  });

  it('never groups into an entry already read; a grown entry moves to the top', () => {
    const { center, trades, notifications } = setup();
    trades.next({ ...transaction, transactionId: 'T-1' });
    notifications.next(serverNotification({ id: 'w-1', kind: 'workflow', values: {} }));
    trades.next({ ...transaction, transactionId: 'T-2' });
    expect(center.current().entries.map((entry) => [entry.key, entry.members.length])).toEqual([
      ['trade:T-1', 2],
      ['n:w-1', 1],
    ]);
    center.markRead('trade:T-1');
    trades.next({ ...transaction, transactionId: 'T-3' });
    expect(center.current().entries.map((entry) => [entry.key, entry.members.length])).toEqual([
      ['trade:T-3', 1],
      ['trade:T-1', 2],
      ['n:w-1', 1],
    ]);
  });

  it('groups fills by asset, phases by market, order events by client and status', () => {
    const { center, trades, orders, notifications } = setup();
    trades.next({ ...transaction, transactionId: 'T-1' });
    trades.next({ ...transaction, transactionId: 'T-2', assetId: 'GSPOT-WD' });
    notifications.next(serverNotification({ id: 'p-1', kind: 'phaseChanged', values: { marketId: 'GAS-SPOT', assetId: 'GSPOT-DA', phase: 'closing' } }));
    notifications.next(serverNotification({ id: 'p-2', kind: 'phaseChanged', values: { marketId: 'GAS-SPOT', assetId: 'GSPOT-WD', phase: 'closing' } }));
    notifications.next(serverNotification({ id: 'p-3', kind: 'phaseChanged', values: { marketId: 'EL-PZU', assetId: '', phase: 'closing' } }));
    orders.next({ seq: 10, order: order({ orderId: 'A' }) });
    orders.next({ seq: 11, order: order({ orderId: 'B' }) });
    orders.next({ seq: 12, order: order({ orderId: 'C', suspended: true }) });
    expect(center.current().entries.map((entry) => [entry.group, entry.members.length])).toEqual([
      ['order:suspended:RO-HIDRO', 1],
      ['order:created:RO-HIDRO', 2],
      ['phase:EL-PZU', 1],
      ['phase:GAS-SPOT', 2],
      ['fill:GSPOT-WD', 1],
      ['fill:GSPOT-DA', 1],
    ]);
  });

  it('toasts only what concerns the user: own fills, expiries, system cancellations, workflow and system messages', () => {
    const policy = Object.fromEntries((['fill', 'expired', 'systemCancelled', 'ended', 'order', 'phase', 'other'] as MemberKind[]).map((kind) => [kind, toastOf(kind)]));
    expect(policy).toEqual({ fill: 'fill', expired: 'notice', systemCancelled: 'notice', ended: null, order: null, phase: null, other: 'notice' });

    const { center, orders, trades, notifications } = setup();
    orders.next({ seq: 20, order: order({ orderId: 'mine' }) }); // an order placed: the ticket said so
    orders.next({ seq: 21, order: order({ orderId: 'gone', status: 'cancelled' }) }); // cancelled by its user
    notifications.next(serverNotification({ id: 'p-1', kind: 'phaseChanged', values: { marketId: 'GAS-SPOT', assetId: '', phase: 'closing' } }));
    trades.next(transaction);
    notifications.next(serverNotification({ id: 's-1', kind: 'orderCancelled', values: { orderId: 'ioc', reason: 'ioc', clientCode: 'RO-INDUS' } }));
    notifications.next(serverNotification({ id: 'w-1', kind: 'workflow', values: {} }));
    notifications.next(serverNotification({ id: 'x-1', kind: 'system', values: {} }));
    expect(Object.fromEntries(center.current().entries.map((entry) => [entry.key, entry.toast]))).toEqual({
      'order:mine:20:created:false': null,
      'order-end:gone': null,
      'n:p-1': null,
      'trade:T-1': 'fill',
      'order-end:ioc': 'notice',
      'n:w-1': 'notice',
      'n:x-1': 'notice',
    });
  });

  it("an order's end seen first on the order stream becomes a toast when the server says it expired", () => {
    const { orders, notifications, changes } = setup();
    orders.next({ seq: 30, order: order({ orderId: 'O-7', status: 'cancelled' }) });
    notifications.next(serverNotification({ kind: 'orderExpired', values: { orderId: 'O-7', clientCode: 'RO-HIDRO' } }));
    expect(changes.map((change) => [change.type, change.entry.toast])).toEqual([
      ['added', null],
      ['upgraded', 'notice'],
    ]);
  });
});
