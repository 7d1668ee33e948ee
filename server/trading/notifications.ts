import { destinations, type Notification } from '../../protocol/index.ts';
import { limitPriceOf } from '../engine/events.ts';
import type { Actor, EngineEvent, OrderEvent } from '../engine/types.ts';
import type { StompGateway } from '../gateway/stomp-gateway.ts';
import type { Store } from '../store/store.ts';

export interface NotificationOptions {
  gateway: Pick<StompGateway, 'sendToUser'>;
  /** Which users act for a client code. */
  usersOfClient: (clientCode: string) => readonly string[];
  /** Which users see a market. */
  usersOfMarket: (marketId: string) => readonly string[];
}

/**
 * The message keys the client translates (src/i18n/messages/notifications.ts); values are raw
 * (ids, minor units, enum values) so the client formats them in its language and number format.
 */
export const notificationMessageKeys = {
  orderTraded: 'notifications.orderTraded',
  orderExpired: 'notifications.orderExpired',
  orderCancelled: 'notifications.orderCancelled',
  phaseChanged: 'notifications.phaseChanged',
  /** Workflow events (OTC, transfers, contracts, whitelist) come with the workflows. */
  workflow: 'notifications.workflow',
} as const;

type Values = Notification['values'];

/**
 * Publishes on `/user/queue/notifications` what a user did not do themselves but should know:
 * their clients' orders traded (one per transaction and side), expired or cancelled by the system
 * (an IOC rest), and phase changes of the markets they see. Nothing is stored: a notification is news.
 */
export class NotificationPublisher {
  private seq = 0;
  /** Distinguishes ids across restarts within one browser session. */
  private readonly prefix = Date.now().toString(36);

  constructor(private readonly options: NotificationOptions) {}

  /**
   * The sequencer's listener. `actor` is who sent the command: a cancellation by someone who does not
   * act for the order's client (the exchange operator) is news to the client's users.
   */
  onEvents = (events: EngineEvent[], actor?: Actor): void => {
    // A market-wide phase change also changes each asset: one notification for the market.
    let marketPhases: Map<string, string> | null = null;
    for (const event of events) {
      switch (event.type) {
        case 'trade': {
          const t = event;
          const at = new Date(t.at).toISOString();
          const base = { transactionId: String(t.transactionId), assetId: t.product.assetId, qty: t.qty, price: t.price };
          this.toClient(t.buyer, 'orderTraded', { ...base, orderId: String(t.buyOrderId), way: 'bid', clientCode: t.buyer }, at);
          this.toClient(t.seller, 'orderTraded', { ...base, orderId: String(t.sellOrderId), way: 'ask', clientCode: t.seller }, at);
          break;
        }
        case 'order': {
          const { clientCode } = event.header;
          if (event.kind === 'expired') this.toClient(clientCode, 'orderExpired', orderValues(event), new Date(event.at).toISOString());
          else if (event.kind === 'cancelled' && event.reason !== undefined && event.reason !== 'user') {
            this.toClient(clientCode, 'orderCancelled', { ...orderValues(event), reason: event.reason }, new Date(event.at).toISOString());
          } else if (event.kind === 'cancelled' && actor?.userId !== undefined && !this.options.usersOfClient(clientCode).includes(actor.userId)) {
            this.toClient(clientCode, 'orderCancelled', { ...orderValues(event), reason: 'operator' }, new Date(event.at).toISOString());
          }
          break;
        }
        case 'phase': {
          if (event.assetId === null) (marketPhases ??= new Map()).set(event.marketId, event.phase);
          else if (marketPhases?.get(event.marketId) === event.phase) break;
          const values: Values = { marketId: event.marketId, assetId: event.assetId ?? '', phase: event.phase, previous: event.previous, sessionDate: event.sessionDate };
          const notification = this.make('phaseChanged', values, new Date(event.at).toISOString());
          for (const userId of this.options.usersOfMarket(event.marketId)) this.options.gateway.sendToUser(userId, destinations.notifications, notification);
          break;
        }
        default:
          break;
      }
    }
  };

  /**
   * The operator suspended or reinstated a participant (server/participants/): news for the users
   * who act as it (a broker) or for it (a client). A suspension carries the refusal's own message
   * (error.PARTICIPANT_SUSPENDED, with its code), so the client words it in its language.
   */
  participantChanged(userIds: readonly string[], change: { kind: string; id: string; suspended: boolean }, at: string): void {
    const values: Values = { participantKind: change.kind, participant: change.id };
    const notification: Notification = change.suspended
      ? { id: `${this.prefix}-${++this.seq}`, kind: 'system', messageKey: 'error.PARTICIPANT_SUSPENDED', values: { ...values, code: 'PARTICIPANT_SUSPENDED' }, at }
      : { id: `${this.prefix}-${++this.seq}`, kind: 'system', messageKey: 'notifications.participantReinstated', values, at };
    for (const userId of userIds) this.options.gateway.sendToUser(userId, destinations.notifications, notification);
  }

  private toClient(clientCode: string, kind: 'orderTraded' | 'orderExpired' | 'orderCancelled', values: Values, at: string): void {
    const users = this.options.usersOfClient(clientCode);
    if (users.length === 0) return;
    const notification = this.make(kind, values, at);
    for (const userId of users) this.options.gateway.sendToUser(userId, destinations.notifications, notification);
  }

  private make(kind: keyof typeof notificationMessageKeys, values: Values, at: string): Notification {
    return { id: `${this.prefix}-${++this.seq}`, kind, messageKey: notificationMessageKeys[kind], values, at };
  }
}

/** What a notification names of an order: its open quantity, and its price unless a market order. */
function orderValues(event: OrderEvent): Values {
  const { header } = event;
  const values: Values = { orderId: String(event.orderId), assetId: header.product.assetId, way: header.way, qty: event.remaining, clientCode: header.clientCode };
  const price = limitPriceOf(event);
  if (price !== null) values.price = price;
  return values;
}

/** Users per market, from the users' `market_ids` (read once at start, like the client index). */
export async function usersByMarket(store: Store): Promise<Map<string, string[]>> {
  const rows = await store.db.query<{ id: string; market_ids: string[] }>('select id, market_ids from users');
  const byMarket = new Map<string, string[]>();
  for (const row of rows) for (const marketId of row.market_ids) byMarket.set(marketId, [...(byMarket.get(marketId) ?? []), row.id]);
  return byMarket;
}
