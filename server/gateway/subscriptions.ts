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

export class SubscriptionRegistry {
  private readonly byKey = new Map<string, Set<Subscription>>();
  private readonly countByDestination = new Map<string, number>();

  add(subscription: Subscription): void {
    let set = this.byKey.get(subscription.key);
    if (!set) {
      set = new Set();
      this.byKey.set(subscription.key, set);
    }
    if (set.has(subscription)) return;
    set.add(subscription);
    this.countByDestination.set(subscription.destination, (this.countByDestination.get(subscription.destination) ?? 0) + 1);
  }

  remove(subscription: Subscription): void {
    const set = this.byKey.get(subscription.key);
    if (!set?.delete(subscription)) return;
    if (set.size === 0) this.byKey.delete(subscription.key);
    const count = (this.countByDestination.get(subscription.destination) ?? 1) - 1;
    if (count <= 0) this.countByDestination.delete(subscription.destination);
    else this.countByDestination.set(subscription.destination, count);
  }

  /** Live set of subscriptions under a key (do not keep it). */
  get(key: string): ReadonlySet<Subscription> | undefined {
    return this.byKey.get(key);
  }

  /** Subscriptions to a destination across all connections (all users for a private queue). */
  count(destination: string): number {
    return this.countByDestination.get(destination) ?? 0;
  }
}
