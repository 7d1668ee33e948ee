import {
  type BankCommission,
  type BatchTransaction,
  type DailySettlementNote,
  type DailySettlementPrice,
  type FinalSettlementPrice,
  type MonthlySettlementSummary,
  type PaymentObligation,
  type SettlementRun,
  type TransactionReport,
  type UnpaidTransaction,
} from '../../protocol/clearing.ts';
import type { Transaction } from '../../protocol/index.ts';
import type { DocumentSource } from '../clearing/documents/document-source.ts';
import type { SettlementResult } from '../clearing/settlement-compute.ts';
import { variationBps } from '../clearing/settlement-price.ts';
import type { Database, Queryable } from './database.ts';

/** An asset's clearing terms (asset_clearing_terms), with the defaults of an asset that has no row. */
export interface ClearingTerms {
  assetId: string;
  initialMarginBps: number;
  deliveryMarginBps: number;
  feePerUnit: bigint;
  closingWindowMinutes: number;
  physical: boolean;
  deliveryStart: string | null;
  deliveryEnd: string | null;
  expiryDate: string | null;
}

/** Which clients' rows a list may hold (null: every client, the administrator) and the list's filters. */
export interface SettlementListFilter {
  clientCodes: readonly string[] | null;
  /** The markets the user trades on (null: all). */
  marketIds: readonly string[] | null;
  clientCode?: string | undefined;
  marketId?: string | undefined;
  assetId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface ComputedPriceRow {
  id: string;
  assetId: string;
  sessionDate: string;
  priceFromTransactions: number | null;
  priceFromOrders: number | null;
  value: number | null;
  previousValue: number | null;
  source: string;
  computedAt: string;
}

type Numeric = string | number | null;
const num = (value: Numeric): number | null => (value === null ? null : Number(value));
const iso = (value: unknown): string => new Date(value as string).toISOString();
const isoOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : iso(value));

interface PriceRow {
  id: string; asset_id: string; asset_name: string; market_id: string; session_date: string; spec: { priceDecimals: number };
  price_from_transactions: Numeric; price_from_orders: Numeric; value: Numeric; previous_value: Numeric; override_price: Numeric;
  override_reason: string | null; overridden_by: string | null; source: string; computed_at: unknown;
}

function toDailyPrice(row: PriceRow): DailySettlementPrice {
  const value = num(row.value);
  const override = num(row.override_price);
  const price = override ?? value;
  const previous = num(row.previous_value);
  return {
    dailySettlementPriceId: row.id,
    assetId: row.asset_id,
    assetName: row.asset_name,
    marketId: row.market_id,
    sessionDate: row.session_date,
    priceDecimals: row.spec.priceDecimals,
    priceFromTransactions: num(row.price_from_transactions),
    priceFromOrders: num(row.price_from_orders),
    value,
    previousValue: previous,
    variationBps: variationBps(price, previous),
    price,
    refPrice: price,
    source: (override !== null ? 'override' : row.source) as DailySettlementPrice['source'],
    overrideReason: row.override_reason,
    overriddenBy: row.overridden_by,
    computedAt: iso(row.computed_at),
  };
}

interface ObligationDbRow {
  id: string; settlement_run_id: string; client_code: string; client_name: string | null; market_id: string; session_date: string; kind: string;
  transaction_id: string | null; direction: string; amount: Numeric; currency: string; due_date: string; status: string; settled_at: unknown; settled_by: string | null;
}

function toObligation(row: ObligationDbRow): PaymentObligation {
  return {
    obligationId: row.id,
    settlementRunId: row.settlement_run_id,
    clientCode: row.client_code,
    clientName: row.client_name ?? row.client_code,
    marketId: row.market_id,
    sessionDate: row.session_date,
    kind: row.kind as PaymentObligation['kind'],
    transactionId: row.transaction_id,
    direction: row.direction as PaymentObligation['direction'],
    amount: Number(row.amount),
    currency: row.currency,
    dueDate: row.due_date,
    status: row.status as PaymentObligation['status'],
    settledAt: isoOrNull(row.settled_at),
    settledBy: row.settled_by,
  };
}

function toRun(row: { id: string; market_id: string; session_date: string; status: string; started_at: unknown; completed_at: unknown; clients: number; result_hash: string | null }): SettlementRun {
  return {
    settlementRunId: row.id,
    marketId: row.market_id,
    sessionDate: row.session_date,
    status: row.status as SettlementRun['status'],
    startedAt: iso(row.started_at),
    completedAt: isoOrNull(row.completed_at),
    clients: Number(row.clients),
    resultHash: row.result_hash,
  };
}

/** Whole days from `from` to `to` (YYYY-MM-DD). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The settlement side of the clearing house's tables (migration 009): prices, runs and what runs write; the documents' source. */
export class SettlementRepository implements DocumentSource {
  constructor(private readonly db: Queryable & Pick<Database, 'transaction'>) {}

  async clearingTerms(): Promise<Map<string, ClearingTerms>> {
    const rows = await this.db.query<{
      asset_id: string; initial_margin_bps: number; delivery_margin_bps: number; fee_per_unit: Numeric; closing_window_minutes: number;
      physical: boolean; delivery_start: string | null; delivery_end: string | null; expiry_date: string | null;
    }>('select * from asset_clearing_terms');
    return new Map(
      rows.map((row) => [
        row.asset_id,
        {
          assetId: row.asset_id,
          initialMarginBps: Number(row.initial_margin_bps),
          deliveryMarginBps: Number(row.delivery_margin_bps),
          feePerUnit: BigInt(row.fee_per_unit ?? 0),
          closingWindowMinutes: Number(row.closing_window_minutes),
          physical: row.physical,
          deliveryStart: row.delivery_start,
          deliveryEnd: row.delivery_end,
          expiryDate: row.expiry_date,
        },
      ]),
    );
  }

  async upsertClearingTerms(terms: ClearingTerms): Promise<void> {
    await this.db.query(
      `insert into asset_clearing_terms (asset_id, initial_margin_bps, delivery_margin_bps, fee_per_unit, closing_window_minutes, physical, delivery_start, delivery_end, expiry_date)
       values ($1,$2,$3,$4,$5,$6,$7,$8,$9)
       on conflict (asset_id) do update set initial_margin_bps = excluded.initial_margin_bps, delivery_margin_bps = excluded.delivery_margin_bps,
         fee_per_unit = excluded.fee_per_unit, closing_window_minutes = excluded.closing_window_minutes, physical = excluded.physical,
         delivery_start = excluded.delivery_start, delivery_end = excluded.delivery_end, expiry_date = excluded.expiry_date`,
      [terms.assetId, terms.initialMarginBps, terms.deliveryMarginBps, terms.feePerUnit.toString(), terms.closingWindowMinutes, terms.physical, terms.deliveryStart, terms.deliveryEnd, terms.expiryDate],
    );
  }

  /** Client names and fiscal codes by code. */
  async clientIdentities(): Promise<Map<string, { name: string; fiscalCode: string }>> {
    const rows = await this.db.query<{ code: string; name: string; fiscal_code: string }>('select code, name, fiscal_code from clients');
    return new Map(rows.map((row) => [row.code, { name: row.name, fiscalCode: row.fiscal_code }]));
  }

  // ---- daily and final settlement prices -------------------------------------------------------

  /** Price and quantity of the asset's book trades of a session between two instants (inclusive): off-book transactions make no price. */
  async tradesBetween(assetId: string, sessionDate: string, fromIso: string, toIso: string): Promise<Array<{ price: number; qty: number }>> {
    const rows = await this.db.query<{ price: Numeric; qty: Numeric }>(
      `select (data->>'price')::bigint as price, (data->>'qty')::bigint as qty from transactions
        where asset_id = $1 and data->>'txDate' = $2 and ts >= $3::timestamptz and ts <= $4::timestamptz and coalesce(data->>'origin', 'book') = 'book'`,
      [assetId, sessionDate, fromIso, toIso],
    );
    return rows.map((row) => ({ price: Number(row.price), qty: Number(row.qty) }));
  }

  /** The price in force (override, else value) of the latest session before `sessionDate`. */
  async priceInForceBefore(assetId: string, sessionDate: string): Promise<number | null> {
    const rows = await this.db.query<{ price: Numeric }>(
      `select coalesce(override_price, value) as price from daily_settlement_prices
        where asset_id = $1 and session_date < $2 and coalesce(override_price, value) is not null order by session_date desc limit 1`,
      [assetId, sessionDate],
    );
    return num(rows[0]?.price ?? null);
  }

  /** The price the latest settlement before `sessionDate` marked the asset's positions to (from its notes), or null. */
  async lastMarkedPrice(assetId: string, sessionDate: string): Promise<number | null> {
    const rows = await this.db.query<{ price: Numeric }>(
      `select (l->>'settlementPrice')::bigint as price from daily_settlement_notes n, jsonb_array_elements(n.data->'lines') as l
        where n.session_date < $2 and l->>'assetId' = $1 and l->>'settlementPrice' is not null order by n.session_date desc limit 1`,
      [assetId, sessionDate],
    );
    return num(rows[0]?.price ?? null);
  }

  /** Writes a computed price; an administrator's override of the same session stays. */
  async saveComputedPrice(row: ComputedPriceRow): Promise<void> {
    await this.db.query(
      `insert into daily_settlement_prices (id, asset_id, session_date, price_from_transactions, price_from_orders, value, previous_value, source, computed_at)
       values ($1,$2,$3,$4,$5,$6,$7,$8,$9)
       on conflict (asset_id, session_date) do update set price_from_transactions = excluded.price_from_transactions, price_from_orders = excluded.price_from_orders,
         value = excluded.value, previous_value = excluded.previous_value, source = excluded.source, computed_at = excluded.computed_at`,
      [row.id, row.assetId, row.sessionDate, row.priceFromTransactions, row.priceFromOrders, row.value, row.previousValue, row.source, row.computedAt],
    );
  }

  async dailyPrice(id: string): Promise<DailySettlementPrice | null> {
    const rows = await this.db.query<PriceRow>(`${PRICE_SELECT} where p.id = $1`, [id]);
    return rows[0] ? toDailyPrice(rows[0]) : null;
  }

  async dailyPriceOf(assetId: string, sessionDate: string): Promise<DailySettlementPrice | null> {
    const rows = await this.db.query<PriceRow>(`${PRICE_SELECT} where p.asset_id = $1 and p.session_date = $2`, [assetId, sessionDate]);
    return rows[0] ? toDailyPrice(rows[0]) : null;
  }

  async overridePrice(id: string, price: number, reason: string, by: string): Promise<DailySettlementPrice | null> {
    await this.db.query('update daily_settlement_prices set override_price = $2, override_reason = $3, overridden_by = $4 where id = $1', [id, price, reason, by]);
    return this.dailyPrice(id);
  }

  /** Each asset's latest price in force: what the engine's settlement price should be. */
  async latestPricesInForce(): Promise<Map<string, { sessionDate: string; price: number }>> {
    const rows = await this.db.query<{ asset_id: string; session_date: string; price: Numeric }>(
      `select distinct on (asset_id) asset_id, session_date, coalesce(override_price, value) as price from daily_settlement_prices
        where coalesce(override_price, value) is not null order by asset_id, session_date desc`,
    );
    return new Map(rows.map((row) => [row.asset_id, { sessionDate: row.session_date, price: Number(row.price) }]));
  }

  async listDailyPrices(filter: SettlementListFilter): Promise<DailySettlementPrice[]> {
    const rows = await this.db.query<PriceRow>(
      `${PRICE_SELECT}
        where ($1::text[] is null or a.market_id = any($1::text[])) and ($2::text is null or a.market_id = $2) and ($3::text is null or p.asset_id = $3)
          and ($4::text is null or p.session_date >= $4) and ($5::text is null or p.session_date <= $5)
        order by p.session_date desc, p.asset_id`,
      [filter.marketIds, filter.marketId ?? null, filter.assetId ?? null, filter.from ?? null, filter.to ?? null],
    );
    return rows.map(toDailyPrice);
  }

  async saveFinalPrice(row: Omit<FinalSettlementPrice, 'assetName' | 'marketId' | 'priceDecimals'>): Promise<void> {
    await this.db.query(
      `insert into final_settlement_prices (id, asset_id, session_date, final_settlement_price, daily_settlement_price, consultation_price, price_from_liquidation, computed_at)
       values ($1,$2,$3,$4,$5,$6,$7,$8)
       on conflict (asset_id) do update set session_date = excluded.session_date, final_settlement_price = excluded.final_settlement_price,
         daily_settlement_price = excluded.daily_settlement_price, computed_at = excluded.computed_at`,
      [row.finalSettlementPriceId, row.assetId, row.sessionDate, row.finalSettlementPrice, row.dailySettlementPrice, row.consultationPrice, row.priceFromLiquidation, row.computedAt],
    );
  }

  async listFinalPrices(filter: SettlementListFilter): Promise<FinalSettlementPrice[]> {
    const rows = await this.db.query<{
      id: string; asset_id: string; asset_name: string; market_id: string; session_date: string; spec: { priceDecimals: number };
      final_settlement_price: Numeric; daily_settlement_price: Numeric; consultation_price: Numeric; price_from_liquidation: Numeric; computed_at: unknown;
    }>(
      `select f.*, a.name as asset_name, a.market_id, a.spec from final_settlement_prices f join assets a on a.id = f.asset_id
        where ($1::text[] is null or a.market_id = any($1::text[])) and ($2::text is null or a.market_id = $2) and ($3::text is null or f.asset_id = $3)
          and ($4::text is null or f.session_date >= $4) and ($5::text is null or f.session_date <= $5)
        order by f.session_date desc, f.asset_id`,
      [filter.marketIds, filter.marketId ?? null, filter.assetId ?? null, filter.from ?? null, filter.to ?? null],
    );
    return rows.map((row) => ({
      finalSettlementPriceId: row.id,
      assetId: row.asset_id,
      assetName: row.asset_name,
      marketId: row.market_id,
      sessionDate: row.session_date,
      priceDecimals: row.spec.priceDecimals,
      finalSettlementPrice: Number(row.final_settlement_price),
      dailySettlementPrice: num(row.daily_settlement_price),
      consultationPrice: num(row.consultation_price),
      priceFromLiquidation: num(row.price_from_liquidation),
      computedAt: iso(row.computed_at),
    }));
  }

  // ---- settlement runs -------------------------------------------------------------------------

  async run(marketId: string, sessionDate: string): Promise<SettlementRun | null> {
    const rows = await this.db.query<Parameters<typeof toRun>[0]>('select * from settlement_runs where market_id = $1 and session_date = $2', [marketId, sessionDate]);
    return rows[0] ? toRun(rows[0]) : null;
  }

  /** The newest run of each market (the operator console's clearing status). */
  async lastRunPerMarket(): Promise<SettlementRun[]> {
    const rows = await this.db.query<Parameters<typeof toRun>[0]>('select distinct on (market_id) * from settlement_runs order by market_id, session_date desc');
    return rows.map(toRun);
  }

  async runsInState(status: SettlementRun['status']): Promise<SettlementRun[]> {
    const rows = await this.db.query<Parameters<typeof toRun>[0]>('select * from settlement_runs where status = $1 order by session_date, market_id', [status]);
    return rows.map(toRun);
  }

  /** The 'running' marker, committed on its own: a restart finds the run to resume. */
  async markRunStarted(id: string, marketId: string, sessionDate: string, at: string): Promise<void> {
    await this.db.query(
      `insert into settlement_runs (id, market_id, session_date, status, started_at) values ($1,$2,$3,'running',$4) on conflict (market_id, session_date) do nothing`,
      [id, marketId, sessionDate, at],
    );
  }

  async listRuns(filter: SettlementListFilter): Promise<SettlementRun[]> {
    const rows = await this.db.query<Parameters<typeof toRun>[0]>(
      `select * from settlement_runs where ($1::text[] is null or market_id = any($1::text[])) and ($2::text is null or market_id = $2)
          and ($3::text is null or session_date >= $3) and ($4::text is null or session_date <= $4)
        order by session_date desc, market_id`,
      [filter.marketIds, filter.marketId ?? null, filter.from ?? null, filter.to ?? null],
    );
    return rows.map(toRun);
  }

  /**
   * Everything a run writes, and its completed marker, in one transaction: a crash leaves all of it or
   * none. Rows a killed attempt could not have left are still cleared first, so a retry is a rewrite.
   */
  async writeRun(result: SettlementResult, run: { id: string; at: string; step?: (name: string) => void }): Promise<void> {
    await this.db.transaction(async (tx) => {
      const step = run.step ?? (() => {});
      for (const table of ['settlement_positions', 'daily_settlement_notes', 'payment_obligations', 'bank_commissions', 'clearing_batches']) {
        await tx.query(`delete from ${table} where settlement_run_id = $1`, [run.id]);
      }
      step('cleared');
      if (result.positions.length > 0) {
        await tx.query(
          `insert into settlement_positions (client_code, asset_id, session_date, qty, settlement_run_id)
           select p->>'clientCode', p->>'assetId', $2, (p->>'qty')::bigint, $3 from jsonb_array_elements($1::jsonb) as p`,
          [JSON.stringify(result.positions), result.sessionDate, run.id],
        );
      }
      step('positions');
      for (const note of result.notes) {
        await tx.query(
          'insert into daily_settlement_notes (id, settlement_run_id, client_code, market_id, session_date, data, created_at) values ($1,$2,$3,$4,$5,$6,$7)',
          [note.noteId, run.id, note.clientCode, note.marketId, note.sessionDate, JSON.stringify(note), note.createdAt],
        );
      }
      step('notes');
      if (result.obligations.length > 0) {
        await tx.query(
          `insert into payment_obligations (id, settlement_run_id, client_code, market_id, session_date, kind, transaction_id, direction, amount, currency, due_date, status)
           select o->>'obligationId', o->>'settlementRunId', o->>'clientCode', o->>'marketId', o->>'sessionDate', o->>'kind', o->>'transactionId', o->>'direction',
                  (o->>'amount')::bigint, o->>'currency', o->>'dueDate', 'unpaid'
             from jsonb_array_elements($1::jsonb) as o`,
          [JSON.stringify(result.obligations)],
        );
      }
      step('obligations');
      for (const commission of result.commissions) {
        await tx.query('insert into bank_commissions (id, settlement_run_id, client_code, date, info, commission, currency) values ($1,$2,$3,$4,$5,$6,$7)', [
          commission.id, run.id, commission.clientId, commission.date, commission.info, commission.commission, commission.currency,
        ]);
      }
      step('commissions');
      if (result.batches.length > 0) {
        await tx.query(
          `insert into clearing_batches (id, transaction_id, settlement_run_id, reported_at, single_piece_amount, asset_id, pieces, pieces_cnt, buyer, seller)
           select b->>'batchId', b->>'transactionId', $2, (b->>'reportedAt')::timestamptz, (b->>'singlePieceAmount')::bigint, b->>'assetId', (b->>'pieces')::bigint, (b->>'piecesCnt')::integer,
                  b->>'buyer', b->>'seller'
             from jsonb_array_elements($1::jsonb) as b`,
          [JSON.stringify(result.batches), run.id],
        );
      }
      step('batches');
      for (const report of result.reports) {
        // One report per client and day across markets: the first market's run makes it, each run refreshes the transactions it keeps.
        await tx.query(
          `insert into transaction_reports (id, client_code, session_date, title, created_at, transactions)
           select $1, $2, $3, $4, $5, coalesce((select jsonb_agg(data order by transaction_id) from transactions where (buyer = $2 or seller = $2) and data->>'txDate' = $3), '[]'::jsonb)
           on conflict (client_code, session_date) do update set transactions = excluded.transactions`,
          [report.reportId, report.clientCode, result.sessionDate, report.title, result.createdAt],
        );
      }
      step('reports');
      await tx.query(`update settlement_runs set status = 'completed', completed_at = $2, clients = $3, result_hash = $4 where id = $1`, [run.id, run.at, result.clients, result.resultHash]);
      step('completed');
    });
  }

  /** The forward positions carried out of the latest settled session before `sessionDate`, per client and asset. */
  async openingPositions(assetIds: readonly string[], sessionDate: string): Promise<Array<{ clientCode: string; assetId: string; qty: number }>> {
    const rows = await this.db.query<{ client_code: string; asset_id: string; qty: Numeric }>(
      `select distinct on (client_code, asset_id) client_code, asset_id, qty from settlement_positions
        where asset_id = any($1::text[]) and session_date < $2 order by client_code, asset_id, session_date desc`,
      [assetIds, sessionDate],
    );
    return rows.filter((row) => Number(row.qty) !== 0).map((row) => ({ clientCode: row.client_code, assetId: row.asset_id, qty: Number(row.qty) }));
  }

  /** When the last trade of these assets' session happened (epoch ms), or null. */
  async lastTradeAt(assetIds: readonly string[], sessionDate: string): Promise<number | null> {
    const rows = await this.db.query<{ at: unknown }>(`select max(ts) as at from transactions where asset_id = any($1::text[]) and data->>'txDate' = $2 and coalesce(data->>'origin', 'book') = 'book'`, [assetIds, sessionDate]);
    return rows[0]?.at ? new Date(rows[0].at as string).getTime() : null;
  }

  /** The session's transactions of these assets, book and off-book; a superseded (transferred) one is left to its children. */
  async sessionTrades(assetIds: readonly string[], sessionDate: string): Promise<Transaction[]> {
    const rows = await this.db.query<{ data: Transaction }>(
      `select data from transactions where asset_id = any($1::text[]) and data->>'txDate' = $2 and coalesce(data->>'status', 'active') <> 'superseded' order by transaction_id`,
      [assetIds, sessionDate],
    );
    return rows.map((row) => row.data);
  }

  /**
   * Superseded transactions a settlement carried, with the session date their children were booked on:
   * the run of the transaction's own session completed before its novation, so settlement_positions
   * hold its quantity while the children count as trades of a later session. `assetIds` null: every
   * asset; `clientCode` null: every client.
   */
  async novatedAfterSettlement(assetIds: readonly string[] | null, clientCode: string | null): Promise<Array<{ transaction: Transaction; childrenDate: string }>> {
    const rows = await this.db.query<{ data: Transaction; children_date: string }>(
      `select t.data, c.children_date from transactions t
         join assets a on a.id = t.asset_id
         join settlement_runs r on r.market_id = a.market_id and r.session_date = t.data->>'txDate' and r.status = 'completed'
         join lateral (select min(k.data->>'txDate') as children_date, min(k.ts) as novated_at from transactions k
                        where k.data->>'parentTransactionId' = t.transaction_id::text) c on true
        where t.data->>'status' = 'superseded' and ($1::text[] is null or t.asset_id = any($1::text[])) and ($2::text is null or t.buyer = $2 or t.seller = $2)
          and c.children_date > t.data->>'txDate' and r.completed_at <= c.novated_at
        order by t.transaction_id`,
      [assetIds, clientCode],
    );
    return rows.map((row) => ({ transaction: row.data, childrenDate: row.children_date }));
  }

  // ---- obligations and payments ----------------------------------------------------------------

  async obligation(id: string): Promise<PaymentObligation | null> {
    const rows = await this.db.query<ObligationDbRow>(`${OBLIGATION_SELECT} where o.id = $1`, [id]);
    return rows[0] ? toObligation(rows[0]) : null;
  }

  /** Marks an unpaid obligation paid (pay) or cashed (receive); null when it was not unpaid. */
  async settleObligation(id: string, by: string, reference: string, at: string): Promise<PaymentObligation | null> {
    const rows = await this.db.query<{ id: string }>(
      `update payment_obligations set status = case when direction = 'pay' then 'paid' else 'cashed' end, settled_at = $2, settled_by = $3, reference = $4
        where id = $1 and status = 'unpaid' returning id`,
      [id, at, by, reference],
    );
    return rows.length === 0 ? null : this.obligation(id);
  }

  async listObligations(filter: SettlementListFilter & { status?: string | undefined }): Promise<PaymentObligation[]> {
    const rows = await this.db.query<ObligationDbRow>(
      `${OBLIGATION_SELECT}
        where ($1::text[] is null or o.client_code = any($1::text[])) and ($2::text is null or o.client_code = $2) and ($3::text is null or o.market_id = $3)
          and ($4::text is null or o.session_date >= $4) and ($5::text is null or o.session_date <= $5) and ($6::text is null or o.status = $6)
        order by o.session_date desc, o.client_code, o.id`,
      [filter.clientCodes, filter.clientCode ?? null, filter.marketId ?? null, filter.from ?? null, filter.to ?? null, filter.status ?? null],
    );
    return rows.map(toObligation);
  }

  /** Unpaid pay obligations, aged in whole days from their due date to `today` (0 until it passes). */
  async listUnpaid(filter: SettlementListFilter, today: string): Promise<UnpaidTransaction[]> {
    const obligations = await this.listObligations({ ...filter, status: 'unpaid' });
    return obligations
      .filter((row) => row.direction === 'pay')
      .map((row) => ({
        obligationId: row.obligationId,
        transactionId: row.transactionId,
        clientCode: row.clientCode,
        client: row.clientName,
        amount: row.amount,
        currency: row.currency,
        dueDate: row.dueDate,
        daysPassed: Math.max(0, daysBetween(row.dueDate, today)),
      }));
  }

  // ---- fees, batches, notes, reports -----------------------------------------------------------

  async listBankCommissions(filter: SettlementListFilter): Promise<BankCommission[]> {
    const rows = await this.db.query<{ id: string; client_code: string; name: string | null; fiscal_code: string | null; date: string; info: string; commission: Numeric; currency: string }>(
      `select b.*, c.name, c.fiscal_code from bank_commissions b left join clients c on c.code = b.client_code
        where ($1::text[] is null or b.client_code = any($1::text[])) and ($2::text is null or b.client_code = $2)
          and ($3::text is null or b.date >= $3) and ($4::text is null or b.date <= $4)
          and ($5::text is null or exists (select 1 from settlement_runs r where r.id = b.settlement_run_id and r.market_id = $5))
        order by b.date desc, b.client_code, b.id`,
      [filter.clientCodes, filter.clientCode ?? null, filter.from ?? null, filter.to ?? null, filter.marketId ?? null],
    );
    return rows.map((row) => ({
      id: row.id,
      clientId: row.client_code,
      name: row.name ?? row.client_code,
      fiscalCode: row.fiscal_code ?? '',
      date: row.date,
      info: row.info,
      commission: Number(row.commission),
      currency: row.currency,
    }));
  }

  /** Batch rows; a client sees the transactions it is a party to. */
  async listBatches(filter: SettlementListFilter): Promise<BatchTransaction[]> {
    const rows = await this.db.query<{ id: string; transaction_id: string; reported_at: unknown; single_piece_amount: Numeric; asset_id: string; asset_name: string; spec: { quantityDecimals: number }; pieces: Numeric; pieces_cnt: number }>(
      `select b.*, a.name as asset_name, a.spec from clearing_batches b join assets a on a.id = b.asset_id
        where ($1::text[] is null or b.buyer = any($1::text[]) or b.seller = any($1::text[]))
          and ($2::text is null or b.buyer = $2 or b.seller = $2)
          and ($3::text is null or a.market_id = $3) and ($4::text is null or b.asset_id = $4)
          and ($5::text is null or b.reported_at >= $5::date) and ($6::text is null or b.reported_at < $6::date + 1)
        order by b.reported_at desc, b.id, length(b.transaction_id), b.transaction_id`,
      [filter.clientCodes, filter.clientCode ?? null, filter.marketId ?? null, filter.assetId ?? null, filter.from ?? null, filter.to ?? null],
    );
    return rows.map((row) => ({
      batchId: row.id,
      transactionId: row.transaction_id,
      reportedAt: iso(row.reported_at),
      singlePieceAmount: Number(row.single_piece_amount),
      assetId: row.asset_id,
      assetName: row.asset_name,
      pieces: Number(row.pieces),
      piecesCnt: Number(row.pieces_cnt),
      quantityDecimals: row.spec.quantityDecimals,
    }));
  }

  async listNotes(filter: SettlementListFilter): Promise<DailySettlementNote[]> {
    const rows = await this.db.query<{ data: DailySettlementNote }>(
      `select data from daily_settlement_notes
        where ($1::text[] is null or client_code = any($1::text[])) and ($2::text is null or client_code = $2) and ($3::text is null or market_id = $3)
          and ($4::text is null or session_date >= $4) and ($5::text is null or session_date <= $5)
        order by session_date desc, client_code, market_id`,
      [filter.clientCodes, filter.clientCode ?? null, filter.marketId ?? null, filter.from ?? null, filter.to ?? null],
    );
    const notes = rows.map((row) => row.data);
    return filter.assetId === undefined ? notes : notes.filter((note) => note.lines.some((line) => line.assetId === filter.assetId));
  }

  /** One daily note (for its PDF), or null. */
  async dailyNote(noteId: string): Promise<DailySettlementNote | null> {
    const rows = await this.db.query<{ data: DailySettlementNote }>('select data from daily_settlement_notes where id = $1', [noteId]);
    return rows[0]?.data ?? null;
  }

  /** Per client and month: the notes added up, and what of the obligations is paid, cashed and still unpaid. */
  async listMonthlySummaries(filter: SettlementListFilter): Promise<MonthlySettlementSummary[]> {
    const monthFilter = { ...filter, from: filter.from?.slice(0, 7), to: filter.to === undefined ? undefined : `${filter.to.slice(0, 7)}-31` };
    const notes = await this.listNotes({ ...monthFilter, from: monthFilter.from === undefined ? undefined : `${monthFilter.from}-01` });
    const obligations = await this.listObligations({ ...monthFilter, from: monthFilter.from === undefined ? undefined : `${monthFilter.from}-01` });
    const summaries = new Map<string, MonthlySettlementSummary>();
    const summaryOf = (clientCode: string, clientName: string, month: string, currency: string) => {
      const key = `${clientCode}\u0000${month}`;
      let summary = summaries.get(key);
      if (!summary) {
        summary = { clientCode, clientName, month, currency, notes: 0, variationMargin: 0, deliveryValue: 0, fees: 0, bankCommissions: 0, toPay: 0, toReceive: 0, paid: 0, cashed: 0, unpaid: 0 };
        summaries.set(key, summary);
      }
      return summary;
    };
    for (const note of notes) {
      const summary = summaryOf(note.clientCode, note.clientName, note.sessionDate.slice(0, 7), note.currency);
      summary.notes += 1;
      summary.variationMargin += note.variationMargin;
      summary.deliveryValue += note.deliveryValue;
      summary.fees += note.fees;
      summary.bankCommissions += note.bankCommissions;
      summary.toPay += note.toPay;
      summary.toReceive += note.toReceive;
    }
    for (const row of obligations) {
      const summary = summaryOf(row.clientCode, row.clientName, row.sessionDate.slice(0, 7), row.currency);
      if (row.status === 'paid') summary.paid += row.amount;
      else if (row.status === 'cashed') summary.cashed += row.amount;
      else if (row.direction === 'pay') summary.unpaid += row.amount;
    }
    return [...summaries.values()].sort((a, b) => (a.month === b.month ? a.clientCode.localeCompare(b.clientCode) : b.month.localeCompare(a.month)));
  }

  /** One client's summary of a month (YYYY-MM), for its PDF; null without notes or obligations. */
  async monthlySummary(clientCode: string, month: string): Promise<MonthlySettlementSummary | null> {
    const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
    const [summary] = await this.listMonthlySummaries({ clientCodes: [clientCode], marketIds: null, from: `${month}-01`, to: last });
    return summary ?? null;
  }

  async listTransactionReports(filter: SettlementListFilter): Promise<TransactionReport[]> {
    const rows = await this.db.query<{ id: string; client_code: string; name: string | null; title: string; session_date: string; created_at: unknown }>(
      `select r.id, r.client_code, r.title, r.session_date, r.created_at, c.name from transaction_reports r left join clients c on c.code = r.client_code
        where ($1::text[] is null or r.client_code = any($1::text[])) and ($2::text is null or r.client_code = $2)
          and ($3::text is null or r.session_date >= $3) and ($4::text is null or r.session_date <= $4)
        order by r.session_date desc, r.client_code`,
      [filter.clientCodes, filter.clientCode ?? null, filter.from ?? null, filter.to ?? null],
    );
    return rows.map((row) => ({ reportId: row.id, clientCode: row.client_code, client: row.name ?? row.client_code, report: row.title, sessionDate: row.session_date, createdAt: iso(row.created_at) }));
  }

  /** One transaction report with the client's transactions of that session date (every market), for its PDF. */
  async transactionReport(reportId: string): Promise<{ report: TransactionReport; transactions: Transaction[] } | null> {
    const rows = await this.db.query<{ id: string; client_code: string; name: string | null; title: string; session_date: string; created_at: unknown; transactions: Transaction[] }>(
      'select r.*, c.name from transaction_reports r left join clients c on c.code = r.client_code where r.id = $1',
      [reportId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      report: { reportId: row.id, clientCode: row.client_code, client: row.name ?? row.client_code, report: row.title, sessionDate: row.session_date, createdAt: iso(row.created_at) },
      transactions: row.transactions,
    };
  }

  /** Every clearing table of the settlement side, as text, in a fixed order: what the crash test compares. */
  async dumpTables(): Promise<string> {
    const out: string[] = [];
    for (const [table, order] of SETTLEMENT_TABLES) {
      const rows = await this.db.query<Record<string, unknown>>(`select * from ${table} order by ${order}`);
      out.push(`${table}:${JSON.stringify(rows, (_key, value: unknown) => (value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? value.toString() : value))}`);
    }
    return out.join('\n');
  }
}

const SETTLEMENT_TABLES: Array<[string, string]> = [
  ['asset_clearing_terms', 'asset_id'],
  ['daily_settlement_prices', 'id'],
  ['final_settlement_prices', 'id'],
  ['settlement_runs', 'id'],
  ['settlement_positions', 'client_code, asset_id, session_date'],
  ['daily_settlement_notes', 'id'],
  ['payment_obligations', 'id'],
  ['bank_commissions', 'id'],
  ['clearing_batches', 'id, transaction_id'],
  ['transaction_reports', 'id'],
];

const PRICE_SELECT = `select p.*, a.name as asset_name, a.market_id, a.spec from daily_settlement_prices p join assets a on a.id = p.asset_id`;
const OBLIGATION_SELECT = `select o.*, c.name as client_name from payment_obligations o left join clients c on c.code = o.client_code`;

