import type { Order, SessionStats, Transaction } from '../../protocol/index.ts';
import type { Queryable } from './database.ts';

/** Orders, transactions and statistics as the engine's events left them (read models). */
export class TradingRepository {
  constructor(private readonly db: Queryable) {}

  /** One statement per batch: the projector writes thousands of rows a second. */
  async upsertOrders(orders: Order[]): Promise<void> {
    if (orders.length === 0) return;
    await this.db.query(
      `insert into orders (order_id, asset_id, client_code, status, data, updated_at)
       select (o->>'orderId')::bigint, o->>'assetId', o->>'clientCode', o->>'status', o, (o->>'lastModifiedAt')::timestamptz
         from jsonb_array_elements($1::jsonb) as o
       on conflict (order_id) do update set status = excluded.status, data = excluded.data, updated_at = excluded.updated_at`,
      [JSON.stringify(orders)],
    );
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

  async orders(filter: { clientCodes: string[]; assetId?: string | undefined; limit: number }): Promise<Order[]> {
    const rows = await this.db.query<{ data: Order }>(
      `select data from orders where client_code = any($1::text[]) and ($2::text is null or asset_id = $2) order by updated_at desc, order_id desc limit $3`,
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
