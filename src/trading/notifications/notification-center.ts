/**
 * The notification centre of a connection: one list (newest first) fed by the own order updates,
 * the own trades and the server's notifications (/user/queue/notifications). The same fact from two
 * sources (a trade on /user/queue/trades and the server's orderTraded; an order's end on
 * /user/queue/orders and the server's orderExpired) is one entry: the server's version, which knows
 * the reason, replaces the client's text in place, and only a new entry makes a toast and a sound.
 */
import { BehaviorSubject, EMPTY, merge, Subject, type Observable } from 'rxjs';
import { filter, map } from 'rxjs/operators';
import type { Notification, Order, OrderUpdate, Transaction } from '../../../protocol/market-data.ts';
import type { Connection } from '../../../streams/connection.ts';
import { notifications$ } from '../../../streams/market-data.ts';
import { sharedMyTrades, sharedOrderUpdates } from '../live.ts';

export const notificationCategories = ['order', 'trade', 'phase', 'workflow', 'system'] as const;
export type NotificationCategory = (typeof notificationCategories)[number];

export type EntryContent =
  | { source: 'order'; seq: number; order: Order }
  | { source: 'trade'; trade: Transaction }
  | { source: 'server'; notification: Notification };

export interface NotificationEntry {
  /** The fact this entry is about; two sources of one fact share it. */
  key: string;
  category: NotificationCategory;
  /** Server content outranks what the client pieced together from its streams. */
  priority: number;
  at: string;
  read: boolean;
  content: EntryContent;
}

export interface CenterState {
  /** Newest first, at most NOTIFICATION_LIMIT. */
  entries: readonly NotificationEntry[];
}

export const NOTIFICATION_LIMIT = 200;
/** Order updates this soon after subscribing, and any with the same seq, are the server's replay of what is there, not news. */
export const REPLAY_WINDOW_MS = 1500;

const serverCategory: Record<Notification['kind'], NotificationCategory> = {
  orderTraded: 'trade',
  orderExpired: 'order',
  orderCancelled: 'order',
  phaseChanged: 'phase',
  workflow: 'workflow',
  system: 'system',
};

/** Which fact a piece of content is about. */
export function factOf(content: EntryContent): Pick<NotificationEntry, 'key' | 'category' | 'priority'> {
  switch (content.source) {
    case 'order': {
      const { order } = content;
      if (order.status === 'cancelled') return { key: `order-end:${order.orderId}`, category: 'order', priority: 1 };
      return { key: `order:${order.orderId}:${content.seq}:${order.status}:${order.suspended}`, category: 'order', priority: 1 };
    }
    case 'trade':
      return { key: `trade:${content.trade.transactionId}`, category: 'trade', priority: 1 };
    case 'server': {
      const { notification: n } = content;
      const category = serverCategory[n.kind];
      if (n.kind === 'orderTraded' && n.values.transactionId !== undefined) return { key: `trade:${n.values.transactionId}`, category, priority: 2 };
      if ((n.kind === 'orderExpired' || n.kind === 'orderCancelled') && n.values.orderId !== undefined) return { key: `order-end:${n.values.orderId}`, category, priority: 2 };
      return { key: `n:${n.id}`, category, priority: 2 };
    }
  }
}

function timeOf(content: EntryContent): string {
  if (content.source === 'order') return content.order.lastModifiedAt;
  if (content.source === 'trade') return content.trade.timestamp;
  return content.notification.at;
}

/** Adds a fact: a new entry (returned as `added`), or a better version of a known one (replaced in place). */
export function addContent(state: CenterState, content: EntryContent): { state: CenterState; added: NotificationEntry | null } {
  const fact = factOf(content);
  const index = state.entries.findIndex((entry) => entry.key === fact.key);
  if (index >= 0) {
    const existing = state.entries[index]!;
    if (fact.priority <= existing.priority) return { state, added: null };
    const entries = state.entries.slice();
    entries[index] = { ...existing, priority: fact.priority, category: fact.category, content };
    return { state: { entries }, added: null };
  }
  const entry: NotificationEntry = { ...fact, at: timeOf(content), read: false, content };
  return { state: { entries: [entry, ...state.entries].slice(0, NOTIFICATION_LIMIT) }, added: entry };
}

export function markAllRead(state: CenterState): CenterState {
  return state.entries.some((entry) => !entry.read) ? { entries: state.entries.map((entry) => (entry.read ? entry : { ...entry, read: true })) } : state;
}

export function markRead(state: CenterState, key: string): CenterState {
  return state.entries.some((entry) => entry.key === key && !entry.read) ? { entries: state.entries.map((entry) => (entry.key === key ? { ...entry, read: true } : entry)) } : state;
}

export function unreadCount(entries: readonly NotificationEntry[]): number {
  return entries.reduce((count, entry) => count + (entry.read ? 0 : 1), 0);
}

/**
 * Own order updates that are news: not the replay on subscribe, and not fills (the trade is the
 * news of a fill, on /user/queue/trades and in the server's orderTraded).
 */
export function orderNews(orders: Observable<OrderUpdate>, now: () => number = Date.now): Observable<EntryContent> {
  const since = now();
  let replaySeq: number | null = null;
  const tradedQty = new Map<string, number>();
  return orders.pipe(
    filter((update) => {
      const { order } = update;
      const before = tradedQty.get(order.orderId) ?? 0;
      if (order.status === 'traded' || order.status === 'cancelled') tradedQty.delete(order.orderId);
      else tradedQty.set(order.orderId, order.tradedQty);
      if (replaySeq === null && now() - since < REPLAY_WINDOW_MS) {
        replaySeq = update.seq;
        return false;
      }
      if (replaySeq !== null && update.seq <= replaySeq) return false;
      return order.tradedQty <= before;
    }),
    map((update): EntryContent => ({ source: 'order', seq: update.seq, order: update.order })),
  );
}

export interface NotificationSources {
  orders: Observable<OrderUpdate>;
  trades: Observable<Transaction>;
  notifications?: Observable<Notification>;
  /** Clock (tests). */
  now?: () => number;
}

export interface NotificationCenter {
  state$: Observable<CenterState>;
  /** Each new entry (never a replaced one): what makes a toast and a sound. */
  added$: Observable<NotificationEntry>;
  current(): CenterState;
  markAllRead(): void;
  markRead(key: string): void;
  /** Subscribes to the sources (call after subscribing to added$); returns the stop. */
  start(): () => void;
}

export function createNotificationCenter({ orders, trades, notifications = EMPTY, now = Date.now }: NotificationSources): NotificationCenter {
  const state = new BehaviorSubject<CenterState>({ entries: [] });
  const added = new Subject<NotificationEntry>();
  return {
    state$: state.asObservable(),
    added$: added.asObservable(),
    current: () => state.value,
    markAllRead: () => state.next(markAllRead(state.value)),
    markRead: (key) => state.next(markRead(state.value, key)),
    start() {
      const contents = merge(
        orderNews(orders, now),
        trades.pipe(map((trade): EntryContent => ({ source: 'trade', trade }))),
        notifications.pipe(map((notification): EntryContent => ({ source: 'server', notification }))),
      );
      const subscription = contents.subscribe((content) => {
        const next = addContent(state.value, content);
        if (next.state !== state.value) state.next(next.state);
        if (next.added) added.next(next.added);
      });
      return () => subscription.unsubscribe();
    },
  };
}

const centers = new WeakMap<Connection, NotificationCenter>();

/** The connection's notification centre, started on first use and kept for the connection's life. */
export function notificationCenterFor(connection: Connection): NotificationCenter {
  let center = centers.get(connection);
  if (!center) {
    center = createNotificationCenter({ orders: sharedOrderUpdates(connection), trades: sharedMyTrades(connection), notifications: notifications$(connection) });
    centers.set(connection, center);
    center.start();
  }
  return center;
}
