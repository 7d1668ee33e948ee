import { escapeHeader } from './frame-codec.ts';

/**
 * Subscription index of the gateway. Topic subscriptions are keyed by the destination; private
 * `/user/queue/*` subscriptions by user and destination, so that a queue name never leaks across
 * users.
 */

/** What the registry needs from a connection to deliver a frame. */
export interface DeliveryTarget {
  /** Sends prepared frame bytes; false when the connection is gone or was just dropped. */
  sendRaw(frame: Buffer): boolean;
}

export interface Subscription {
  /** The client's `id` header, unique within its connection. */
  readonly id: string;
  /** The destination as the client named it. */
  readonly destination: string;
  /** Index key: the destination for topics, user + destination for private queues. */
  readonly key: string;
  readonly target: DeliveryTarget;
}

export function topicKey(destination: string): string {
  return destination;
}

/** Destinations never contain NUL (parseDestination allows no such character), so keys cannot collide. */
export function privateKey(userId: string, destination: string): string {
  return `${userId}\u0000${destination}`;
}

/**
 * The subscriptions of one connection under one key. A connection may subscribe to a destination
 * several times (one per view watching it); delivery then builds one WebSocket message for all its ids.
 */
export interface SubscriberGroup {
  readonly target: DeliveryTarget;
  readonly subscriptions: Subscription[];
  /** The ids joined by NUL (ids never hold a NUL): connections with the same ids share frame bytes. */
  idsKey: string;
  /** The ids as escaped header bytes, ready to splice into a prepared MESSAGE. */
  idBytes: Buffer[];
}

export class SubscriptionRegistry {
  private readonly byKey = new Map<string, Map<DeliveryTarget, SubscriberGroup>>();
  private readonly countByDestination = new Map<string, number>();
  /** Subscriptions held across all connections. */
  total = 0;

  add(subscription: Subscription): void {
    let groups = this.byKey.get(subscription.key);
    if (!groups) {
      groups = new Map();
      this.byKey.set(subscription.key, groups);
    }
    let group = groups.get(subscription.target);
    if (!group) {
      group = { target: subscription.target, subscriptions: [], idsKey: '', idBytes: [] };
      groups.set(subscription.target, group);
    }
    if (group.subscriptions.includes(subscription)) return;
    group.subscriptions.push(subscription);
    group.idsKey = idsKeyOf(group.subscriptions);
    group.idBytes.push(idBytesOf(subscription.id));
    this.total++;
    this.countByDestination.set(subscription.destination, (this.countByDestination.get(subscription.destination) ?? 0) + 1);
  }

  remove(subscription: Subscription): void {
    const groups = this.byKey.get(subscription.key);
    const group = groups?.get(subscription.target);
    const index = group ? group.subscriptions.indexOf(subscription) : -1;
    if (!groups || !group || index === -1) return;
    group.subscriptions.splice(index, 1);
    group.idBytes.splice(index, 1);
    this.total--;
    if (group.subscriptions.length === 0) {
      groups.delete(subscription.target);
      if (groups.size === 0) this.byKey.delete(subscription.key);
    } else {
      group.idsKey = idsKeyOf(group.subscriptions);
    }
    const count = (this.countByDestination.get(subscription.destination) ?? 1) - 1;
    if (count <= 0) this.countByDestination.delete(subscription.destination);
    else this.countByDestination.set(subscription.destination, count);
  }

  /** Live groups under a key, one per connection (do not keep it). */
  get(key: string): ReadonlyMap<DeliveryTarget, SubscriberGroup> | undefined {
    return this.byKey.get(key);
  }

  /** Subscriptions to a destination across all connections (all users for a private queue). */
  count(destination: string): number {
    return this.countByDestination.get(destination) ?? 0;
  }
}

export function idBytesOf(id: string): Buffer {
  return Buffer.from(escapeHeader(id), 'utf8');
}

function idsKeyOf(subscriptions: Subscription[]): string {
  return subscriptions.length === 1 ? subscriptions[0]!.id : subscriptions.map((subscription) => subscription.id).join('\u0000');
}
