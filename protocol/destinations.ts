/**
 * STOMP destination names. Topics are public to users allowed to see the market; `/user/queue/...`
 * destinations are private: the gateway routes them to the signed-in user's own connections.
 */
export const destinations = {
  /** Order book of an asset: a snapshot on subscribe, then deltas with a contiguous `seq`. */
  book: (assetId: string) => `/topic/book.${assetId}`,
  /** Trades on an asset. */
  trades: (assetId: string) => `/topic/trades.${assetId}`,
  /** Market watch rows of a market: asset, type, best bid and ask, participants, last update. */
  marketWatch: (marketId: string) => `/topic/market-watch.${marketId}`,
  /** Session phase of a market and its assets. */
  phase: (marketId: string) => `/topic/phase.${marketId}`,
  /** Session statistics of an asset. */
  stats: (assetId: string) => `/topic/stats.${assetId}`,
  /** Asset activity (orders created, traded, delta-T start...). */
  activity: (assetId: string) => `/topic/activity.${assetId}`,
  /** Private queues. */
  myOrders: '/user/queue/orders',
  myTrades: '/user/queue/trades',
  myMarketWatch: '/user/queue/market-watch',
  notifications: '/user/queue/notifications',
  chat: '/user/queue/chat',
  /** Clearing changes of the user's clients (settlements, payments, margin calls, warranties): ClearingChange. */
  clearing: '/user/queue/clearing',
  /** Workflow changes of instances the user takes part in (OTC, transfer, margin activation, contract, whitelist): WorkflowChange. */
  workflows: '/user/queue/workflows',
  /** Every workflow change, for administrators only (the approval queues): WorkflowChange. Others receive nothing on it. */
  workflowApprovals: '/user/queue/workflow-approvals',
  /** Operator console snapshots (OperatorSnapshot, protocol/operator.ts), for administrators only. */
  operator: '/user/queue/operator',
  /** Replies to orders sent over STOMP (orderEntry): one per SEND, with its correlation id. */
  orderReplies: '/user/queue/order-replies',
  /** Client-to-server SEND target for chat messages. */
  chatSend: '/app/chat',
  /** Client-to-server SEND target for order entry (add, modify, cancel) over STOMP; same rules and codes as REST. */
  orderEntry: '/app/orders',
} as const;

export type TopicKind = 'book' | 'trades' | 'marketWatch' | 'phase' | 'stats' | 'activity';
export type PrivateQueueKind =
  | 'myOrders'
  | 'myTrades'
  | 'myMarketWatch'
  | 'notifications'
  | 'chat'
  | 'clearing'
  | 'workflows'
  | 'workflowApprovals'
  | 'operator'
  | 'orderReplies';

export type ParsedDestination =
  | { kind: TopicKind; id: string }
  | { kind: PrivateQueueKind }
  | { kind: 'chatSend' }
  | { kind: 'orderEntry' };

const topicPrefixes: Array<[string, TopicKind]> = [
  ['/topic/book.', 'book'],
  ['/topic/trades.', 'trades'],
  ['/topic/market-watch.', 'marketWatch'],
  ['/topic/phase.', 'phase'],
  ['/topic/stats.', 'stats'],
  ['/topic/activity.', 'activity'],
];
const privateQueues: Array<[string, PrivateQueueKind]> = [
  [destinations.myOrders, 'myOrders'],
  [destinations.myTrades, 'myTrades'],
  [destinations.myMarketWatch, 'myMarketWatch'],
  [destinations.notifications, 'notifications'],
  [destinations.chat, 'chat'],
  [destinations.clearing, 'clearing'],
  [destinations.workflows, 'workflows'],
  [destinations.workflowApprovals, 'workflowApprovals'],
  [destinations.operator, 'operator'],
  [destinations.orderReplies, 'orderReplies'],
];
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Parses a destination name; null when it is not one of ours. */
export function parseDestination(destination: string): ParsedDestination | null {
  for (const [prefix, kind] of topicPrefixes) {
    if (destination.startsWith(prefix)) {
      const id = destination.slice(prefix.length);
      return idPattern.test(id) ? { kind, id } : null;
    }
  }
  for (const [name, kind] of privateQueues) if (destination === name) return { kind };
  if (destination === destinations.chatSend) return { kind: 'chatSend' };
  if (destination === destinations.orderEntry) return { kind: 'orderEntry' };
  return null;
}
