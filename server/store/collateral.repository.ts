import type { WarrantyInput, WarrantyKind } from '../../protocol/clearing.ts';
import type { Database } from './database.ts';

/** A warranty as stored; its status follows from the dates and the release (server/clearing/collateral-service.ts). */
export interface WarrantyRecord {
  id: string;
  clientCode: string;
  clientName: string;
  agencyId: string;
  warrantyNumber: string;
  warrantyName: string;
  kind: WarrantyKind;
  depositDate: string;
  validityDate: string;
  value: number;
  currency: string;
  releasedAt: string | null;
  notifiedFor: string | null;
}

interface WarrantyRow {
  id: string;
  client_code: string;
  client_name: string;
  agency_id: string;
  warranty_number: string;
  warranty_name: string;
  kind: WarrantyKind;
  deposit_date: string;
  validity_date: string;
  value: string | number;
  currency: string;
  released_at: Date | string | null;
  notified_for: string | null;
}

const warrantyColumns = `w.id, w.client_code, c.name as client_name, c.agency_id, w.warranty_number, w.warranty_name, w.kind, w.deposit_date,
  w.validity_date, w.value, w.currency, w.released_at, w.notified_for`;

function toWarranty(row: WarrantyRow): WarrantyRecord {
  return {
    id: row.id,
    clientCode: row.client_code,
    clientName: row.client_name,
    agencyId: row.agency_id,
    warrantyNumber: row.warranty_number,
    warrantyName: row.warranty_name,
    kind: row.kind,
    depositDate: row.deposit_date,
    validityDate: row.validity_date,
    value: Number(row.value),
    currency: row.currency,
    releasedAt: row.released_at === null ? null : new Date(row.released_at).toISOString(),
    notifiedFor: row.notified_for,
  };
}

/** Per client and asset ('*' = every asset): an imbalance restriction and tradeable quantities. */
export interface RestrictionRecord {
  clientCode: string;
  assetId: string;
  imbalanceWay: 'bid' | 'ask' | null;
  imbalanceQty: number | null;
  tradeableBid: number | null;
  tradeableAsk: number | null;
}

export interface NominationRecord {
  id: string;
  transactionId: string;
  clientCode: string;
  assetId: string;
  way: 'bid' | 'ask';
  deliveryDay: string;
  contractedQty: number;
  nominatedQty: number;
  deadline: string;
  updatedAt: string;
  updatedBy: string | null;
}

interface NominationRow {
  id: string;
  transaction_id: string;
  client_code: string;
  asset_id: string;
  way: 'bid' | 'ask';
  delivery_day: string;
  contracted_qty: string | number;
  nominated_qty: string | number;
  deadline: Date | string;
  updated_at: Date | string;
  updated_by: string | null;
}

function toNomination(row: NominationRow): NominationRecord {
  return {
    id: row.id,
    transactionId: row.transaction_id,
    clientCode: row.client_code,
    assetId: row.asset_id,
    way: row.way,
    deliveryDay: row.delivery_day,
    contractedQty: Number(row.contracted_qty),
    nominatedQty: Number(row.nominated_qty),
    deadline: new Date(row.deadline).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    updatedBy: row.updated_by,
  };
}

/** asset_clearing_terms (migration 009, the settlement side's): what margins and nominations read of it. */
export interface ClearingTerms {
  assetId: string;
  initialMarginBps: number;
  deliveryMarginBps: number;
  physical: boolean;
  deliveryStart: string | null;
  deliveryEnd: string | null;
}

/** A client's trade on a side, from the transactions read model. */
export interface ClientTrade {
  transactionId: string;
  assetId: string;
  way: 'bid' | 'ask';
  price: number;
  qty: number;
  txDate: string;
  /** Whether clearing counts the transaction's margins (absent in rows written before: counted). */
  marginsExposureActive: boolean;
}

/** Warranties, financial restrictions, nominations and the engine funds of clearing (migration 010), and what it reads of the settlement side's tables. */
export class CollateralRepository {
  constructor(private readonly db: Database) {}

  async warranties(clientCodes: readonly string[] | null): Promise<WarrantyRecord[]> {
    const rows = await this.db.query<WarrantyRow>(
      `select ${warrantyColumns} from warranties w join clients c on c.code = w.client_code
       where $1::jsonb is null or w.client_code in (select jsonb_array_elements_text($1::jsonb))
       order by w.client_code, w.validity_date, w.warranty_number`,
      [clientCodes === null ? null : JSON.stringify(clientCodes)],
    );
    return rows.map(toWarranty);
  }

  async warranty(id: string): Promise<WarrantyRecord | null> {
    const rows = await this.db.query<WarrantyRow>(`select ${warrantyColumns} from warranties w join clients c on c.code = w.client_code where w.id = $1`, [id]);
    return rows[0] ? toWarranty(rows[0]) : null;
  }

  /** Inserts a warranty; false when the client already has one with that number. */
  async insertWarranty(id: string, input: WarrantyInput, at: Date): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `insert into warranties (id, client_code, warranty_number, warranty_name, kind, deposit_date, validity_date, value, currency, created_at, updated_at)
       values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$10) on conflict (client_code, warranty_number) do nothing returning id`,
      [id, input.clientCode, input.warrantyNumber, input.warrantyName, input.kind, input.depositDate, input.validityDate, input.value, input.currency, at.toISOString()],
    );
    return rows.length === 1;
  }

  /** Updates an unreleased warranty; 'duplicate' when the new number is another warranty's of the client. */
  async updateWarranty(id: string, input: WarrantyInput, at: Date): Promise<'updated' | 'duplicate' | 'missing'> {
    const clash = await this.db.query<{ id: string }>('select id from warranties where client_code = $1 and warranty_number = $2 and id <> $3', [
      input.clientCode,
      input.warrantyNumber,
      id,
    ]);
    if (clash.length > 0) return 'duplicate';
    const rows = await this.db.query<{ id: string }>(
      `update warranties set client_code = $2, warranty_number = $3, warranty_name = $4, kind = $5, deposit_date = $6, validity_date = $7, value = $8,
         currency = $9, updated_at = $10
       where id = $1 and released_at is null returning id`,
      [id, input.clientCode, input.warrantyNumber, input.warrantyName, input.kind, input.depositDate, input.validityDate, input.value, input.currency, at.toISOString()],
    );
    return rows.length === 1 ? 'updated' : 'missing';
  }

  async releaseWarranty(id: string, by: string, at: Date): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>('update warranties set released_at = $2, released_by = $3, updated_at = $2 where id = $1 and released_at is null returning id', [
      id,
      at.toISOString(),
      by,
    ]);
    return rows.length === 1;
  }

  /** Unreleased warranties whose validity date falls in [from, to) and whose notice for that date is not sent yet. */
  async warrantiesToNotify(from: string, to: string): Promise<WarrantyRecord[]> {
    const rows = await this.db.query<WarrantyRow>(
      `select ${warrantyColumns} from warranties w join clients c on c.code = w.client_code
       where w.released_at is null and w.validity_date >= $1 and w.validity_date < $2 and w.notified_for is distinct from w.validity_date
       order by w.validity_date, w.id`,
      [from, to],
    );
    return rows.map(toWarranty);
  }

  /** Marks the notice sent for this validity date; false when another check marked it first. */
  async markNotified(id: string, validityDate: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      'update warranties set notified_for = $2 where id = $1 and validity_date = $2 and notified_for is distinct from $2 returning id',
      [id, validityDate],
    );
    return rows.length === 1;
  }

  /** Σ values of the warranties counting on `date`: depositDate <= date < validityDate, not released. */
  async clearingLimit(clientCode: string, date: string): Promise<number> {
    const rows = await this.db.query<{ total: string | number | null }>(
      'select sum(value) as total from warranties where client_code = $1 and deposit_date <= $2 and validity_date > $2 and released_at is null',
      [clientCode, date],
    );
    return Number(rows[0]?.total ?? 0);
  }

  /** Clients clearing manages the funds of: those with a warranty on record (any status). */
  async clientsWithWarranties(): Promise<Set<string>> {
    const rows = await this.db.query<{ client_code: string }>('select distinct client_code from warranties');
    return new Set(rows.map((row) => row.client_code));
  }

  async restrictions(clientCode: string | null): Promise<RestrictionRecord[]> {
    const rows = await this.db.query<{
      client_code: string; asset_id: string; imbalance_way: 'bid' | 'ask' | null; imbalance_qty: string | number | null;
      tradeable_bid: string | number | null; tradeable_ask: string | number | null;
    }>('select * from client_financial_restrictions where $1::text is null or client_code = $1 order by client_code, asset_id', [clientCode]);
    const num = (value: string | number | null) => (value === null ? null : Number(value));
    return rows.map((row) => ({
      clientCode: row.client_code,
      assetId: row.asset_id,
      imbalanceWay: row.imbalance_way,
      imbalanceQty: num(row.imbalance_qty),
      tradeableBid: num(row.tradeable_bid),
      tradeableAsk: num(row.tradeable_ask),
    }));
  }

  /** Replaces every restriction of a client (one transaction: never half applied). */
  async replaceRestrictions(clientCode: string, rows: readonly Omit<RestrictionRecord, 'clientCode'>[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('delete from client_financial_restrictions where client_code = $1', [clientCode]);
      for (const row of rows) {
        await tx.query(
          'insert into client_financial_restrictions (client_code, asset_id, imbalance_way, imbalance_qty, tradeable_bid, tradeable_ask) values ($1,$2,$3,$4,$5,$6)',
          [clientCode, row.assetId, row.imbalanceWay, row.imbalanceQty, row.tradeableBid, row.tradeableAsk],
        );
      }
    });
  }

  async clientsWithRestrictions(): Promise<Set<string>> {
    const rows = await this.db.query<{ client_code: string }>('select distinct client_code from client_financial_restrictions');
    return new Set(rows.map((row) => row.client_code));
  }

  async terms(): Promise<ClearingTerms[]> {
    const rows = await this.db.query<{
      asset_id: string; initial_margin_bps: number; delivery_margin_bps: number; physical: boolean; delivery_start: string | null; delivery_end: string | null;
    }>('select asset_id, initial_margin_bps, delivery_margin_bps, physical, delivery_start, delivery_end from asset_clearing_terms');
    return rows.map((row) => ({
      assetId: row.asset_id,
      initialMarginBps: Number(row.initial_margin_bps),
      deliveryMarginBps: Number(row.delivery_margin_bps),
      physical: row.physical,
      deliveryStart: row.delivery_start,
      deliveryEnd: row.delivery_end,
    }));
  }

  /** Sets an asset's `spec.config.marginBps` (what the order dialog's preview reads); true when it changed. */
  async setAssetMarginBps(assetId: string, marginBps: number): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `update assets set spec = jsonb_set(spec, '{config,marginBps}', to_jsonb($2::int)) where id = $1 and (spec->'config'->'marginBps') is distinct from to_jsonb($2::int) returning id`,
      [assetId, marginBps],
    );
    return rows.length === 1;
  }

  /** Per asset, the client's position carried out of its latest settled session on or before `date`. */
  async carriedPositions(clientCode: string, date: string): Promise<Array<{ assetId: string; sessionDate: string; qty: number }>> {
    const rows = await this.db.query<{ asset_id: string; session_date: string; qty: string | number }>(
      `select distinct on (asset_id) asset_id, session_date, qty from settlement_positions
       where client_code = $1 and session_date <= $2 order by asset_id, session_date desc`,
      [clientCode, date],
    );
    return rows.map((row) => ({ assetId: row.asset_id, sessionDate: row.session_date, qty: Number(row.qty) }));
  }

  /** Per asset, the latest daily settlement price in force (the override when there is one) on or before `date`. */
  async markPrices(date: string): Promise<Map<string, number>> {
    const rows = await this.db.query<{ asset_id: string; price: string | number | null }>(
      `select distinct on (asset_id) asset_id, coalesce(override_price, value) as price from daily_settlement_prices
       where session_date <= $1 and coalesce(override_price, value) is not null order by asset_id, session_date desc`,
      [date],
    );
    return new Map(rows.map((row) => [row.asset_id, Number(row.price)]));
  }

  /** Per asset, the price of its latest trade (the mark where no settlement price exists yet). */
  async lastTradePrices(assetIds: readonly string[]): Promise<Map<string, number>> {
    if (assetIds.length === 0) return new Map();
    const rows = await this.db.query<{ asset_id: string; price: string | number }>(
      `select distinct on (asset_id) asset_id, (data->>'price')::bigint as price from transactions
       where asset_id in (select jsonb_array_elements_text($1::jsonb)) order by asset_id, transaction_id desc`,
      [JSON.stringify(assetIds)],
    );
    return new Map(rows.map((row) => [row.asset_id, Number(row.price)]));
  }

  /**
   * The client's trades of session dates after `afterDate` (null: every session), both sides; of
   * assets other than `forwardAssetIds` only those of `spotFrom` on (older spot trades are delivered).
   */
  async clientTrades(clientCode: string, afterDate: string | null, forwardAssetIds: readonly string[], spotFrom: string): Promise<ClientTrade[]> {
    const rows = await this.db.query<{ transaction_id: string | number; asset_id: string; buyer: string; seller: string; price: string | number; qty: string | number; tx_date: string; margins: boolean }>(
      `select transaction_id, asset_id, buyer, seller, (data->>'price')::bigint as price, (data->>'qty')::bigint as qty, data->>'txDate' as tx_date,
              coalesce((data->>'marginsExposureActive')::boolean, true) as margins
       from transactions where (buyer = $1 or seller = $1) and ($2::text is null or data->>'txDate' > $2)
         and coalesce(data->>'status', 'active') <> 'superseded'
         and (data->>'txDate' >= $4 or asset_id in (select jsonb_array_elements_text($3::jsonb)))
       order by transaction_id`,
      [clientCode, afterDate, JSON.stringify(forwardAssetIds), spotFrom],
    );
    const out: ClientTrade[] = [];
    for (const row of rows) {
      const base = { transactionId: String(row.transaction_id), assetId: row.asset_id, price: Number(row.price), qty: Number(row.qty), txDate: row.tx_date, marginsExposureActive: row.margins };
      if (row.buyer === clientCode) out.push({ ...base, way: 'bid' });
      if (row.seller === clientCode) out.push({ ...base, way: 'ask' });
    }
    return out;
  }

  /** Per market, the latest session date a completed settlement run covered. */
  async settledThrough(): Promise<Map<string, string>> {
    const rows = await this.db.query<{ market_id: string; session_date: string }>(
      "select market_id, max(session_date) as session_date from settlement_runs where status = 'completed' group by market_id",
    );
    return new Map(rows.map((row) => [row.market_id, row.session_date]));
  }

  /** Σ unpaid pay obligations of the client. */
  async unpaidAmount(clientCode: string): Promise<number> {
    const rows = await this.db.query<{ total: string | number | null }>(
      "select sum(amount) as total from payment_obligations where client_code = $1 and direction = 'pay' and status = 'unpaid'",
      [clientCode],
    );
    return Number(rows[0]?.total ?? 0);
  }

  async setEngineFunds(clientCode: string, funds: number, at: Date): Promise<void> {
    await this.db.query(
      'insert into clearing_engine_funds (client_code, funds, set_at) values ($1,$2,$3) on conflict (client_code) do update set funds = excluded.funds, set_at = excluded.set_at',
      [clientCode, funds, at.toISOString()],
    );
  }

  async engineFunds(clientCode: string): Promise<number | null> {
    const rows = await this.db.query<{ funds: string | number }>('select funds from clearing_engine_funds where client_code = $1', [clientCode]);
    return rows[0] ? Number(rows[0].funds) : null;
  }

  async nominations(clientCodes: readonly string[] | null, range: { from?: string; to?: string; assetId?: string }): Promise<NominationRecord[]> {
    const rows = await this.db.query<NominationRow>(
      `select * from nominations where ($1::jsonb is null or client_code in (select jsonb_array_elements_text($1::jsonb)))
         and ($2::text is null or delivery_day >= $2) and ($3::text is null or delivery_day <= $3) and ($4::text is null or asset_id = $4)
       order by delivery_day, transaction_id, client_code`,
      [clientCodes === null ? null : JSON.stringify(clientCodes), range.from ?? null, range.to ?? null, range.assetId ?? null],
    );
    return rows.map(toNomination);
  }

  async nomination(id: string): Promise<NominationRecord | null> {
    const rows = await this.db.query<NominationRow>('select * from nominations where id = $1', [id]);
    return rows[0] ? toNomination(rows[0]) : null;
  }

  /** Inserts nominations in batches; a row already there (same transaction, client and day) is kept as it is. Returns how many were new. */
  async insertNominations(rows: readonly NominationRecord[]): Promise<number> {
    let inserted = 0;
    for (let start = 0; start < rows.length; start += 500) {
      const batch = rows.slice(start, start + 500);
      const result = await this.db.query<{ id: string }>(
        `insert into nominations (id, transaction_id, client_code, asset_id, way, delivery_day, contracted_qty, nominated_qty, deadline, updated_at, updated_by)
         select r.id, r.transaction_id, r.client_code, r.asset_id, r.way, r.delivery_day, r.contracted_qty, r.nominated_qty, r.deadline, r.updated_at, r.updated_by
         from jsonb_to_recordset($1::jsonb) as r(id text, transaction_id text, client_code text, asset_id text, way text, delivery_day text,
           contracted_qty bigint, nominated_qty bigint, deadline timestamptz, updated_at timestamptz, updated_by text)
         on conflict (transaction_id, client_code, delivery_day) do nothing returning id`,
        [
          JSON.stringify(
            batch.map((row) => ({
              id: row.id, transaction_id: row.transactionId, client_code: row.clientCode, asset_id: row.assetId, way: row.way, delivery_day: row.deliveryDay,
              contracted_qty: row.contractedQty, nominated_qty: row.nominatedQty, deadline: row.deadline, updated_at: row.updatedAt, updated_by: row.updatedBy,
            })),
          ),
        ],
      );
      inserted += result.length;
    }
    return inserted;
  }

  /** Sets a nomination's quantity while its deadline is ahead of `at`; false when it is locked (or gone). */
  async updateNomination(id: string, nominatedQty: number, by: string, at: Date): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      'update nominations set nominated_qty = $2, updated_by = $3, updated_at = $4 where id = $1 and deadline > $4 and nominated_qty >= 0 and $2 <= contracted_qty returning id',
      [id, nominatedQty, by, at.toISOString()],
    );
    return rows.length === 1;
  }

  /** The legs of physical trades (asset_clearing_terms.physical) of these clients (null: all) that have no nominations yet. */
  async physicalLegsWithoutNominations(clientCodes: readonly string[] | null): Promise<Array<{ transactionId: string; assetId: string; clientCode: string; way: 'bid' | 'ask'; qty: number; txDate: string }>> {
    const rows = await this.db.query<{ transaction_id: string | number; asset_id: string; client_code: string; way: 'bid' | 'ask'; qty: string | number; tx_date: string }>(
      `with legs as (
         select t.transaction_id, t.asset_id, t.buyer as client_code, 'bid' as way, t.data from transactions t
         union all
         select t.transaction_id, t.asset_id, t.seller, 'ask', t.data from transactions t
       )
       select l.transaction_id, l.asset_id, l.client_code, l.way, (l.data->>'qty')::bigint as qty, l.data->>'txDate' as tx_date
       from legs l join asset_clearing_terms a on a.asset_id = l.asset_id and a.physical
       where ($1::jsonb is null or l.client_code in (select jsonb_array_elements_text($1::jsonb)))
         and not exists (select 1 from nominations n where n.transaction_id = l.transaction_id::text and n.client_code = l.client_code)
       order by l.transaction_id, l.way`,
      [clientCodes === null ? null : JSON.stringify(clientCodes)],
    );
    return rows.map((row) => ({ transactionId: String(row.transaction_id), assetId: row.asset_id, clientCode: row.client_code, way: row.way, qty: Number(row.qty), txDate: row.tx_date }));
  }
}
