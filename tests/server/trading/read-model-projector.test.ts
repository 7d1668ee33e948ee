import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../server/store/store.ts';
import { TradingRepository, type ProjectionBatch } from '../../../server/store/trading.repository.ts';
import { ReadModelProjector } from '../../../server/trading/read-model-projector.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/**
 * A repository whose writes fail on demand: `before` the statement runs (the database was away) or
 * `after` it committed (the answer was lost), which is what a connection cut mid-write can give.
 */
class FlakyRepository extends TradingRepository {
  failures: Array<'before' | 'after'> = [];
  attempts = 0;
  failed = { before: 0, after: 0 };

  override async writeBatch(batch: ProjectionBatch): Promise<void> {
    this.attempts++;
    const failure = this.failures.shift();
    if (failure) this.failed[failure]++;
    if (failure === 'before') throw new Error('Connection terminated unexpectedly');
    await super.writeBatch(batch);
    if (failure === 'after') throw new Error('Connection terminated unexpectedly');
  }
}

let t: TestServer;
let second: Store;
let flaky: FlakyRepository;
let projector: ReadModelProjector;

beforeAll(async () => {
  t = await startTestServer();
  second = await openStore({});
  flaky = new FlakyRepository(second.db);
  projector = new ReadModelProjector(flaky, 0, 10);
  // The same events the server's own projector gets, into a store of its own through failing writes.
  t.server.sequencer.onEvents((events, _entry, _result, seq) => projector.onEvents(events, seq));
});

afterAll(async () => {
  await projector?.stop();
  await second?.close();
  await t?.server.close();
});

async function rows(store: Store) {
  const [orders, events, transactions, watermark] = await Promise.all([
    store.db.query('select order_id::text, status, data from orders order by order_id'),
    store.db.query('select journal_seq::text, event_index, order_id::text, kind, data from order_events order by journal_seq, event_index'),
    store.db.query('select transaction_id::text, data from transactions order by transaction_id'),
    store.trading.watermark(),
  ]);
  return { orders, events, transactions, watermark };
}

describe('ReadModelProjector', () => {
  it('retries failed writes from its watermark and ends with exactly the rows of a projection that never failed', async () => {
    const token1 = await t.login('broker1');
    const token2 = await t.login('broker2');
    let key = 0;
    const place = async (token: string, way: 'bid' | 'ask', price: number, clientCode: string) => {
      const reply = await t.post('/orders', { idempotencyKey: `projector-${String(++key).padStart(5, '0')}`, assetId: 'GSPOT-DA', way, price, qty: 10, validityType: 'day', clientCode }, token);
      expect(reply.status).toBe(201);
    };
    const states: string[] = [];
    for (let round = 0; round < 4; round++) {
      // Rounds 1 and 3 write through failures, before the statement and after its commit (backoff 250, 500, 1000 ms).
      if (round === 1) flaky.failures.push('before', 'after', 'before');
      if (round === 3) flaky.failures.push('after', 'before');
      for (let index = 0; index < 12; index++) {
        if (index % 3 === 2) await place(token2, 'bid', 15_000, 'RO-TERMO');
        else await place(token1, 'ask', 15_000 + (index % 2) * 100, 'RO-HIDRO');
      }
      const deadline = Date.now() + 15_000;
      while (projector.health.status !== 'ok' || projector.health.behindBy > 0 || flaky.failures.length > 0) {
        if (!states.includes(projector.health.status)) states.push(projector.health.status);
        if (Date.now() > deadline) throw new Error(`projector stuck: ${JSON.stringify(projector.health)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    await t.server.projector.settled();
    await projector.settled();

    const reference = await rows(t.server.store);
    const projected = await rows(second);
    const lost = (a: unknown[], b: unknown[]) => Math.max(0, b.length - a.length);
    const duplicated = (a: unknown[], b: unknown[]) => Math.max(0, a.length - b.length);
    const tables = [projected.orders, projected.events, projected.transactions] as const;
    const references = [reference.orders, reference.events, reference.transactions] as const;
    const lostRows = tables.reduce((sum, rows, i) => sum + lost(rows, references[i]!), 0);
    const duplicatedRows = tables.reduce((sum, rows, i) => sum + duplicated(rows, references[i]!), 0);
    console.log(
      `read-model-projector: tried ${flaky.attempts} writes, ${flaky.failed.before + flaky.failed.after} failed (${flaky.failed.before} before, ${flaky.failed.after} after the commit); ` +
        `lost ${lostRows}, duplicated ${duplicatedRows} (${reference.orders.length} orders, ${reference.events.length} order events, ${reference.transactions.length} transactions)`,
    );
    expect(states).toContain('degraded');
    expect(flaky.failed).toEqual({ before: 3, after: 2 });
    expect(reference.orders.length).toBeGreaterThan(40);
    expect(reference.transactions.length).toBeGreaterThan(0);
    expect(projected).toEqual(reference);
    expect(projector.health).toEqual({ status: 'ok', behindBy: 0, writtenSeq: t.server.sequencer.lastJournalSeq });
  }, 30_000);
});
