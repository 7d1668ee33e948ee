/**
 * The workflows' engine port on the real engine: TradingService's post-trade commands (journaled,
 * replayed, in the state hash), with the read-model look-ups of ReadModelLedger. The original of a
 * novation or a margin switch is read on the runner's database transaction and handed over, so the
 * trading service never waits on the read models while that transaction is open (PGlite would wait
 * on itself).
 */
import type { Transaction } from '../../protocol/market-data.ts';
import type { Queryable } from '../store/database.ts';
import type { TradingService } from '../trading/trading-service.ts';
import { ReadModelLedger } from './workflow-environment.ts';
import type { Novation, OffBookTradeCommand } from './workflow-ledger.ts';

export class TradingLedger extends ReadModelLedger {
  constructor(
    db: Queryable,
    private readonly trading: Pick<TradingService, 'registerOffBookTrade' | 'novateTransaction' | 'setTransactionMarginsExposure' | 'setWhitelistRelation'>,
  ) {
    super(db);
  }

  override registerOffBookTrade(cmd: OffBookTradeCommand): Promise<Transaction> {
    return this.trading.registerOffBookTrade(cmd);
  }

  override async novateTransaction(cmd: { transactionId: string; qty: number; targetAssetId: string; at: string }, db?: Queryable): Promise<Novation> {
    const known = await this.transaction(cmd.transactionId, db);
    return this.trading.novateTransaction({ transactionId: cmd.transactionId, qty: cmd.qty, targetAssetId: cmd.targetAssetId, known });
  }

  override async setTransactionMarginsExposure(transactionId: string, active: boolean, db?: Queryable): Promise<void> {
    const known = await this.transaction(transactionId, db);
    await this.trading.setTransactionMarginsExposure({ transactionId, active, known });
  }

  override setWhitelistRelation(clientCode: string, partnerCode: string, active: boolean): Promise<void> {
    return this.trading.setWhitelistRelation({ clientCode, partnerCode, active });
  }
}
