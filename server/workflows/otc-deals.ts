/**
 * OTC deals (SPEC §3, §4, §5): a broker registers a deal for its own client with a partner client; the
 * initiator activates it (sends it to the partner), the partner accepts, the administrator approves and
 * the deal becomes a transaction in the ledger (origin 'otc', margins exposure off until a margin
 * activation turns it on). The machine is machines/workflows/otc-deal.machine.ts.
 *
 * Checks (docs/workflows.md "OTC deals"):
 *  - register: the user acts for the client (ACCOUNT_CLIENT_FORBIDDEN), another partner
 *    (OTC_SAME_CLIENT), delivery dates (OTC_DELIVERY_DATES_INVALID), an asset that allows OTC deals
 *    (OTC_ASSET_NOT_ALLOWED: not gas release, simple competitive or bilateral), the price within 25 %
 *    of the latest daily settlement price (OTC_PRICE_VARIATION; no settlement price yet: no band), the
 *    limit date not passed (OTC_LIMIT_DATE_EXCEEDED). limitAt = 15:00 Bucharest on the day before the
 *    first delivery date; the timers expire the deal then.
 *  - activate: the initiator active with the funds for the deal's margin (refused otherwise);
 *  - acceptActivation: the partner likewise (refused otherwise);
 *  - approve: both again, and the band; a failure is the system's checksFailed: rejected with the code.
 * The deal's margin = value (price × qty in amount units) × the asset's initial margin rate (marginBps).
 */
import { formatDecimal } from '../../protocol/decimal.ts';
import type { ErrorCode } from '../../protocol/error-codes.ts';
import { OTC_MAX_PRICE_VARIATION_PERCENT, type OtcDealData, type OtcDealDraft, type OtcSimulation, type WorkflowInstance } from '../../protocol/workflows.ts';
import { actsFor } from '../../machines/workflows/workflow-actor.ts';
import type { Queryable } from '../store/database.ts';
import type { AssetRecord, Client } from '../store/reference.repository.ts';
import { bucharestDate } from '../trading/time.ts';
import { assetById, clientByCode, type WorkflowEnvironment } from './workflow-environment.ts';
import type { WorkflowRow } from './workflow-repository.ts';
import { assetConfig, dealMargin, limitBeforeDelivery, refusal, requestInvalid } from './workflow-rules.ts';
import type { FailedCheck, IdempotencyInput, WorkflowRunner, WorkflowSideEffects, WorkflowUser } from './workflow-runner.ts';

/** The asset kinds an OTC deal may not be registered on: they trade only by their own procedure. */
const OTC_EXCLUDED_CONFIG = ['gasRelease', 'simpleCompetitive', 'bilateral'] as const;

export class OtcDeals {
  constructor(
    private readonly runner: WorkflowRunner,
    private readonly env: WorkflowEnvironment,
  ) {}

  async register(draft: OtcDealDraft, actor: WorkflowUser, idempotency?: IdempotencyInput): Promise<WorkflowInstance> {
    const { asset, settlementPrice } = await this.validateDraft(draft, actor);
    const limitAt = limitBeforeDelivery(draft.firstDeliveryDate);
    if (Date.parse(limitAt) <= this.env.now()) throw refusal('OTC_LIMIT_DATE_EXCEEDED');
    const data: OtcDealData = {
      assetId: asset.id,
      way: draft.way,
      qty: draft.qty,
      price: draft.price,
      firstDeliveryDate: draft.firstDeliveryDate,
      lastDeliveryDate: draft.lastDeliveryDate,
      noDeliveryDays: draft.noDeliveryDays,
      settlementPrice,
      initiatedAt: null,
      transactionId: null,
      txDate: null,
      txTime: null,
    };
    return this.runner.create('otc', { initiatorClient: draft.clientCode, partnerClient: draft.partnerClientCode }, data, actor, { limitAt, idempotency });
  }

  /** The exposure simulator: each side's margin and funds, and the price band. */
  async simulate(draft: OtcDealDraft, actor: WorkflowUser): Promise<OtcSimulation> {
    if (!actsFor(actor, draft.clientCode)) throw refusal('ACCOUNT_CLIENT_FORBIDDEN', { clientCode: draft.clientCode });
    const asset = assetById(await this.env.reference.assets(), draft.assetId);
    if (!asset) throw refusal('OTC_ASSET_NOT_ALLOWED', { assetId: draft.assetId });
    const { value, margin } = dealMargin(asset, draft.price, draft.qty);
    const side = async (clientCode: string) => {
      const availableFunds = await this.env.clearing.availableFunds(clientCode);
      return { clientCode, margin, availableFunds, sufficient: availableFunds >= margin };
    };
    const settlementPrice = await this.env.clearing.settlementPrice(asset.id);
    const band = priceBand(settlementPrice);
    return {
      currency: asset.spec.currency,
      value,
      initiator: await side(draft.clientCode),
      // Another agency's client: its funds are not the user's business (checked when it accepts).
      partner: actor.clientCodes.includes(draft.partnerClientCode) ? await side(draft.partnerClientCode) : null,
      settlementPrice,
      maxVariationPercent: OTC_MAX_PRICE_VARIATION_PERCENT,
      minPrice: band?.min ?? null,
      maxPrice: band?.max ?? null,
      priceWithinBand: band === null || (draft.price >= band.min && draft.price <= band.max),
    };
  }

  /** The checks and side effects of a user action on a deal. */
  sideEffects(action: string): WorkflowSideEffects {
    switch (action) {
      case 'activate':
        return {
          check: async (row) => {
            this.checkLimit(row);
            const failed = await this.sideCheck(row, 'initiator');
            if (failed) throw refusal(failed.code, failed.params);
            return { data: { initiatedAt: new Date(this.env.now()).toISOString() } };
          },
        };
      case 'acceptActivation':
        return {
          check: async (row) => {
            this.checkLimit(row);
            const failed = await this.sideCheck(row, 'partner');
            if (failed) throw refusal(failed.code, failed.params);
          },
        };
      case 'approve':
        return {
          check: async (row) => {
            this.checkLimit(row);
            const failed = (await this.sideCheck(row, 'initiator')) ?? (await this.sideCheck(row, 'partner')) ?? (await this.bandCheck(row));
            return failed ? { failed } : {};
          },
          apply: (row, tx) => this.registerTransaction(row, tx),
        };
      default:
        return {};
    }
  }

  private async validateDraft(draft: OtcDealDraft, actor: WorkflowUser): Promise<{ asset: AssetRecord; settlementPrice: number | null }> {
    if (!actsFor(actor, draft.clientCode)) throw refusal('ACCOUNT_CLIENT_FORBIDDEN', { clientCode: draft.clientCode });
    if (draft.partnerClientCode === draft.clientCode) throw refusal('OTC_SAME_CLIENT', { clientCode: draft.clientCode });
    const clients = await this.env.reference.clients();
    if (!clientByCode(clients, draft.partnerClientCode)) throw requestInvalid('partnerClientCode', 'unknown');
    const dates = { firstDeliveryDate: draft.firstDeliveryDate, lastDeliveryDate: draft.lastDeliveryDate };
    const spanDays = (Date.parse(draft.lastDeliveryDate) - Date.parse(draft.firstDeliveryDate)) / 86_400_000 + 1;
    const today = bucharestDate(this.env.now());
    if (spanDays < 1 || draft.noDeliveryDays > spanDays || draft.firstDeliveryDate <= today) throw refusal('OTC_DELIVERY_DATES_INVALID', dates);
    const asset = assetById(await this.env.reference.assets(), draft.assetId);
    if (!asset || OTC_EXCLUDED_CONFIG.some((key) => Boolean(assetConfig(asset, key)))) throw refusal('OTC_ASSET_NOT_ALLOWED', { assetId: draft.assetId });
    const settlementPrice = await this.env.clearing.settlementPrice(asset.id);
    const band = priceBand(settlementPrice);
    if (band && settlementPrice !== null && (draft.price < band.min || draft.price > band.max)) {
      throw refusal('OTC_PRICE_VARIATION', { maxPercent: OTC_MAX_PRICE_VARIATION_PERCENT, settlementPrice: formatDecimal(settlementPrice, asset.spec.priceDecimals) });
    }
    return { asset, settlementPrice };
  }

  private checkLimit(row: WorkflowRow): void {
    if (row.limitAt !== null && Date.parse(row.limitAt) <= this.env.now()) throw refusal('OTC_LIMIT_DATE_EXCEEDED');
  }

  /** One side active and with the funds for the deal's margin; the failed check, or null. */
  private async sideCheck(row: WorkflowRow, side: 'initiator' | 'partner'): Promise<FailedCheck | null> {
    const data = row.data as OtcDealData;
    const clientCode = side === 'initiator' ? row.initiatorClient : row.partnerClient;
    const [clients, assets] = await Promise.all([this.env.reference.clients(), this.env.reference.assets()]);
    const client: Client | undefined = clientByCode(clients, clientCode);
    const codes: Record<typeof side, { inactive: ErrorCode; funds: ErrorCode }> = {
      initiator: { inactive: 'OTC_INITIATOR_NOT_ACTIVE', funds: 'OTC_INITIATOR_INSUFFICIENT_FUNDS' },
      partner: { inactive: 'OTC_PARTNER_NOT_ACTIVE', funds: 'OTC_PARTNER_INSUFFICIENT_FUNDS' },
    };
    if (!client?.active) return { code: codes[side].inactive, params: {} };
    const asset = assetById(assets, data.assetId);
    if (!asset) return { code: 'OTC_ASSET_NOT_ALLOWED', params: { assetId: data.assetId } };
    const { margin } = dealMargin(asset, data.price, data.qty);
    if ((await this.env.clearing.availableFunds(clientCode)) < margin) return { code: codes[side].funds, params: {} };
    return null;
  }

  /** The band again at approval: the settlement price may have moved since registration. */
  private async bandCheck(row: WorkflowRow): Promise<FailedCheck | null> {
    const data = row.data as OtcDealData;
    const asset = assetById(await this.env.reference.assets(), data.assetId);
    const settlementPrice = await this.env.clearing.settlementPrice(data.assetId);
    const band = priceBand(settlementPrice);
    if (!asset || !band || settlementPrice === null || (data.price >= band.min && data.price <= band.max)) return null;
    return { code: 'OTC_PRICE_VARIATION', params: { maxPercent: OTC_MAX_PRICE_VARIATION_PERCENT, settlementPrice: formatDecimal(settlementPrice, asset.spec.priceDecimals) } };
  }

  /** Exactly once: the instance id is the trade's externalTransactionId; a retry after a lost commit takes the trade already there. */
  private async registerTransaction(row: WorkflowRow, tx: Queryable) {
    const data = row.data as OtcDealData;
    const existing = await this.env.ledger.transactionByExternalId(row.id, tx);
    const buyer = data.way === 'bid' ? row.initiatorClient : row.partnerClient;
    const seller = data.way === 'bid' ? row.partnerClient : row.initiatorClient;
    const transaction =
      existing ??
      (await this.env.ledger.registerOffBookTrade({
        assetId: data.assetId,
        buyer,
        seller,
        price: data.price,
        qty: data.qty,
        origin: 'otc',
        parentTransactionId: null,
        grandParentTransactionId: null,
        transferTimestamp: null,
        splitTimestamp: null,
        externalTransactionId: row.id,
        marginsExposureActive: false,
      }));
    return { transactionId: transaction.transactionId, data: { transactionId: transaction.transactionId, txDate: transaction.txDate, txTime: transaction.timestamp } };
  }
}

/** [min, max] within OTC_MAX_PRICE_VARIATION_PERCENT of the settlement price, in whole minor units inside the band. */
export function priceBand(settlementPrice: number | null): { min: number; max: number } | null {
  if (settlementPrice === null) return null;
  const pct = OTC_MAX_PRICE_VARIATION_PERCENT;
  return { min: Math.ceil((settlementPrice * (100 - pct)) / 100), max: Math.floor((settlementPrice * (100 + pct)) / 100) };
}
