/**
 * Live orders by id. Ids come from a counter, so a direct-address table in chunks of 4,096 slots
 * replaces a hash map: a lookup is two array reads, an insert or delete touches one slot, and a chunk
 * is dropped when its last order leaves. (A Map<number, Order> under constant insert/delete churn
 * spends its time rehashing.)
 */
import type { OrderState } from './state.ts';

const BITS = 12;
const SIZE = 1 << BITS;
const MASK = SIZE - 1;

class Chunk {
  readonly slots: Array<OrderState | null> = new Array<OrderState | null>(SIZE).fill(null);
  count = 0;
}

export class OrderIndex {
  private readonly chunks: Array<Chunk | null> = [];
  /** Emptied chunks kept for reuse (all their slots are null again). */
  private readonly spare: Chunk[] = [];
  private live = 0;

  get size(): number {
    return this.live;
  }

  get(id: number): OrderState | undefined {
    if (!(id >= 0 && Number.isSafeInteger(id))) return undefined;
    const chunk = this.chunks[id >>> BITS];
    if (chunk === undefined || chunk === null) return undefined;
    return chunk.slots[id & MASK] ?? undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, order: OrderState): void {
    const k = id >>> BITS;
    const chunks = this.chunks;
    while (chunks.length <= k) chunks.push(null);
    let chunk = chunks[k]!;
    if (chunk === null) {
      chunk = this.spare.pop() ?? new Chunk();
      chunks[k] = chunk;
    }
    const i = id & MASK;
    if (chunk.slots[i] === null) {
      chunk.count++;
      this.live++;
    }
    chunk.slots[i] = order;
  }

  delete(id: number): boolean {
    const k = id >>> BITS;
    const chunk = this.chunks[k];
    if (chunk === undefined || chunk === null) return false;
    const i = id & MASK;
    if (chunk.slots[i] === null) return false;
    chunk.slots[i] = null;
    this.live--;
    if (--chunk.count === 0) {
      this.chunks[k] = null;
      if (this.spare.length < 8) this.spare.push(chunk);
    }
    return true;
  }

  /** Live orders in id order. */
  *values(): IterableIterator<OrderState> {
    for (const chunk of this.chunks) {
      if (chunk === null) continue;
      for (const o of chunk.slots) if (o !== null) yield o;
    }
  }

  keys(): number[] {
    const out: number[] = [];
    for (const o of this.values()) out.push(o.id);
    return out;
  }

  entries(): Array<[number, OrderState]> {
    const out: Array<[number, OrderState]> = [];
    for (const o of this.values()) out.push([o.id, o]);
    return out;
  }

  [Symbol.iterator](): IterableIterator<[number, OrderState]> {
    return this.entries()[Symbol.iterator]();
  }
}
