import { describe, expect, it } from 'vitest';
import type { Order, SessionStats, Transaction } from '../../../protocol/index.ts';
import type { OrderEvent } from '../../../protocol/order-history.ts';
import { openStore, type Store } from '../../../server/store/store.ts';
import { ROWS_PER_STATEMENT, TradingRepository, type OrderEventRow, type ProjectionBatch } from '../../../server/store/trading.repository.ts';
import { testDatabases } from '../../helpers/test-databases.ts';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 25, 9, 0, 0) + ms).toISOString();

function order(id: number, status: Order['status'] = 'created'): Order {
  return {
    orderId: String(id),
    assetId: id % 3 === 0 ? 'GSPOT-WD' : 'GSPOT-DA',
    status,
    suspended: false,
    clientCode: id % 2 === 0 ? 'RO-HIDRO' : 'RO-TERMO',
    brokerId: 'BR1',
    way: id % 2 === 0 ? 'bid' : 'ask',
    price: 15_000 + (id % 17),
    qty: 10 * (1 + (id % 5)),
    noCnt: 0,
    totalQty: 10,
    powerPerInterval: null,
    tradedQty: status === 'traded' ? 10 : 0,
    tradedPrice: status === 'traded' ? 15_000 : null,
    offeredQty: 10,
    offeredPrice: 15_000,
    executionType: 'normal',
    validityType: 'day',
    validity: null,
    sessionDate: id % 4 === 0 ? '2026-11-24' : '2026-11-25',
    createdAt: at(id),
    lastModifiedAt: at(id + (status === 'created' ? 0 : 1000)),
    expiresAt: null,
    position: status === 'created' ? 1 + (id % 7) : null,
  };
}

function event(journalSeq: number, eventIndex: number, o: Order): OrderEventRow {
  const data: OrderEvent = {
    orderId: o.orderId,
    kind: o.status === 'traded' ? 'traded' : 'created',
    at: o.lastModifiedAt,
    status: o.status,
    suspended: o.suspended,
    price: o.price,
    qty: o.qty,
    offeredQty: o.offeredQty,
    tradedQty: o.tradedQty,
    tradedPrice: o.tradedPrice,
    validityType: o.validityType,
    validity: o.validity,
    reason: null,
    fills: o.status === 'traded' ? [{ transactionId: String(journalSeq), price: 15_000, qty: 10 }] : [],
  };
  return { journalSeq, eventIndex, clientCode: o.clientCode, event: data };
}

function transaction(id: number): Transaction {
  return {
    transactionId: String(id),
    assetId: 'GSPOT-DA',
    price: 15_000,
    qty: 10,
    noCnt: 0,
    aggressor: 'bid',
    txDate: '2026-11-25',
    timestamp: at(id),
    buyer: 'RO-HIDRO',
    seller: 'RO-TERMO',
    buyOrderId: String(id * 2),
    sellOrderId: String(id * 2 + 1),
    marginsExposureActive: false,
    externalTransactionId: null,
    gasfwTransactionId: null,
    transferTimestamp: null,
    parentTransactionId: null,
    grandParentTransactionId: null,
    splitTimestamp: null,
  } as Transaction;
}

function stats(assetId: string, sessionDate: string, lastPrice: number): SessionStats {
  return {
    assetId,
    sessionDate,
    minPrice: 14_000,
    maxPrice: 16_000,
    lastPrice,
    volume: 100,
    transactions: 3,
    closingPrice: null,
    tradeableQty: null,
    surplusQty: null,
    settlementPrice: null,
    at: at(0),
  } as SessionStats;
}

/** Orders 1..n created (one event each, a record per order), `trades` transactions, two statistics rows. */
function batch(n: number, trades: number, watermark: number | null, firstSeq = 1): ProjectionBatch {
  const orders = Array.from({ length: n }, (_, index) => order(index + 1));
  return {
    orders,
    orderEvents: orders.map((o, index) => event(firstSeq + index, 0, o)),
    transactions: Array.from({ length: trades }, (_, index) => transaction(index + 1)),
    stats: [stats('GSPOT-DA', '2026-11-25', 15_000), stats('GSPOT-WD', '2026-11-25', 15_100)],
    watermark,
  };
}

/** The batch written with the per-table statements one by one (what the projector did before writeBatch's slices). */
async function writeTableByTable(store: Store, written: ProjectionBatch): Promise<void> {
  await store.db.transaction(async (tx) => {
    const repository = new TradingRepository(tx);
    for (let start = 0; start < Math.max(written.transactions.length, written.orders.length, written.orderEvents.length, 1); start += ROWS_PER_STATEMENT) {
      await repository.insertTransactions(written.transactions.slice(start, start + ROWS_PER_STATEMENT));
      await repository.upsertOrders(written.orders.slice(start, start + ROWS_PER_STATEMENT));
      await repository.insertOrderEvents(written.orderEvents.slice(start, start + ROWS_PER_STATEMENT));
    }
    await repository.upsertStats(written.stats);
    if (written.watermark !== null) await repository.setWatermark(written.watermark);
  });
}

/** Every row of the read-model tables, in key order, with every column. */
async function tables(store: Store) {
  const query = (sql: string) => store.db.query(sql);
  return {
    orders: await query('select order_id::text as id, asset_id, client_code, status, way, session_date, data, updated_at::text as updated from orders order by order_id'),
    orderEvents: await query('select journal_seq::text as seq, event_index, order_id::text as id, client_code, kind, at::text as at_text, data from order_events order by journal_seq, event_index'),
    transactions: await query('select transaction_id::text as id, asset_id, buyer, seller, data, ts::text as ts_text from transactions order by transaction_id'),
    stats: await query('select asset_id, session_date, data from session_stats order by asset_id, session_date'),
    watermark: await query("select journal_seq::text from projection_watermark where name = 'trading'"),
  };
}

describe.each(testDatabases)('TradingRepository.writeBatch on $name', (database) => {
  async function withStores(work: (sliced: Store, byTable: Store) => Promise<void>): Promise<void> {
    const targets = [await database.create(), await database.create()];
    const stores = [await openStore(targets[0]!), await openStore(targets[1]!)];
    try {
      await work(stores[0]!, stores[1]!);
    } finally {
      for (const store of stores) await store.close();
      for (const target of targets) await target.drop();
    }
  }

  it('stores exactly the rows the per-table statements store, over several slices, upserts and a replay', async () => {
    await withStores(async (sliced, byTable) => {
      // Three slices of orders and events, two of transactions.
      const first = batch(2 * ROWS_PER_STATEMENT + 37, ROWS_PER_STATEMENT + 3, 1_037);
      await sliced.trading.writeBatch(first);
      await writeTableByTable(byTable, first);
      const afterFirst = await tables(sliced);
      expect(afterFirst).toEqual(await tables(byTable));
      expect(afterFirst.orders).toHaveLength(2 * ROWS_PER_STATEMENT + 37);
      expect(afterFirst.orderEvents).toHaveLength(2 * ROWS_PER_STATEMENT + 37);
      expect(afterFirst.transactions).toHaveLength(ROWS_PER_STATEMENT + 3);
      expect(afterFirst.watermark).toEqual([{ journal_seq: '1037' }]);
      expect(afterFirst.orders[41]).toMatchObject({ id: '42', status: 'created', way: 'bid', session_date: '2026-11-25', data: order(42) });
      expect(afterFirst.orderEvents[0]!.data).toEqual(first.orderEvents[0]!.event);

      // Orders change (upserts), events of new records, the earlier ones again (a replay: skipped),
      // new statistics for a key, and a lower watermark (which never moves back).
      const traded = Array.from({ length: 700 }, (_, index) => order(index + 1, 'traded'));
      const second: ProjectionBatch = {
        orders: traded,
        orderEvents: [...first.orderEvents.slice(0, 20), ...traded.map((o, index) => event(2_000 + index, 1, o))],
        transactions: [transaction(1), transaction(9_999)],
        stats: [stats('GSPOT-DA', '2026-11-25', 15_555)],
        watermark: 900,
      };
      await sliced.trading.writeBatch(second);
      await writeTableByTable(byTable, second);
      const afterSecond = await tables(sliced);
      expect(afterSecond).toEqual(await tables(byTable));
      expect(afterSecond.orders.filter((row) => row.status === 'traded')).toHaveLength(700);
      expect(afterSecond.orderEvents).toHaveLength(2 * ROWS_PER_STATEMENT + 37 + 700);
      expect(afterSecond.transactions).toHaveLength(ROWS_PER_STATEMENT + 4);
      expect(afterSecond.stats.find((row) => row.asset_id === 'GSPOT-DA')!.data).toMatchObject({ lastPrice: 15_555 });
      expect(afterSecond.watermark).toEqual([{ journal_seq: '1037' }]);
    });
  });

  it('writes a one-slice batch as one statement, and a watermark alone', async () => {
    await withStores(async (sliced, byTable) => {
      const small = batch(12, 2, 12);
      await sliced.trading.writeBatch(small);
      await writeTableByTable(byTable, small);
      expect(await tables(sliced)).toEqual(await tables(byTable));
      const watermarkOnly: ProjectionBatch = { orders: [], orderEvents: [], transactions: [], stats: [], watermark: 40 };
      await sliced.trading.writeBatch(watermarkOnly);
      await writeTableByTable(byTable, watermarkOnly);
      expect(await tables(sliced)).toEqual(await tables(byTable));
      expect(await sliced.trading.watermark()).toBe(40);
    });
  });

  it('stores text that COPY escapes (tabs, line ends, backslashes) and any Unicode exactly as the statements do', async () => {
    await withStores(async (sliced, byTable) => {
      const awkward = batch(4, 1, 4);
      const text = 'tab\there\nline\rend \\ back \\N ȚĂRANU "q" 🚀';
      awkward.orders[1] = { ...awkward.orders[1]!, clientCode: `RO-${text}`, brokerId: text };
      awkward.orderEvents[1] = { ...awkward.orderEvents[1]!, clientCode: `RO-${text}`, event: { ...awkward.orderEvents[1]!.event, fills: [{ transactionId: text, price: 15_000, qty: 10 }] } };
      awkward.transactions[0] = { ...awkward.transactions[0]!, buyer: `RO-${text}` };
      awkward.stats[0] = { ...awkward.stats[0]!, assetId: `GSPOT-${text}` };
      await sliced.trading.writeBatch(awkward);
      await writeTableByTable(byTable, awkward);
      const written = await tables(sliced);
      expect(written).toEqual(await tables(byTable));
      expect(written.orders[1]).toMatchObject({ client_code: `RO-${text}`, data: { brokerId: text } });
      expect(written.orderEvents[1]!.data).toMatchObject({ fills: [{ transactionId: text }] });
      expect(written.transactions[0]).toMatchObject({ buyer: `RO-${text}` });
      expect(written.stats.map((row) => row.asset_id)).toContain(`GSPOT-${text}`);
    });
  });

  it('writes nothing of a batch whose later slice fails, nor its watermark', async () => {
    await withStores(async (sliced) => {
      await sliced.trading.writeBatch(batch(3, 0, 3));
      const failing = batch(ROWS_PER_STATEMENT + 10, 0, 5_000, 100);
      // Slice 2 holds an order whose id is no number: its statement fails after slice 1 was written.
      failing.orders[ROWS_PER_STATEMENT + 5] = { ...failing.orders[ROWS_PER_STATEMENT + 5]!, orderId: 'not-a-number' };
      await expect(sliced.trading.writeBatch(failing)).rejects.toThrow();
      const after = await tables(sliced);
      expect(after.orders).toHaveLength(3);
      expect(after.orderEvents).toHaveLength(3);
      expect(after.watermark).toEqual([{ journal_seq: '3' }]);
    });
  });
});
