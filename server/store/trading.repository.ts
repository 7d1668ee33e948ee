import type { Order, SessionStats, Transaction } from '../../protocol/index.ts';
import type { OrderEvent } from '../../protocol/order-history.ts';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { orderJson } from '../trading/wire.ts';
import { copyText } from './copy-text.ts';
import type { CopyLoad, Database, Queryable, Statement } from './database.ts';

/** One row of order_events: the event and where it sits in the journal. */
export interface OrderEventRow {
  journalSeq: number;
  eventIndex: number;
  clientCode: string;
  event: OrderEvent;
}

export interface OrderHistoryFilter {
  /** The clients whose orders may be listed; null: every client (administrator). */
  clientCodes: string[] | null;
  /** Assets allowed (the user's markets, narrowed by the asset or market filter). */
  assetIds: string[];
  way?: string | undefined;
  status?: string | undefined;
  clientCode?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  offset: number;
  limit: number;
}

/** A stored transaction's post-trade state (the engine's transactionUpdate event). */
export interface TransactionUpdateRow {
  transactionId: string;
  status: 'active' | 'superseded';
  marginsExposureActive: boolean;
}

/** What the read-model projector writes at once. */
export interface ProjectionBatch {
  transactions: Transaction[];
  /** Applied after every insert of the batch (a transaction registered and transferred in one batch is found). */
  transactionUpdates?: TransactionUpdateRow[];
  orders: Order[];
  orderEvents: OrderEventRow[];
  stats: SessionStats[];
  /** The journal record whose events the batch completes; null leaves the watermark where it is. */
  watermark: number | null;
}

/**
 * Rows of each table per statement: bounds each statement's JSON parameter, and so its stringify on
 * the caller's thread and its copy to PGlite's (a 500-row slice is about a millisecond of each).
 */
export const ROWS_PER_STATEMENT = 500;

/**
 * A slice of a batch in one statement: every table's rows as one JSON array parameter each
 * (jsonb_array_elements: one parse of the parameter, then fields read from binary jsonb; measured
 * faster than unnest() of typed arrays, whose jsonb[] element needs quoting and a parse of its own, by
 * 1.5-2.5x on PGlite and on PostgreSQL), and the watermark ($5, null: left where it is). Each table's
 * statement is the same as upsertOrders, insertOrderEvents, insertTransactions, upsertStats and
 * setWatermark run one by one; data-modifying CTEs all run, whether or not the query reads them.
 */
const WRITE_SLICE_SQL = `with
  written_transactions as (
    insert into transactions (transaction_id, asset_id, buyer, seller, data, ts)
    select (t->>'transactionId')::bigint, t->>'assetId', t->>'buyer', t->>'seller', t, (t->>'timestamp')::timestamptz
      from jsonb_array_elements($1::jsonb) as t
    on conflict (transaction_id) do nothing),
  written_orders as (
    insert into orders (order_id, asset_id, client_code, status, way, session_date, data, updated_at)
    select (o->>'orderId')::bigint, o->>'assetId', o->>'clientCode', o->>'status', o->>'way', o->>'sessionDate', o, (o->>'lastModifiedAt')::timestamptz
      from jsonb_array_elements($2::jsonb) as o
    on conflict (order_id) do update set status = excluded.status, session_date = excluded.session_date, data = excluded.data, updated_at = excluded.updated_at),
  written_events as (
    insert into order_events (journal_seq, event_index, order_id, client_code, kind, at, data)
    select (r->>'journalSeq')::bigint, (r->>'eventIndex')::integer, (r->'event'->>'orderId')::bigint, r->>'clientCode', r->'event'->>'kind', (r->'event'->>'at')::timestamptz, r->'event'
      from jsonb_array_elements($3::jsonb) as r
    on conflict (journal_seq, event_index) do nothing),
  written_stats as (
    insert into session_stats (asset_id, session_date, data)
    select s->>'assetId', s->>'sessionDate', s from jsonb_array_elements($4::jsonb) as s
    on conflict (asset_id, session_date) do update set data = excluded.data),
  written_watermark as (
    insert into projection_watermark (name, journal_seq)
    select 'trading', $5::bigint where $5::bigint is not null
    on conflict (name) do update set journal_seq = greatest(projection_watermark.journal_seq, excluded.journal_seq))
select 1 as written`;

/**
 * PGlite's way in (Database.copyThenRun): each table's rows COPYd into a temporary table of the same
 * columns (`like`: its types follow the table's) without keys or indexes, then moved by one statement
 * that does what WRITE_SLICE_SQL does (the same conflicts, the same watermark rule), in one
 * transaction. The temporary tables empty themselves at commit. Measured against the JSON-array statement on PGlite: about a third less
 * time in its thread per order and its event (docs/trading.md, "Read models").
 */
const STAGING_SQL = `
  create temp table if not exists staged_transactions (like transactions) on commit delete rows;
  create temp table if not exists staged_orders (like orders) on commit delete rows;
  create temp table if not exists staged_order_events (like order_events) on commit delete rows;
  create temp table if not exists staged_session_stats (like session_stats) on commit delete rows;`;

const MOVE_STAGED_SQL = `with
  written_transactions as (
    insert into transactions (transaction_id, asset_id, buyer, seller, data, ts)
    select transaction_id, asset_id, buyer, seller, data, ts from staged_transactions
    on conflict (transaction_id) do nothing),
  written_orders as (
    insert into orders (order_id, asset_id, client_code, status, way, session_date, data, updated_at)
    select order_id, asset_id, client_code, status, way, session_date, data, updated_at from staged_orders
    on conflict (order_id) do update set status = excluded.status, session_date = excluded.session_date, data = excluded.data, updated_at = excluded.updated_at),
  written_events as (
    insert into order_events (journal_seq, event_index, order_id, client_code, kind, at, data)
    select journal_seq, event_index, order_id, client_code, kind, at, data from staged_order_events
    on conflict (journal_seq, event_index) do nothing),
  written_stats as (
    insert into session_stats (asset_id, session_date, data)
    select asset_id, session_date, data from staged_session_stats
    on conflict (asset_id, session_date) do update set data = excluded.data),
  written_watermark as (
    insert into projection_watermark (name, journal_seq)
    select 'trading', $1::bigint where $1::bigint is not null
    on conflict (name) do update set journal_seq = greatest(projection_watermark.journal_seq, excluded.journal_seq))
select 1 as written`;

/** Each staging table, its columns, and one row's COPY line (the columns WRITE_SLICE_SQL reads from each row's JSON). */
const STAGED = {
  transactions: {
    table: 'staged_transactions',
    columns: 'transaction_id, asset_id, buyer, seller, data, ts',
    line: (t: Transaction) => `${copyText(t.transactionId)}\t${copyText(t.assetId)}\t${copyText(t.buyer)}\t${copyText(t.seller)}\t${copyText(JSON.stringify(t))}\t${copyText(t.timestamp)}\n`,
  },
  orders: {
    table: 'staged_orders',
    columns: 'order_id, asset_id, client_code, status, way, session_date, data, updated_at',
    line: (o: Order) =>
      `${copyText(o.orderId)}\t${copyText(o.assetId)}\t${copyText(o.clientCode)}\t${copyText(o.status)}\t${copyText(o.way)}\t${copyText(o.sessionDate)}\t${copyText(orderJson(o))}\t${copyText(o.lastModifiedAt)}\n`,
  },
  orderEvents: {
    table: 'staged_order_events',
    columns: 'journal_seq, event_index, order_id, client_code, kind, at, data',
    line: ({ journalSeq, eventIndex, clientCode, event }: OrderEventRow) =>
      `${journalSeq}\t${eventIndex}\t${copyText(event.orderId)}\t${copyText(clientCode)}\t${copyText(event.kind)}\t${copyText(event.at)}\t${copyText(JSON.stringify(event))}\n`,
  },
  stats: {
    table: 'staged_session_stats',
    columns: 'asset_id, session_date, data',
    line: (row: SessionStats) => `${copyText(row.assetId)}\t${copyText(row.sessionDate)}\t${copyText(JSON.stringify(row))}\n`,
  },
};

/**
 * A batch's rows as COPY loads of the staging tables, ROWS_PER_STATEMENT rows to a load: the event
 * loop runs between two loads' text, as it did between two statements (a 2,000-order batch's text in
 * one go held it for over 10 ms, the acknowledgement p99).
 */
async function stagedLoads({ transactions, orders, orderEvents, stats }: ProjectionBatch): Promise<CopyLoad[]> {
  const loads: CopyLoad[] = [];
  async function add<Row>(rows: Row[], staged: { table: string; columns: string; line: (row: Row) => string }): Promise<void> {
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      if (loads.length > 0) await yieldToEventLoop();
      let text = '';
      for (let index = start; index < Math.min(rows.length, start + ROWS_PER_STATEMENT); index++) text += staged.line(rows[index]!);
      loads.push({ table: staged.table, columns: staged.columns, text });
    }
  }
  await add(transactions, STAGED.transactions);
  await add(orders, STAGED.orders);
  await add(orderEvents, STAGED.orderEvents);
  await add(stats, STAGED.stats);
  return loads;
}

const UPDATE_TRANSACTION_SQL = `update transactions set data = data || jsonb_build_object('status', $2::text, 'marginsExposureActive', $3::boolean) where transaction_id = $1::bigint`;

const SET_WATERMARK_SQL =
  "insert into projection_watermark (name, journal_seq) values ('trading', $1) on conflict (name) do update set journal_seq = greatest(projection_watermark.journal_seq, excluded.journal_seq)";

/** Slice `index` of `rows` as a JSON array. */
function sliceJson<Row>(rows: Row[], index: number): string {
  const start = index * ROWS_PER_STATEMENT;
  return start >= rows.length ? '[]' : JSON.stringify(rows.slice(start, start + ROWS_PER_STATEMENT));
}

/** Orders, transactions and statistics as the engine's events left them (read models). */
export class TradingRepository {
  /** PGlite's staging tables, made once for its one session (temporary tables live as long as it). */
  private staging: Promise<void> | null = null;

  constructor(private readonly db: Queryable & Partial<Pick<Database, 'transaction' | 'copyThenRun' | 'exec'>>) {}

  /**
   * Writes a batch and its watermark: one statement per ROWS_PER_STATEMENT rows of each table, the
   * watermark in the last, all in one transaction (one commit for thousands of rows, and the
   * watermark never ahead of the rows it vouches for). A batch of one slice is one statement, atomic
   * by itself, so it goes without begin and commit. What it stores is exactly what the per-table
   * statements below store.
   */
  async writeBatch(batch: ProjectionBatch): Promise<void> {
    const { transactions, orders, orderEvents, stats, watermark } = batch;
    const slices = Math.max(1, ...[transactions, orders, orderEvents, stats].map((rows) => Math.ceil(rows.length / ROWS_PER_STATEMENT)));
    if (slices === 1 && transactions.length + orders.length + orderEvents.length + stats.length + (batch.transactionUpdates?.length ?? 0) === 0 && watermark === null) return;
    const updates = batch.transactionUpdates ?? [];
    if (this.db.copyThenRun && this.db.exec) return this.writeBatchByCopy(batch, updates);
    const write = async (db: Queryable) => {
      for (let index = 0; index < slices; index++) {
        const last = index === slices - 1;
        // The watermark goes with the updates when there are some: it never vouches for rows not written.
        await db.query(WRITE_SLICE_SQL, [sliceJson(transactions, index), sliceJson(orders, index), sliceJson(orderEvents, index), sliceJson(stats, index), last && updates.length === 0 ? watermark : null]);
      }
      if (updates.length > 0) {
        await this.applyTransactionUpdates(db, updates);
        if (watermark !== null) await db.query(SET_WATERMARK_SQL, [watermark]);
      }
    };
    if ((slices > 1 || updates.length > 0) && this.db.transaction) await this.db.transaction(write);
    else await write(this.db);
  }

  /** writeBatch on PGlite: the rows COPYd into the staging tables and moved by one statement, the updates after them, in one transaction. */
  private async writeBatchByCopy(batch: ProjectionBatch, updates: TransactionUpdateRow[]): Promise<void> {
    const exec = this.db.exec!;
    this.staging ??= exec(STAGING_SQL).catch((error: unknown) => {
      this.staging = null;
      throw error;
    });
    await this.staging;
    const statements: Statement[] = [{ sql: MOVE_STAGED_SQL, params: [batch.watermark] }];
    for (const update of updates) statements.push({ sql: UPDATE_TRANSACTION_SQL, params: [update.transactionId, update.status, update.marginsExposureActive] });
    await this.db.copyThenRun!(await stagedLoads(batch), statements);
  }

  /** Sets the post-trade fields of stored transactions, in order (a later update of one transaction wins). */
  private async applyTransactionUpdates(db: Queryable, updates: TransactionUpdateRow[]): Promise<void> {
    for (const update of updates) {
      await db.query(UPDATE_TRANSACTION_SQL, [update.transactionId, update.status, update.marginsExposureActive]);
    }
  }

  /** One transaction by id, or undefined. */
  async transaction(transactionId: string): Promise<Transaction | undefined> {
    if (!/^\d{1,18}$/.test(transactionId)) return undefined;
    const rows = await this.db.query<{ data: Transaction }>('select data from transactions where transaction_id = $1::bigint', [transactionId]);
    return rows[0]?.data;
  }

  /** One statement per batch: the projector writes thousands of rows a second. Each order's latest state. */
  async upsertOrders(orders: Order[]): Promise<void> {
    if (orders.length === 0) return;
    await this.db.query(
      `insert into orders (order_id, asset_id, client_code, status, way, session_date, data, updated_at)
       select (o->>'orderId')::bigint, o->>'assetId', o->>'clientCode', o->>'status', o->>'way', o->>'sessionDate', o, (o->>'lastModifiedAt')::timestamptz
         from jsonb_array_elements($1::jsonb) as o
       on conflict (order_id) do update set status = excluded.status, session_date = excluded.session_date, data = excluded.data, updated_at = excluded.updated_at`,
      [JSON.stringify(orders)],
    );
  }

  /** Order events in journal order; a re-projected event (same record and index) is skipped. */
  async insertOrderEvents(rows: OrderEventRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(
      `insert into order_events (journal_seq, event_index, order_id, client_code, kind, at, data)
       select (r->>'journalSeq')::bigint, (r->>'eventIndex')::integer, (r->'event'->>'orderId')::bigint, r->>'clientCode', r->'event'->>'kind', (r->'event'->>'at')::timestamptz, r->'event'
         from jsonb_array_elements($1::jsonb) as r
       on conflict (journal_seq, event_index) do nothing`,
      [JSON.stringify(rows)],
    );
  }

  /** Orders of the allowed clients and assets matching the filters, newest change first, with the total. */
  async orderHistory(filter: OrderHistoryFilter): Promise<{ items: Order[]; total: number }> {
    const rows = await this.db.query<{ data: Order; total: string | number }>(
      `select data, count(*) over () as total from orders
        where ($1::text[] is null or client_code = any($1::text[]))
          and asset_id = any($2::text[])
          and ($3::text is null or way = $3)
          and ($4::text is null or status = $4)
          and ($5::text is null or client_code = $5)
          and ($6::text is null or session_date >= $6)
          and ($7::text is null or session_date <= $7)
        order by updated_at desc, order_id desc
        offset $8 limit $9`,
      [filter.clientCodes, filter.assetIds, filter.way ?? null, filter.status ?? null, filter.clientCode ?? null, filter.from ?? null, filter.to ?? null, filter.offset, filter.limit],
    );
    if (rows.length > 0) return { items: rows.map((row) => row.data), total: Number(rows[0]!.total) };
    // A page past the end has no row to carry the count.
    if (filter.offset === 0) return { items: [], total: 0 };
    const count = await this.orderHistory({ ...filter, offset: 0, limit: 1 });
    return { items: [], total: count.total };
  }

  /** One order's latest state, or undefined. */
  async order(orderId: string): Promise<Order | undefined> {
    if (!/^\d{1,18}$/.test(orderId)) return undefined;
    const rows = await this.db.query<{ data: Order }>('select data from orders where order_id = $1::bigint', [orderId]);
    return rows[0]?.data;
  }

  /** One order's events, oldest first. */
  async orderEvents(orderId: string): Promise<OrderEvent[]> {
    if (!/^\d{1,18}$/.test(orderId)) return [];
    const rows = await this.db.query<{ data: OrderEvent }>('select data from order_events where order_id = $1::bigint order by journal_seq, event_index', [orderId]);
    return rows.map((row) => row.data);
  }

  async insertTransactions(transactions: Transaction[]): Promise<void> {
    if (transactions.length === 0) return;
    await this.db.query(
      `insert into transactions (transaction_id, asset_id, buyer, seller, data, ts)
       select (t->>'transactionId')::bigint, t->>'assetId', t->>'buyer', t->>'seller', t, (t->>'timestamp')::timestamptz
         from jsonb_array_elements($1::jsonb) as t
       on conflict (transaction_id) do nothing`,
      [JSON.stringify(transactions)],
    );
  }

  async upsertStats(stats: SessionStats[]): Promise<void> {
    if (stats.length === 0) return;
    await this.db.query(
      `insert into session_stats (asset_id, session_date, data)
       select s->>'assetId', s->>'sessionDate', s from jsonb_array_elements($1::jsonb) as s
       on conflict (asset_id, session_date) do update set data = excluded.data`,
      [JSON.stringify(stats)],
    );
  }

  async watermark(): Promise<number> {
    const rows = await this.db.query<{ journal_seq: string | number }>("select journal_seq from projection_watermark where name = 'trading'");
    return Number(rows[0]?.journal_seq ?? 0);
  }

  async setWatermark(journalSeq: number): Promise<void> {
    await this.db.query(
      "insert into projection_watermark (name, journal_seq) values ('trading', $1) on conflict (name) do update set journal_seq = greatest(projection_watermark.journal_seq, excluded.journal_seq)",
      [journalSeq],
    );
  }

  /** Finished orders (traded, cancelled, expired) of the clients; live ones are the engine's. */
  async orders(filter: { clientCodes: string[]; assetId?: string | undefined; limit: number }): Promise<Order[]> {
    const rows = await this.db.query<{ data: Order }>(
      `select data from orders where client_code = any($1::text[]) and ($2::text is null or asset_id = $2) and status in ('traded', 'cancelled')
        order by updated_at desc, order_id desc limit $3`,
      [filter.clientCodes, filter.assetId ?? null, filter.limit],
    );
    return rows.map((row) => row.data);
  }

  /** All transactions, or only those where one of `clientCodes` is buyer or seller. */
  async transactions(filter: { clientCodes: string[] | null; assetId?: string | undefined; limit: number }): Promise<Transaction[]> {
    const rows = await this.db.query<{ data: Transaction }>(
      `select data from transactions
        where ($1::text[] is null or buyer = any($1::text[]) or seller = any($1::text[]))
          and ($2::text is null or asset_id = $2)
        order by ts desc, transaction_id desc limit $3`,
      [filter.clientCodes, filter.assetId ?? null, filter.limit],
    );
    return rows.map((row) => row.data);
  }

  async stats(assetId: string): Promise<SessionStats[]> {
    const rows = await this.db.query<{ data: SessionStats }>('select data from session_stats where asset_id = $1 order by session_date desc', [assetId]);
    return rows.map((row) => row.data);
  }
}
