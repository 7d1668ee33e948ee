import type { Transaction } from '../../protocol/market-data.ts';
import type { Novation, OffBookTradeCommand, WorkflowLedger } from '../../server/workflows/workflow-ledger.ts';

export type LedgerCall =
  | { method: 'registerOffBookTrade'; cmd: OffBookTradeCommand }
  | { method: 'novateTransaction'; cmd: { transactionId: string; qty: number; targetAssetId: string; at: string } }
  | { method: 'setTransactionMarginsExposure'; transactionId: string; active: boolean }
  | { method: 'setWhitelistRelation'; clientCode: string; partnerCode: string; active: boolean };

/**
 * The workflows' engine port in memory: transactions by id, every mutating call recorded. `crashAfterNext`
 * makes the next mutation land and then throw, as a process that dies between the engine call and the
 * database commit would (the exactly-once tests).
 */
export class MemoryLedger implements WorkflowLedger {
  readonly calls: LedgerCall[] = [];
  readonly transactions = new Map<string, Transaction>();
  private nextId = 5000;
  private crash = false;

  constructor(private readonly now: () => number = Date.now) {}

  /** A transaction the tests start from (defaults: GFWD-M-2027-01, RO-HIDRO buys from RO-TERMO 100.0 at 150.00). */
  seed(fields: Partial<Transaction> = {}): Transaction {
    const at = new Date(this.now()).toISOString();
    const { transactionId, ...rest } = fields;
    const transaction: Transaction = {
      transactionId: transactionId ?? String(++this.nextId),
      assetId: 'GFWD-M-2027-01',
      price: 15000,
      qty: 1000,
      noCnt: 1,
      aggressor: 'bid',
      txDate: at.slice(0, 10),
      timestamp: at,
      buyer: 'RO-HIDRO',
      seller: 'RO-TERMO',
      buyOrderId: '0',
      sellOrderId: '0',
      marginsExposureActive: false,
      externalTransactionId: null,
      gasfwTransactionId: null,
      transferTimestamp: null,
      parentTransactionId: null,
      grandParentTransactionId: null,
      splitTimestamp: null,
      ...rest,
    };
    this.transactions.set(transaction.transactionId, transaction);
    return transaction;
  }

  crashAfterNext(): void {
    this.crash = true;
  }

  private landed<T>(value: T): T {
    if (this.crash) {
      this.crash = false;
      throw new Error('crashed after the engine call');
    }
    return value;
  }

  async registerOffBookTrade(cmd: OffBookTradeCommand): Promise<Transaction> {
    this.calls.push({ method: 'registerOffBookTrade', cmd });
    const { origin: _origin, ...fields } = cmd;
    return this.landed(this.seed({ ...fields, aggressor: 'bid' }));
  }

  async novateTransaction(cmd: { transactionId: string; qty: number; targetAssetId: string; at: string }): Promise<Novation> {
    this.calls.push({ method: 'novateTransaction', cmd });
    const original = this.transactions.get(cmd.transactionId);
    if (!original) throw new Error(`no transaction ${cmd.transactionId}`);
    const lineage = { parentTransactionId: original.transactionId, grandParentTransactionId: original.parentTransactionId };
    const transferred = this.seed({ ...original, ...lineage, transactionId: undefined, assetId: cmd.targetAssetId, qty: cmd.qty, transferTimestamp: cmd.at });
    const remainder =
      cmd.qty < original.qty ? this.seed({ ...original, ...lineage, transactionId: undefined, qty: original.qty - cmd.qty, splitTimestamp: cmd.at }) : null;
    return this.landed({ transferred, remainder });
  }

  async setTransactionMarginsExposure(transactionId: string, active: boolean): Promise<void> {
    this.calls.push({ method: 'setTransactionMarginsExposure', transactionId, active });
    const transaction = this.transactions.get(transactionId);
    if (transaction) this.transactions.set(transactionId, { ...transaction, marginsExposureActive: active });
    this.landed(undefined);
  }

  async setWhitelistRelation(clientCode: string, partnerCode: string, active: boolean): Promise<void> {
    this.calls.push({ method: 'setWhitelistRelation', clientCode, partnerCode, active });
    this.landed(undefined);
  }

  async transaction(transactionId: string): Promise<Transaction | null> {
    return this.transactions.get(transactionId) ?? null;
  }

  async transactionByExternalId(externalTransactionId: string): Promise<Transaction | null> {
    return [...this.transactions.values()].find((transaction) => transaction.externalTransactionId === externalTransactionId) ?? null;
  }

  async novationOf(transactionId: string): Promise<Novation | null> {
    const children = [...this.transactions.values()].filter((transaction) => transaction.parentTransactionId === transactionId);
    const transferred = children.find((transaction) => transaction.transferTimestamp !== null);
    return transferred ? { transferred, remainder: children.find((transaction) => transaction.transferTimestamp === null) ?? null } : null;
  }
}
