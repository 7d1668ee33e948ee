import { mkdtempSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerHealth } from '../../../protocol/health.ts';
import type { JournalIo } from '../../../server/engine/journal/journal.ts';
import { createPostgresSchema, type PostgresSchema } from '../../helpers/postgres-schema.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/**
 * Fault: the journal cannot be written (a full disk), docs/reliability.md "Faults". The journal's disk
 * operations go through a seam that, while `full`, writes half of a batch (a torn record, as a disk
 * that fills mid-write leaves) and then fails with ENOSPC, and fails every sync; while `syncFails`,
 * writes go through whole and only the syncs fail.
 */
class FullDisk implements JournalIo {
  full = false;
  syncFails = false;
  failedWrites = 0;

  async writev(handle: FileHandle, buffers: Buffer[], position: number): Promise<{ bytesWritten: number }> {
    if (!this.full) return handle.writev(buffers, position);
    this.failedWrites++;
    const bytes = Buffer.concat(buffers);
    // Half a batch reaches the file: recovery must cut it off, never replay a partial record.
    if (bytes.length > 16) await handle.write(bytes, 0, Math.floor(bytes.length / 2), position);
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  }

  async datasync(handle: FileHandle): Promise<void> {
    if (this.full || this.syncFails) throw Object.assign(new Error('ENOSPC: no space left on device, fdatasync'), { code: 'ENOSPC', errno: -28, syscall: 'fdatasync' });
    await handle.datasync();
  }
}

const asset = 'GSPOT-DA';
const REFUSED_PRICE = 17_300;
const ORDERS_WITH_DISK_FULL = 30;

let dataDir: string;
let schema: PostgresSchema;
let t: TestServer;
let disk: FullDisk;
let token1: string;
let token2: string;
let key = 0;

function order(token: string, way: 'bid' | 'ask', price: number, clientCode: string, idempotencyKey = `journal-${String(++key).padStart(6, '0')}`) {
  return t.post('/orders', { idempotencyKey, assetId: asset, way, price, qty: 10, validityType: 'day', clientCode }, token);
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** What a restart must give back: every live order of the engine, and the asset's book. */
function engineState(server: TestServer) {
  const engine = server.server.sequencer.engine;
  return { orders: engine.listOrders({ assetId: asset }), book: engine.getBook(asset) };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fault-journal-'));
  schema = await createPostgresSchema();
  disk = new FullDisk();
  t = await startTestServer({ dataDir, databaseUrl: schema.url(), journalIo: disk });
  token1 = await t.login('broker1');
  token2 = await t.login('broker2');
});

afterAll(async () => {
  await t?.server.close();
  await schema?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the journal cannot be written (disk full)', () => {
  it('refuses new orders with SERVICE_UNAVAILABLE, loses no acknowledged order, resumes and replays to the same state', async () => {
    const acked = new Map<string, string>();
    const ack = (reply: { status: number; body: { order: { orderId: string; status: string } } }) => {
      expect(reply.status).toBe(201);
      acked.set(reply.body.order.orderId, reply.body.order.status);
    };
    for (let index = 0; index < 10; index++) ack(await order(index % 2 ? token2 : token1, index % 2 ? 'bid' : 'ask', index % 2 ? 14_000 : 16_000, index % 2 ? 'RO-TERMO' : 'RO-HIDRO'));
    const seqBefore = t.server.sequencer.lastJournalSeq;

    disk.full = true;
    // The first ones arrive together: several are in the failing batch, the rest after it.
    const refusedKeys: string[] = [];
    const first = await Promise.all(
      Array.from({ length: 10 }, () => {
        const idempotencyKey = `journal-${String(++key).padStart(6, '0')}`;
        refusedKeys.push(idempotencyKey);
        return order(token1, 'ask', REFUSED_PRICE, 'RO-HIDRO', idempotencyKey);
      }),
    );
    const later = [];
    for (let index = 10; index < ORDERS_WITH_DISK_FULL; index++) {
      later.push(await order(token1, 'ask', REFUSED_PRICE, 'RO-HIDRO'));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const replies = [...first, ...later];
    const refused = replies.filter((reply) => reply.status === 503 && reply.body.error.code === 'SERVICE_UNAVAILABLE').length;
    expect(disk.failedWrites).toBeGreaterThan(0);
    expect(refused).toBe(ORDERS_WITH_DISK_FULL);
    const degraded = (await t.get('/health')).body as ServerHealth;
    expect(degraded).toMatchObject({ status: 'degraded', journal: { status: 'unavailable', lastSeq: expect.any(Number) } });

    // Reloaded from the journal: no refused order is on the book or among the live orders.
    await until(() => t.server.sequencer.lastJournalSeq === seqBefore, 2_000, 'the reload from the journal');
    const book = await t.get(`/books/${asset}`, token1);
    expect(JSON.stringify(book.body)).not.toContain(String(REFUSED_PRICE));
    const mine = await t.get(`/orders/mine?assetId=${asset}`, token1);
    expect(mine.body.items.filter((o: { price: number }) => o.price === REFUSED_PRICE)).toHaveLength(0);

    disk.full = false;
    await until(async () => ((await t.get('/health')).body as ServerHealth).journal.status === 'ok', 10_000, 'the journal to be writable again');
    // Trading resumes; a retry of a refused order makes exactly one order, a second retry gets the same one.
    const retried = await order(token1, 'ask', REFUSED_PRICE, 'RO-HIDRO', refusedKeys[0]);
    ack(retried);
    const again = await order(token1, 'ask', REFUSED_PRICE, 'RO-HIDRO', refusedKeys[0]);
    expect(again.body.order.orderId).toBe(retried.body.order.orderId);
    for (let index = 0; index < 10; index++) ack(await order(index % 2 ? token2 : token1, index % 2 ? 'bid' : 'ask', 15_000, index % 2 ? 'RO-TERMO' : 'RO-HIDRO'));
    expect((await t.get(`/orders/mine?assetId=${asset}`, token1)).body.items.filter((o: { price: number }) => o.price === REFUSED_PRICE)).toHaveLength(1);

    await t.server.projector.settled();
    const before = engineState(t);
    const clockAt = t.clock.now() + 60_000;
    await t.server.close();
    t = await startTestServer({ dataDir, databaseUrl: schema.url(), journalIo: disk }, clockAt);
    const after = engineState(t);
    expect(after).toEqual(before);

    // Every acknowledged order is in the engine (live) or in the read models (finished), none twice.
    const live = new Set(after.orders.map((o) => String(o.orderId)));
    const stored = await schema.query<{ order_id: string; status: string }>('select order_id::text, status from orders');
    const storedIds = new Set(stored.map((row) => row.order_id));
    const lost = [...acked.keys()].filter((id) => !live.has(id) && !storedIds.has(id)).length;
    const [duplicates] = await schema.query<{ n: string }>("select count(*)::text as n from (select data->>'orderId' from order_events where kind = 'created' group by 1 having count(*) > 1) d");
    console.log(
      `journal-write-failure: tried ${ORDERS_WITH_DISK_FULL} orders with the disk full, refused ${refused} (SERVICE_UNAVAILABLE), acked ${acked.size} around it; ` +
        `after restart lost ${lost}, duplicated ${duplicates!.n}, state equal ${JSON.stringify(after) === JSON.stringify(before)}`,
    );
    expect(lost).toBe(0);
    expect(Number(duplicates!.n)).toBe(0);
  }, 30_000);

  it('keeps an order whose record reached the disk whole though its sync failed: refused, then found by its retry, once', async () => {
    token1 = await t.login('broker1');
    const seqBefore = t.server.sequencer.lastJournalSeq;
    disk.syncFails = true;
    const idempotencyKey = 'journal-sync-000001';
    const refused = await order(token1, 'ask', REFUSED_PRICE + 100, 'RO-HIDRO', idempotencyKey);
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('SERVICE_UNAVAILABLE');
    // Reloaded from the journal, which holds the whole record: the order is there, and published.
    await until(() => t.server.sequencer.lastJournalSeq === seqBefore + 1 && !t.server.sequencer.available, 2_000, 'the reload');
    disk.syncFails = false;
    await until(() => t.server.sequencer.available, 10_000, 'the journal to be writable again');
    const retried = await order(token1, 'ask', REFUSED_PRICE + 100, 'RO-HIDRO', idempotencyKey);
    expect(retried.status).toBe(201);
    expect(retried.body.seq).toBe(seqBefore + 1);
    const live = (await t.get(`/orders/mine?assetId=${asset}`, token1)).body.items.filter((o: { price: number }) => o.price === REFUSED_PRICE + 100);
    expect(live.map((o: { orderId: string }) => o.orderId)).toEqual([retried.body.order.orderId]);
    await t.server.projector.settled();
    const stored = await schema.query<{ n: string }>('select count(*)::text as n from orders where order_id = $1::bigint', [retried.body.order.orderId]);
    console.log(`journal-write-failure: tried 1 order whose sync failed after a whole write: refused, kept by the reload, its retry found it (orders with its price: ${live.length})`);
    expect(stored[0]!.n).toBe('1');
  }, 30_000);
});
