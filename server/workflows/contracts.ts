/**
 * Transaction contracts (SPEC §3, §4, §5, §8): a participant of a transaction uploads its PDF, the other
 * participant accepts, the administrator approves; a rejection (with a reason) discards the file and
 * leaves the contract NOT_INITIALIZED, so a corrected one can be uploaded. Every transition goes through
 * the generic runner (workflow-runner.ts); this file adds what only contracts have: the transaction it
 * belongs to, the upload checks and the file, stored in the transaction of the state change.
 */
import { workflowRoutes, type ContractData, type WorkflowInstance } from '../../protocol/workflows.ts';
import { apiError, ExchangeError, type ErrorCode } from '../../protocol/error-codes.ts';
import { actsFor, mayView } from '../../machines/workflows/workflow-actor.ts';
import type { Queryable } from '../store/database.ts';
import { bucharestDate } from '../trading/time.ts';
import { readContractFile, saveContractFile, sha256Of, type ContractUpload } from './contract-files.ts';
import { requestHash, type WorkflowRunner, type WorkflowSideEffects, type WorkflowUser } from './workflow-runner.ts';

/** What contracts need of the exchange (a WorkflowEnvironment, workflow-environment.ts, has it). */
export interface ContractEnvironment {
  db: Queryable;
  now: () => number;
}

/** Where an unexpected failure is written before the user gets CONTRACT_UNKNOWN_ERROR. */
export type ErrorLog = (message: string, error: unknown) => void;

/** The transaction as the read model keeps it (migration 003). */
interface TransactionRow {
  transaction_id: string;
  asset_id: string;
  buyer: string;
  seller: string;
  data: { txDate?: string; timestamp?: string } | string;
}

const EMPTY_FILE = { fileName: null, fileSize: null, sha256: null, uploadedAt: null } as const;

export class ContractService {
  private readonly db: Queryable;
  private readonly now: () => number;

  constructor(
    private readonly runner: WorkflowRunner,
    env: ContractEnvironment,
    private readonly logError: ErrorLog = (message, error) => console.error(message, error),
  ) {
    this.db = env.db;
    this.now = env.now;
  }

  /**
   * Stores an upload. Refusals in this order (the body's own checks ran while it was read): the
   * transaction exists and the user sees it (holds the buyer's or the seller's client; otherwise
   * CONTRACT_TRANSACTION_NOT_FOUND, so ids cannot be probed), the user acts for one of them
   * (CONTRACT_NOT_PARTICIPANT: a terminal, the administrator), no contract in progress or finalized
   * (CONTRACT_EXISTS). The file is written in the transaction of the state change: the first upload
   * creates the instance and uploads at once (the runner's follow-up, by the creator); after a
   * rejection the upload is an action on the NOT_INITIALIZED instance.
   */
  async upload(upload: ContractUpload, actor: WorkflowUser, idempotencyKey?: string): Promise<WorkflowInstance> {
    const { transactionId } = upload;
    const transaction = await this.transaction(transactionId);
    if (!transaction || !mayView(actor, { initiatorClient: transaction.buyer, partnerClient: transaction.seller })) {
      throw new ExchangeError(apiError('CONTRACT_TRANSACTION_NOT_FOUND', { transactionId }));
    }
    const side = actsFor(actor, transaction.buyer) ? transaction.buyer : actsFor(actor, transaction.seller) ? transaction.seller : null;
    if (side === null) throw new ExchangeError(apiError('CONTRACT_NOT_PARTICIPANT', { transactionId }));
    const exists = (): ExchangeError => new ExchangeError<ErrorCode>(apiError('CONTRACT_EXISTS', { transactionId }));

    try {
      const sha256 = sha256Of(upload.bytes);
      const idempotency = idempotencyKey ? { key: idempotencyKey, bodyHash: requestHash(workflowRoutes.contract, { transactionId, fileName: upload.fileName, sha256 }) } : undefined;
      const uploadedAt = new Date(this.now());
      const file = { fileName: upload.fileName, fileSize: upload.bytes.length, sha256, uploadedAt: uploadedAt.toISOString() };
      const store = (tx: Queryable, instanceId: string) =>
        saveContractFile(tx, { instanceId, fileName: upload.fileName, size: upload.bytes.length, sha256, uploadedBy: actor.userId ?? 'system', uploadedAt }, upload.bytes);

      const instanceId = await this.instanceOf(transactionId);
      if (instanceId === null) {
        // The first upload: the instance is created and uploaded by its creator in one transaction, with the file.
        const other = side === transaction.buyer ? transaction.seller : transaction.buyer;
        const data: ContractData = { transactionId, assetId: transaction.asset_id, buyer: transaction.buyer, seller: transaction.seller, date: transaction.date, ...file };
        return await this.runner.create('contract', { initiatorClient: side, partnerClient: other }, data, actor, {
          transactionId,
          idempotency,
          followUp: { type: 'upload', byCreator: true },
          afterCreate: (tx, row) => store(tx, row.id),
          onDuplicate: exists,
        });
      }
      // Again after a rejection. The machine refuses `upload` unless the contract is NOT_INITIALIZED: a
      // contract in progress or finalized, or another upload that won the race, is CONTRACT_EXISTS. A
      // retry with the same Idempotency-Key gets the first answer before the machine is asked.
      return await this.runner
        .act(instanceId, 'upload', actor, { idempotency }, {
          apply: async (row, tx) => {
            await store(tx, row.id);
            return { data: file };
          },
        })
        .catch((error: unknown) => {
          const code = (error as { code?: unknown }).code;
          if (code === 'WORKFLOW_ACTION_NOT_ALLOWED' || code === 'WORKFLOW_CONFLICT') throw exists();
          throw error;
        });
    } catch (error) {
      if (error instanceof ExchangeError) throw error;
      this.logError(`contract upload for transaction ${transactionId} failed`, error);
      throw new ExchangeError(apiError('CONTRACT_UNKNOWN_ERROR'));
    }
  }

  /** The PDF, for the participants' users and the administrator; anyone else (or no file) WORKFLOW_NOT_FOUND. */
  async file(instanceId: string, actor: WorkflowUser): Promise<{ fileName: string; content: Buffer }> {
    const instance = await this.runner.get(instanceId, actor);
    const file = instance.kind === 'contract' ? await readContractFile(this.db, instance.instanceId) : null;
    if (!file) throw new ExchangeError(apiError('WORKFLOW_NOT_FOUND', { instanceId }));
    return file;
  }

  /** What the generic action route runs for a contract: a rejection discards the file with the state change. */
  sideEffects(action: string): WorkflowSideEffects {
    if (action !== 'reject') return {};
    return {
      apply: async (row, tx) => {
        await tx.query('delete from transaction_contract_files where instance_id = $1', [row.id]);
        return { data: { ...EMPTY_FILE } };
      },
    };
  }

  private async transaction(transactionId: string): Promise<{ asset_id: string; buyer: string; seller: string; date: string } | null> {
    const rows = await this.db.query<TransactionRow>(
      'select transaction_id::text as transaction_id, asset_id, buyer, seller, data from transactions where transaction_id = $1::bigint',
      [transactionId],
    );
    const row = rows[0];
    if (!row) return null;
    const data = typeof row.data === 'string' ? (JSON.parse(row.data) as { txDate?: string; timestamp?: string }) : row.data;
    const date = data.txDate && /^\d{4}-\d{2}-\d{2}$/.test(data.txDate) ? data.txDate : bucharestDate(data.timestamp ? Date.parse(data.timestamp) : this.now());
    return { asset_id: row.asset_id, buyer: row.buyer, seller: row.seller, date };
  }

  private async instanceOf(transactionId: string): Promise<string | null> {
    const rows = await this.db.query<{ id: string }>("select id from workflow_instances where kind = 'contract' and transaction_id = $1", [transactionId]);
    return rows[0]?.id ?? null;
  }
}
