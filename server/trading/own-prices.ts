import type { Way } from '../../protocol/index.ts';
import type { OrderView } from '../engine/types.ts';

interface Tracked {
  way: Way;
  price: number;
}

/** One client's priced, active (not suspended) orders on one asset, counted per price. */
class ClientPrices {
  readonly orders = new Map<number, Tracked | null>();
  readonly bid = new Map<number, number>();
  readonly ask = new Map<number, number>();

  get empty(): boolean {
    return this.orders.size === 0;
  }

  get active(): boolean {
    return this.bid.size + this.ask.size > 0;
  }

  best(way: Way): number | null {
    let best: number | null = null;
    for (const price of this[way].keys()) if (best === null || (way === 'bid' ? price > best : price < best)) best = price;
    return best;
  }
}

/**
 * Live orders per asset and client, kept from the engine's order events, so market watch can tell
 * participants and each user's own best bid and ask without scanning orders: a best price costs the
 * number of distinct prices a client has on the asset, not the number of its orders.
 */
export class OwnPrices {
  private readonly assets = new Map<string, Map<string, ClientPrices>>();

  /** Applies an order's new state (finished orders leave). */
  track(order: OrderView): void {
    this.apply(order.assetId, order.clientCode, order.orderId, order.way, order.price, order.suspended, order.status === 'traded' || order.status === 'cancelled');
  }

  /** The same from an order's fields (an order event needs no full view for it); `price` null: a market order. */
  apply(assetId: string, clientCode: string, orderId: number, way: Way, price: number | null, suspended: boolean, finished: boolean): void {
    let clients = this.assets.get(assetId);
    if (!clients) this.assets.set(assetId, (clients = new Map()));
    let prices = clients.get(clientCode);
    if (!prices) clients.set(clientCode, (prices = new ClientPrices()));
    const before = prices.orders.get(orderId);
    if (before) decrement(prices[before.way], before.price);
    if (finished) prices.orders.delete(orderId);
    else {
      const counted = !suspended && price !== null ? { way, price } : null;
      prices.orders.set(orderId, counted);
      if (counted) prices[counted.way].set(counted.price, (prices[counted.way].get(counted.price) ?? 0) + 1);
    }
    if (prices.empty) clients.delete(clientCode);
  }

  /** Clients with at least one active priced order on the asset. */
  participants(assetId: string): number {
    let count = 0;
    for (const prices of this.assets.get(assetId)?.values() ?? []) if (prices.active) count++;
    return count;
  }

  /** The best bid and ask over the given clients' active orders on the asset. */
  best(assetId: string, clientCodes: readonly string[]): { bid: number | null; ask: number | null } {
    let bid: number | null = null;
    let ask: number | null = null;
    const clients = this.assets.get(assetId);
    for (const clientCode of clientCodes) {
      const prices = clients?.get(clientCode);
      if (!prices) continue;
      const clientBid = prices.best('bid');
      const clientAsk = prices.best('ask');
      if (clientBid !== null && (bid === null || clientBid > bid)) bid = clientBid;
      if (clientAsk !== null && (ask === null || clientAsk < ask)) ask = clientAsk;
    }
    return { bid, ask };
  }
}

function decrement(counts: Map<number, number>, price: number): void {
  const left = (counts.get(price) ?? 0) - 1;
  if (left > 0) counts.set(price, left);
  else counts.delete(price);
}
