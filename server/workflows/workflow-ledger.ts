/**
 * The engine port of the workflows: what an approved workflow changes in trading and clearing. The
 * real implementation is TradingService (server/trading/trading-service.ts, issue 15's engine part);
 * tests pass tests/helpers/memory-ledger.ts. Only `apply` hooks (inside the runner's transaction, after
 * the lock) call the mutating methods.
 *
 * Exactly once (docs/workflows.md): a mutation may land in the engine while the database commit that
 * records it fails. Every caller therefore looks first:
 *  - a registered trade carries the instance id as externalTransactionId: `transactionByExternalId`
 *    finds it, and the approval that retries takes it instead of registering a second one;
 *  - a novation leaves the transferred transaction with parentTransactionId = the original:
 *    `novationOf` finds it (and the remainder), and the retry takes them;
 *  - setting margin exposure active twice is the same as once.
 *
 * The mutations run inside the runner's database transaction: they must not wait on the read models
 * (on PGlite every other query waits until that transaction ends). The look-ups take the transaction's
 * Queryable for the same reason (`db`; absent: the ledger's own connection).
 */
import type { Transaction } from '../../protocol/market-data.ts';
import type { Queryable } from '../store/database.ts';

export interface OffBookTradeCommand {
  assetId: string;
  buyer: string;
  seller: string;
  price: number;
  qty: number;
  origin: 'otc' | 'transfer' | 'split';
  parentTransactionId: string | null;
  grandParentTransactionId: string | null;
  transferTimestamp: string | null;
  splitTimestamp: string | null;
  externalTransactionId: string | null;
  marginsExposureActive: boolean;
}

export interface Novation {
  transferred: Transaction;
  remainder: Transaction | null;
}

export interface WorkflowLedger {
  registerOffBookTrade(cmd: OffBookTradeCommand): Promise<Transaction>;
  /** `db`: the runner's transaction, to read the original transaction without waiting on it. */
  novateTransaction(cmd: { transactionId: string; qty: number; targetAssetId: string; at: string }, db?: Queryable): Promise<Novation>;
  setTransactionMarginsExposure(transactionId: string, active: boolean, db?: Queryable): Promise<void>;
  setWhitelistRelation(clientCode: string, partnerCode: string, active: boolean): Promise<void>;
  transaction(transactionId: string, db?: Queryable): Promise<Transaction | null>;
  /** The trade registered with this externalTransactionId (a workflow instance id), if any. */
  transactionByExternalId(externalTransactionId: string, db?: Queryable): Promise<Transaction | null>;
  /** The result of an earlier novation of this transaction, if any. */
  novationOf(transactionId: string, db?: Queryable): Promise<Novation | null>;
}
