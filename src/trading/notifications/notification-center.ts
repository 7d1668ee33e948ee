/**
 * The notification centre of a connection: one list (newest first) fed by the own order updates,
 * the own trades and the server's notifications (/user/queue/notifications). The same fact from two
 * sources (a trade on /user/queue/trades and the server's orderTraded; an order's end on
 * /user/queue/orders and the server's orderExpired) is one entry: the server's version, which knows
 * the reason, replaces the client's text in place. Facts of one group (fills on an asset, order ends
 * of a client, phases of a market) arriving together are one entry with a count.
 */
import { BehaviorSubject, EMPTY, merge, Subject, type Observable } from 'rxjs';
import { filter, map } from 'rxjs/operators';
import type { Notification, Order, OrderUpdate, Transaction } from '../../../protocol/market-data.ts';
import type { Connection } from '../../../streams/connection.ts';
import { notifications$ } from '../../../streams/market-data.ts';
import { sessionStreams } from '../../../streams/session.ts';

export const notificationCategories = ['order', 'trade', 'phase', 'workflow', 'system'] as const;
export type NotificationCategory = (typeof notificationCategories)[number];

export type EntryContent =
  | { source: 'order'; seq: number; order: Order }
  | { source: 'trade'; trade: Transaction }
  | { source: 'server'; notification: Notification };

/**
 * What a fact is, for grouping texts and the toast policy: an own fill, an order's end (expired, cancelled
 * by the system, or just ended: a cancel the user made, seen on the order stream), another order
 * event, a phase change, anything else (workflow steps, system messages).
 */
export type MemberKind = 'fill' | 'expired' | 'systemCancelled' | 'ended' | 'order' | 'phase' | 'other';

/** One fact inside an entry (an entry holds several when they were grouped). */
export interface Member {
  fact: string;
  kind: MemberKind;
  /** Server content outranks what the client pieced together from its streams. */
  priority: number;
  assetId: string;
  clientCode: string;
}

/** A toast of one's own fill stays until read (at least 8 s); a notice leaves after ~5 s; null: the bell's list only. */
export type ToastKind = 'fill' | 'notice';

export interface NotificationEntry {
  /** The entry's id: its first fact. */
  key: string;
  category: NotificationCategory;
  /** Entries with the same group key arriving within GROUP_WINDOW_MS are one entry; null: never grouped. */
  group: string | null;
  /** Client clock (ms) when the entry's first fact arrived: the grouping window starts there. */
  arrivedAt: number;
  at: string;
  read: boolean;
  /** The latest content (a single fact's text comes from it). */
  content: EntryContent;
  /** The facts, newest first; more than one: a grouped entry ("12 orders of RO-HIDRO expired"). */
  members: readonly Member[];
  toast: ToastKind | null;
}

export interface CenterState {
  /** Newest first, at most NOTIFICATION_LIMIT. */
  entries: readonly NotificationEntry[];
}

export const NOTIFICATION_LIMIT = 200;
/** Order updates this soon after subscribing, and any with the same seq, are the server's replay of what is there, not news. */
export const REPLAY_WINDOW_MS = 1500;
/** Facts of one group arriving within this time of the group's first are one entry and one toast. */
export const GROUP_WINDOW_MS = 3000;

const serverCategory: Record<Notification['kind'], NotificationCategory> = {
  orderTraded: 'trade',
  orderExpired: 'order',
  orderCancelled: 'order',
  phaseChanged: 'phase',
  workflow: 'workflow',
  system: 'system',
};

export interface Fact {
  key: string;
  category: NotificationCategory;
  group: string | null;
  member: Member;
}

const text = (value: string | number | undefined): string => (value === undefined ? '' : String(value));

/** Which fact a piece of content is about, and the group it joins. */
export function factOf(content: EntryContent): Fact {
  switch (content.source) {
    case 'order': {
      const { order } = content;
      const base = { priority: 1, assetId: order.assetId, clientCode: order.clientCode };
      if (order.status === 'cancelled') {
        const key = `order-end:${order.orderId}`;
        // A cancel seen only here is the user's own (list only): it does not join a group of expiries.
        return { key, category: 'order', group: `order-end:ended:${order.clientCode}`, member: { fact: key, kind: 'ended', ...base } };
      }
      const key = `order:${order.orderId}:${content.seq}:${order.status}:${order.suspended}`;
      const status = order.suspended ? 'suspended' : order.status;
      return { key, category: 'order', group: `order:${status}:${order.clientCode}`, member: { fact: key, kind: 'order', ...base } };
    }
    case 'trade': {
      const { trade } = content;
      const key = `trade:${trade.transactionId}`;
      return { key, category: 'trade', group: `fill:${trade.assetId}`, member: { fact: key, kind: 'fill', priority: 1, assetId: trade.assetId, clientCode: '' } };
    }
    case 'server': {
      const { notification: n } = content;
      const v = n.values;
      const category = serverCategory[n.kind];
      const base = { priority: 2, assetId: text(v.assetId), clientCode: text(v.clientCode) };
      if (n.kind === 'orderTraded' && v.transactionId !== undefined) {
        const key = `trade:${v.transactionId}`;
        return { key, category, group: `fill:${text(v.assetId)}`, member: { fact: key, kind: 'fill', ...base } };
      }
      if ((n.kind === 'orderExpired' || n.kind === 'orderCancelled') && v.orderId !== undefined) {
        const key = `order-end:${v.orderId}`;
        const kind = n.kind === 'orderExpired' ? 'expired' : 'systemCancelled';
        return { key, category, group: `order-end:${kind}:${text(v.clientCode)}`, member: { fact: key, kind, ...base } };
      }
      const key = `n:${n.id}`;
      if (n.kind === 'phaseChanged') return { key, category, group: `phase:${text(v.marketId)}`, member: { fact: key, kind: 'phase', ...base } };
      // Workflow steps and system messages are each their own news.
      return { key, category, group: null, member: { fact: key, kind: 'other', ...base } };
    }
  }
}

/**
 * The toast policy: toasts are for what concerns the user (own fills, expiries, cancellations by the
 * system, workflow steps and system messages); order events the user made themselves (the ticket
 * said so) and market-wide phase changes go to the bell's list only.
 */
export function toastOf(kind: MemberKind): ToastKind | null {
  switch (kind) {
    case 'fill':
      return 'fill';
    case 'expired':
    case 'systemCancelled':
    case 'other':
      return 'notice';
    case 'ended':
    case 'order':
    case 'phase':
      return null;
  }
}

/** The strongest toast of an entry's facts: a fill outranks a notice. */
function toastOfMembers(members: readonly Member[]): ToastKind | null {
  let toast: ToastKind | null = null;
  for (const member of members) {
    const kind = toastOf(member.kind);
    if (kind === 'fill') return 'fill';
    toast ??= kind;
  }
  return toast;
}

function timeOf(content: EntryContent): string {
  if (content.source === 'order') return content.order.lastModifiedAt;
  if (content.source === 'trade') return content.trade.timestamp;
  return content.notification.at;
}

/** What adding a fact did: a new entry, a fact grouped into an entry, a better version of a known fact, or nothing. */
export type EntryChange = { type: 'added' | 'grown' | 'upgraded'; entry: NotificationEntry };

/**
 * Adds a fact: a new entry, a member of an unread entry of its group that began within
 * GROUP_WINDOW_MS (the entry moves to the top), or a better version of a known fact (replaced in place).
 */
export function addContent(state: CenterState, content: EntryContent, now = 0): { state: CenterState; change: EntryChange | null } {
  const fact = factOf(content);
  const known = state.entries.findIndex((entry) => entry.members.some((member) => member.fact === fact.key));
  if (known >= 0) {
    const existing = state.entries[known]!;
    const index = existing.members.findIndex((member) => member.fact === fact.key);
    if (fact.member.priority <= existing.members[index]!.priority) return { state, change: null };
    const members = existing.members.slice();
    members[index] = fact.member;
    const single = members.length === 1;
    const entry: NotificationEntry = {
      ...existing,
      members,
      toast: toastOfMembers(members),
      // One fact: the better version is the entry's text; a group keeps its own.
      ...(single ? { content, category: fact.category } : {}),
    };
    const entries = state.entries.slice();
    entries[known] = entry;
    return { state: { entries }, change: { type: 'upgraded', entry } };
  }
  const group = fact.group;
  const joined = group === null ? -1 : state.entries.findIndex((entry) => entry.group === group);
  const target = joined >= 0 ? state.entries[joined]! : null;
  if (target && !target.read && now - target.arrivedAt <= GROUP_WINDOW_MS) {
    const members = [fact.member, ...target.members];
    const entry: NotificationEntry = { ...target, members, content, at: timeOf(content), toast: toastOfMembers(members) };
    const rest = state.entries.filter((_, index) => index !== joined);
    return { state: { entries: [entry, ...rest] }, change: { type: 'grown', entry } };
  }
  const entry: NotificationEntry = {
    key: fact.key,
    category: fact.category,
    group,
    arrivedAt: now,
    at: timeOf(content),
    read: false,
    content,
    members: [fact.member],
    toast: toastOf(fact.member.kind),
  };
  return { state: { entries: [entry, ...state.entries].slice(0, NOTIFICATION_LIMIT) }, change: { type: 'added', entry } };
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
  /** Each change: a new entry, a fact grouped into one, a better version of a fact (the toasts follow these). */
  changes$: Observable<EntryChange>;
  current(): CenterState;
  markAllRead(): void;
  markRead(key: string): void;
  /** Subscribes to the sources (call after subscribing to changes$); returns the stop. */
  start(): () => void;
}

export function createNotificationCenter({ orders, trades, notifications = EMPTY, now = Date.now }: NotificationSources): NotificationCenter {
  const state = new BehaviorSubject<CenterState>({ entries: [] });
  const changes = new Subject<EntryChange>();
  return {
    state$: state.asObservable(),
    changes$: changes.asObservable(),
    current: () => state.value,
    markAllRead: () => state.next(markAllRead(state.value)),
    markRead: (key) => state.next(markRead(state.value, key)),
    start() {
      const contents = merge(
        orderNews(orders, now),
        // An update of a transaction already reported (superseded by a transfer, margins switched) is no fill.
        trades.pipe(
          filter((trade) => trade.updatedAt === undefined),
          map((trade): EntryContent => ({ source: 'trade', trade })),
        ),
        notifications.pipe(map((notification): EntryContent => ({ source: 'server', notification }))),
      );
      const subscription = contents.subscribe((content) => {
        const next = addContent(state.value, content, now());
        if (next.state !== state.value) state.next(next.state);
        if (next.change) changes.next(next.change);
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
    center = createNotificationCenter({ orders: sessionStreams(connection).orderQueue$, trades: sessionStreams(connection).myTrades$, notifications: notifications$(connection) });
    centers.set(connection, center);
    center.start();
  }
  return center;
}
