/**
 * What the workflow services need of the rest of the exchange, as small ports so tests pass their own:
 * clearing's figures (available funds, the latest daily settlement price), the engine's session
 * calendar, and the transactions read model behind the ledger's look-ups. The real implementations
 * read clearing (server/clearing/) and the engine; they are used outside the runner's transaction.
 */
import type { Transaction } from '../../protocol/market-data.ts';
import type { Queryable } from '../store/database.ts';
import type { AssetRecord, Client, ReferenceRepository } from '../store/reference.repository.ts';
import type { WorkflowLedger, Novation, OffBookTradeCommand } from './workflow-ledger.ts';

export interface WorkflowClearing {
  /**
   * What the client may still commit now, in amount minor units: the engine's funds (the clearing
   * limit less the margins the engine does not hold, server/clearing/engine-funds.ts) less the
   * margins of its open orders and trades (the engine's ORDER_INSUFFICIENT_FUNDS check). A client
   * without a funds limit: Number.MAX_SAFE_INTEGER.
   */
  availableFunds(clientCode: string): Promise<number>;
  /** The asset's latest daily settlement price in force (override, else computed), null before the first. */
  settlementPrice(assetId: string): Promise<number | null>;
  /** Does the market hold a session on this Bucharest date (the engine's current session)? */
  hasSession(marketId: string, date: string): Promise<boolean>;
}

export interface WorkflowEnvironment {
  db: Queryable;
  reference: Pick<ReferenceRepository, 'clients' | 'assets' | 'markets'>;
  clearing: WorkflowClearing;
  ledger: WorkflowLedger;
  now: () => number;
}

/** The engine figures the funds come from (Engine.getClientFinancials, getMarketPhase). */
export interface EngineView {
  getClientFinancials(clientCode: string): { reservedMargin: number; tradesMargin: number; funds: number | null } | undefined;
  getMarketPhase(marketId: string): { phase: string; sessionDate: string } | undefined;
}

export function engineClearing(db: Queryable, engine: () => EngineView): WorkflowClearing {
  return {
    async availableFunds(clientCode) {
      const figures = engine().getClientFinancials(clientCode);
      if (!figures) return 0;
      if (figures.funds === null) return Number.MAX_SAFE_INTEGER;
      return figures.funds - figures.reservedMargin - figures.tradesMargin;
    },
    async settlementPrice(assetId) {
      const rows = await db.query<{ price: string | number }>(
        `select coalesce(override_price, value) as price from daily_settlement_prices
          where asset_id = $1 and coalesce(override_price, value) is not null order by session_date desc limit 1`,
        [assetId],
      );
      return rows[0] ? Number(rows[0].price) : null;
    },
    async hasSession(marketId, date) {
      const phase = engine().getMarketPhase(marketId);
      return phase !== undefined && phase.sessionDate === date && phase.phase !== 'closed';
    },
  };
}

/** A transaction of the read model (the projector's `transactions.data`). */
export async function readModelTransaction(db: Queryable, transactionId: string): Promise<Transaction | null> {
  if (!/^[0-9]{1,18}$/.test(transactionId)) return null;
  const rows = await db.query<{ data: Transaction }>('select data from transactions where transaction_id = $1', [transactionId]);
  return rows[0]?.data ?? null;
}

/**
 * The ledger's look-ups from the transactions read model, and its mutations not wired yet: the lead
 * swaps in TradingService's (issue 15's engine part) at merge. Until then an approval that needs the
 * engine fails with an error (500), never silently.
 */
export class ReadModelLedger implements WorkflowLedger {
  constructor(private readonly db: Queryable) {}

  transaction(transactionId: string, db: Queryable = this.db): Promise<Transaction | null> {
    return readModelTransaction(db, transactionId);
  }

  async transactionByExternalId(externalTransactionId: string, db: Queryable = this.db): Promise<Transaction | null> {
    const rows = await db.query<{ data: Transaction }>(`select data from transactions where data->>'externalTransactionId' = $1 limit 1`, [externalTransactionId]);
    return rows[0]?.data ?? null;
  }

  async novationOf(transactionId: string, db: Queryable = this.db): Promise<Novation | null> {
    const rows = await db.query<{ data: Transaction }>(`select data from transactions where data->>'parentTransactionId' = $1 order by transaction_id`, [transactionId]);
    const transferred = rows.map((row) => row.data).find((tx) => tx.transferTimestamp !== null);
    if (!transferred) return null;
    const remainder = rows.map((row) => row.data).find((tx) => tx.transferTimestamp === null) ?? null;
    return { transferred, remainder };
  }

  registerOffBookTrade(_cmd: OffBookTradeCommand): Promise<Transaction> {
    return Promise.reject(new Error('workflow ledger: registerOffBookTrade is not wired to the engine yet'));
  }

  novateTransaction(_cmd: { transactionId: string; qty: number; targetAssetId: string; at: string }): Promise<Novation> {
    return Promise.reject(new Error('workflow ledger: novateTransaction is not wired to the engine yet'));
  }

  setTransactionMarginsExposure(_transactionId: string, _active: boolean): Promise<void> {
    return Promise.reject(new Error('workflow ledger: setTransactionMarginsExposure is not wired to the engine yet'));
  }

  setWhitelistRelation(_clientCode: string, _partnerCode: string, _active: boolean): Promise<void> {
    return Promise.reject(new Error('workflow ledger: setWhitelistRelation is not wired to the engine yet'));
  }
}

export function assetById(assets: readonly AssetRecord[], assetId: string): AssetRecord | undefined {
  return assets.find((asset) => asset.id === assetId);
}

export function clientByCode(clients: readonly Client[], code: string): Client | undefined {
  return clients.find((client) => client.code === code);
}
