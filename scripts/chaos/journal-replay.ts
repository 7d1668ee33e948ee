/**
 * The chaos run's own replay of the server's journal: after each kill it reads the records the dead
 * server left (read-only, as the restart will find them) and executes them on an engine of its own,
 * continuously from the first record. What the restarted server shows must agree with it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Order } from '../../protocol/market-data.ts';
import { Engine } from '../../server/engine/engine.ts';
import { orderViewOf } from '../../server/engine/events.ts';
import { decodeRecords, type JournalRecord } from '../../server/engine/journal/journal.ts';
import type { OrderEvent } from '../../server/engine/types.ts';
import type { JournalEntry } from '../../server/trading/sequencer.ts';
import { orderToWire } from '../../server/trading/wire.ts';

export interface KeyedRecord {
  seq: number;
  userId: string;
  orderId: string | null;
  /** The order right after that record: what an acknowledgement of it must have carried. */
  order: Order | null;
}

export class JournalReplay {
  readonly engine = new Engine();
  lastSeq = 0;
  /** Idempotency key → the journal records that carried it (more than one of one user is a duplicate). */
  readonly keys = new Map<string, KeyedRecord[]>();
  /** Order id → the order after its latest event (finished orders included). */
  readonly orders = new Map<string, Order>();

  /** The records on disk after the ones already applied, in order; throws on a gap (a record the replay never saw). */
  newRecords(journalDir: string): Array<JournalRecord<JournalEntry>> {
    const fresh: Array<JournalRecord<JournalEntry>> = [];
    let expected = this.lastSeq + 1;
    const segments = readdirSync(journalDir).filter((file) => /^journal-\d+\.log$/.test(file)).sort();
    for (const segment of segments) {
      // Whole records only: a torn tail is what the restart cuts off too.
      for (const record of decodeRecords<JournalEntry>(readFileSync(join(journalDir, segment))).records) {
        if (record.seq < expected) continue;
        if (record.seq !== expected) throw new Error(`journal gap: expected record ${expected}, found ${record.seq} in ${segment}`);
        fresh.push(record);
        expected++;
      }
    }
    return fresh;
  }

  /** Executes one record as the sequencer's replay does. */
  apply(record: JournalRecord<JournalEntry>): { orderId: string | null } {
    const result = this.engine.execute(record.entry.command);
    this.lastSeq = record.seq;
    const last = new Map<number, OrderEvent>();
    for (const event of result.events) if (event.type === 'order') last.set(event.orderId, event);
    for (const [orderId, event] of last) this.orders.set(String(orderId), orderToWire(orderViewOf(event)));
    const orderId = result.orderId === undefined ? null : String(result.orderId);
    const { meta } = record.entry;
    if (meta?.userId && meta.idempotencyKey) {
      const seen = this.keys.get(meta.idempotencyKey) ?? [];
      seen.push({ seq: record.seq, userId: meta.userId, orderId, order: orderId === null ? null : (this.orders.get(orderId) ?? null) });
      this.keys.set(meta.idempotencyKey, seen);
    }
    return { orderId };
  }

  /** Journal records beyond the first for one key: orders made twice. */
  duplicates(): number {
    let extra = 0;
    for (const records of this.keys.values()) extra += records.length - new Set(records.map((record) => record.userId)).size;
    return extra;
  }
}

/** The fields of an order every view of it agrees on (the queue position is only known to the live book). */
export function orderState(order: Order): string {
  const { orderId, assetId, clientCode, way, status, suspended, price, qty, tradedQty, offeredQty, offeredPrice, validityType, executionType } = order;
  return JSON.stringify({ orderId, assetId, clientCode, way, status, suspended, price, qty, tradedQty, offeredQty, offeredPrice, validityType, executionType });
}
