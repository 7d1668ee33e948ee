/**
 * Transfer of a transaction to the central counterparty (SPEC §4, §8): a participant requests it for
 * all or part of the quantity, the other participant accepts, the administrator approves (with the
 * checks) or approves without checks; the ledger then novates the transaction into the CCP market.
 * The machine is machines/workflows/transfer.machine.ts. Every refusal carries the transaction id.
 *
 * The twin rule: a transaction moves to the asset of the CCP market (kind 'ccp') of the same commodity
 * with the same product type and the same delivery period (deliveryStart and deliveryEnd), e.g.
 * GFWD-M-2027-01 (gas forward, January 2027) → GCCP-M-2027-01. No twin, or a transaction already in a
 * CCP market: non-transferable (TRANSFER_ASSET_NOT_IN_MARKET); a gas release asset: non-transferable
 * (TRANSFER_GAS_RELEASE). Both are decided at once when the request is made (system `nonTransferable`).
 *
 * The limit date: 15:00 Bucharest on the day before the asset's delivery starts (as for OTC deals):
 * after it the position is in delivery and cannot change counterparty. A request after it is refused;
 * an instance still open then fails (the timers, TRANSFER_LIMIT_DATE_EXCEEDED).
 *
 * At approval, structural checks always: buyer and seller exist, the limit date, the twin. Then, unless
 * the administrator approves without checks (data.checksSkipped = true): buyer and seller active, a
 * session of the target market today, an active broker user in the buying and the selling agency, the
 * initiator and partner active and with the funds for the transferred quantity's initial margin in the
 * target asset. A failure is the system's checksFailed: failed, with the code.
 */
import type { Transaction } from '../../protocol/market-data.ts';
import type { TransferData, TransferRequest, WorkflowInstance } from '../../protocol/workflows.ts';
import { actsFor } from '../../machines/workflows/workflow-actor.ts';
import type { Queryable } from '../store/database.ts';
import type { AssetRecord } from '../store/reference.repository.ts';
import { bucharestDate } from '../trading/time.ts';
import { assetById, clientByCode, type WorkflowEnvironment } from './workflow-environment.ts';
import type { WorkflowRow } from './workflow-repository.ts';
import { assetConfig, dealMargin, limitBeforeDelivery, refusal, requestInvalid } from './workflow-rules.ts';
import type { FailedCheck, IdempotencyInput, WorkflowRunner, WorkflowSideEffects, WorkflowUser } from './workflow-runner.ts';

export class Transfers {
  constructor(
    private readonly runner: WorkflowRunner,
    private readonly env: WorkflowEnvironment,
  ) {}

  async request(body: TransferRequest, actor: WorkflowUser, idempotency?: IdempotencyInput): Promise<WorkflowInstance> {
    const { transactionId } = body;
    const transaction = await this.env.ledger.transaction(transactionId);
    // A transaction the user cannot see answers as one it is not party to: ids cannot be probed.
    if (!transaction || !(actsFor(actor, transaction.buyer) || actsFor(actor, transaction.seller))) throw refusal('TRANSFER_NOT_PARTICIPANT', { transactionId });
    // Already novated (the original is superseded): a new request would otherwise end 'finalized' by taking that novation again.
    if (transaction.status === 'superseded' || (await this.env.ledger.novationOf(transactionId))) throw refusal('TRANSFER_ALREADY_DONE', { transactionId });
    const qty = body.qty ?? transaction.qty;
    if (qty > transaction.qty) throw requestInvalid('qty', 'too_big');
    const initiator = actsFor(actor, transaction.buyer) ? transaction.buyer : transaction.seller;
    const partner = initiator === transaction.buyer ? transaction.seller : transaction.buyer;
    const assets = await this.env.reference.assets();
    const asset = assetById(assets, transaction.assetId);
    const twin = asset ? await this.twinOf(asset, assets) : null;
    if (asset && Date.parse(limitBeforeDelivery(asset.spec.deliveryStart)) <= this.env.now()) throw refusal('TRANSFER_LIMIT_DATE_EXCEEDED', { transactionId });
    const data: TransferData = {
      transactionId,
      assetId: transaction.assetId,
      targetAssetId: twin?.id ?? null,
      qty,
      transactionQty: transaction.qty,
      price: transaction.price,
      buyer: transaction.buyer,
      seller: transaction.seller,
      transferredTransactionId: null,
      remainderTransactionId: null,
      checksSkipped: false,
    };
    const nonTransferable = asset && assetConfig(asset, 'gasRelease') ? 'TRANSFER_GAS_RELEASE' : twin === null ? 'TRANSFER_ASSET_NOT_IN_MARKET' : null;
    return this.runner.create('transfer', { initiatorClient: initiator, partnerClient: partner }, data, actor, {
      transactionId,
      limitAt: asset ? limitBeforeDelivery(asset.spec.deliveryStart) : null,
      idempotency,
      onDuplicate: () => refusal('TRANSFER_IN_PROGRESS', { transactionId }),
      ...(nonTransferable ? { followUp: { type: 'nonTransferable', code: nonTransferable, params: { transactionId } } } : {}),
    });
  }

  sideEffects(action: string): WorkflowSideEffects {
    if (action !== 'approve' && action !== 'approveWithoutChecks') return {};
    const withChecks = action === 'approve';
    return {
      check: async (row) => {
        const failed = (await this.structuralCheck(row)) ?? (withChecks ? await this.fullCheck(row) : null);
        return failed ? { failed } : { data: { checksSkipped: !withChecks } };
      },
      apply: (row, tx) => this.novate(row, tx),
    };
  }

  /** The twin asset in the CCP market of the same commodity (see the file's comment), or null. */
  private async twinOf(asset: AssetRecord, assets: readonly AssetRecord[]): Promise<AssetRecord | null> {
    const markets = await this.env.reference.markets();
    const market = markets.find((candidate) => candidate.id === asset.marketId);
    if (!market || market.kind === 'ccp') return null;
    const ccpMarkets = new Set(markets.filter((candidate) => candidate.kind === 'ccp' && candidate.commodity === market.commodity).map((candidate) => candidate.id));
    return (
      assets.find(
        (candidate) =>
          ccpMarkets.has(candidate.marketId) &&
          candidate.spec.type === asset.spec.type &&
          candidate.spec.deliveryStart === asset.spec.deliveryStart &&
          candidate.spec.deliveryEnd === asset.spec.deliveryEnd,
      ) ?? null
    );
  }

  private async structuralCheck(row: WorkflowRow): Promise<FailedCheck | null> {
    const data = row.data as TransferData;
    const params = { transactionId: data.transactionId };
    const clients = await this.env.reference.clients();
    if (!clientByCode(clients, data.buyer)) return { code: 'TRANSFER_BUYER_NOT_FOUND', params };
    if (!clientByCode(clients, data.seller)) return { code: 'TRANSFER_SELLER_NOT_FOUND', params };
    if (row.limitAt !== null && Date.parse(row.limitAt) <= this.env.now()) return { code: 'TRANSFER_LIMIT_DATE_EXCEEDED', params };
    const assets = await this.env.reference.assets();
    const asset = assetById(assets, data.assetId);
    const twin = asset ? await this.twinOf(asset, assets) : null;
    if (!twin || twin.id !== data.targetAssetId) return { code: 'TRANSFER_ASSET_NOT_IN_MARKET', params };
    return null;
  }

  private async fullCheck(row: WorkflowRow): Promise<FailedCheck | null> {
    const data = row.data as TransferData;
    const params = { transactionId: data.transactionId };
    const clients = await this.env.reference.clients();
    if (!clientByCode(clients, data.buyer)?.active) return { code: 'TRANSFER_BUYER_NOT_ACTIVE', params };
    if (!clientByCode(clients, data.seller)?.active) return { code: 'TRANSFER_SELLER_NOT_ACTIVE', params };
    const target = assetById(await this.env.reference.assets(), data.targetAssetId ?? '');
    if (!target) return { code: 'TRANSFER_ASSET_NOT_IN_MARKET', params };
    const today = bucharestDate(this.env.now());
    if (!(await this.env.clearing.hasSession(target.marketId, today))) return { code: 'TRANSFER_NO_SESSION', params: { ...params, date: today } };
    const brokers = await this.env.db.query<{ agency_id: string }>(
      `select distinct agency_id from users where agency_id is not null and roles ? 'broker' and scopes ? 'trading:write'`,
    );
    const withBroker = new Set(brokers.map((broker) => broker.agency_id));
    if (!withBroker.has(clientByCode(clients, data.buyer)!.agencyId)) return { code: 'TRANSFER_NO_BUY_AGENCY_BROKER', params };
    if (!withBroker.has(clientByCode(clients, data.seller)!.agencyId)) return { code: 'TRANSFER_NO_SELL_AGENCY_BROKER', params };
    if (!clientByCode(clients, row.initiatorClient)?.active) return { code: 'TRANSFER_INITIATOR_NOT_ACTIVE', params };
    if (!clientByCode(clients, row.partnerClient)?.active) return { code: 'TRANSFER_PARTNER_NOT_ACTIVE', params };
    const { margin } = dealMargin(target, data.price, data.qty);
    if ((await this.env.clearing.availableFunds(row.initiatorClient)) < margin) return { code: 'TRANSFER_INITIATOR_INSUFFICIENT_FUNDS', params };
    if ((await this.env.clearing.availableFunds(row.partnerClient)) < margin) return { code: 'TRANSFER_PARTNER_INSUFFICIENT_FUNDS', params };
    return null;
  }

  /** Exactly once: a novation already made (found by its parent transaction) is taken, not made again. */
  private async novate(row: WorkflowRow, tx: Queryable) {
    const data = row.data as TransferData;
    const done = await this.env.ledger.novationOf(data.transactionId, tx);
    const novation =
      done ?? (await this.env.ledger.novateTransaction({ transactionId: data.transactionId, qty: data.qty, targetAssetId: data.targetAssetId!, at: new Date(this.env.now()).toISOString() }, tx));
    const id = (transaction: Transaction | null) => transaction?.transactionId ?? null;
    return { data: { transferredTransactionId: id(novation.transferred), remainderTransactionId: id(novation.remainder) } };
  }
}
