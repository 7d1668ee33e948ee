import type { Queryable } from '../store/database.ts';
/**
 * Margin exposure activation of a transaction (SPEC §4): a participant asks, the administrator
 * approves, and the ledger sets the transaction's marginsExposureActive (clearing starts counting it).
 * One instance per transaction (a unique index): a rejected or cancelled one is back to `inactive` and
 * the next request activates the same instance again. The machine is
 * machines/workflows/margin-activation.machine.ts.
 *
 * A user who is not a participant of the transaction (or cannot see it) is refused FORBIDDEN
 * {scope: 'participant'}, the same answer for both, so ids cannot be probed.
 */
import { apiError, ExchangeError } from '../../protocol/error-codes.ts';
import type { MarginActivationData, MarginActivationRequest, WorkflowInstance } from '../../protocol/workflows.ts';
import { actsFor } from '../../machines/workflows/workflow-actor.ts';
import type { WorkflowEnvironment } from './workflow-environment.ts';
import type { WorkflowRow } from './workflow-repository.ts';
import { refusal } from './workflow-rules.ts';
import type { IdempotencyInput, WorkflowRunner, WorkflowSideEffects, WorkflowUser } from './workflow-runner.ts';

export class MarginActivations {
  constructor(
    private readonly runner: WorkflowRunner,
    private readonly env: WorkflowEnvironment,
  ) {}

  async request(body: MarginActivationRequest, actor: WorkflowUser, idempotency?: IdempotencyInput): Promise<WorkflowInstance> {
    const { transactionId } = body;
    const transaction = await this.env.ledger.transaction(transactionId);
    if (!transaction || !(actsFor(actor, transaction.buyer) || actsFor(actor, transaction.seller))) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'participant' }));
    if (transaction.marginsExposureActive) throw refusal('MARGIN_EXPOSURE_ALREADY_ACTIVE', { transactionId });
    const [existing] = await this.runner.repository.list(this.env.db, { kind: 'marginActivation', transactionId }, { userId: null, roles: [], scopes: [], clientCodes: [] }, 1);
    if (existing) {
      if (existing.status === 'active') throw refusal('MARGIN_EXPOSURE_ALREADY_ACTIVE', { transactionId });
      return this.runner.act(existing.instanceId, 'activate', actor, { idempotency }, this.sideEffects('activate'));
    }
    const initiator = actsFor(actor, transaction.buyer) ? transaction.buyer : transaction.seller;
    const partner = initiator === transaction.buyer ? transaction.seller : transaction.buyer;
    const data: MarginActivationData = { transactionId, assetId: transaction.assetId, buyer: transaction.buyer, seller: transaction.seller, activatedAt: null };
    return this.runner.create('marginActivation', { initiatorClient: initiator, partnerClient: partner }, data, actor, {
      transactionId,
      idempotency,
      followUp: { type: 'activate', byCreator: true },
      // Two first requests at once: the second finds the unique index taken.
      onDuplicate: () => refusal('WORKFLOW_CONFLICT', { instanceId: transactionId, version: 1 }),
    });
  }

  sideEffects(action: string): WorkflowSideEffects {
    if (action !== 'approve') return {};
    return {
      apply: async (row: WorkflowRow, tx: Queryable) => {
        // Idempotent in the ledger: a retry after a lost commit sets it again to the same value.
        await this.env.ledger.setTransactionMarginsExposure(String(row.data.transactionId), true, tx);
        return { data: { activatedAt: new Date(this.env.now()).toISOString() } };
      },
    };
  }
}
