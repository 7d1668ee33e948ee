import { createHash } from 'node:crypto';
import { apiError, ExchangeError, formatDecimal, type Nomination } from '../../protocol/index.ts';
import type { CollateralRepository, NominationRecord } from '../store/collateral.repository.ts';
import type { AssetRecord } from '../store/reference.repository.ts';
import { bucharestInstant } from '../trading/engine-setup.ts';
import type { ClearingNotifier } from './clearing-notifier.ts';
import { addDays } from './collateral-service.ts';

/** Nominations of a delivery day close at this Bucharest time on the day before it (the gas and power day-ahead nomination cycle). */
export const NOMINATION_DEADLINE_TIME = '14:00';

/** When nominations for `deliveryDay` lock. */
export function nominationDeadline(deliveryDay: string): number {
  return bucharestInstant(addDays(deliveryDay, -1), NOMINATION_DEADLINE_TIME);
}

/** The delivery days of a physical trade: a forward's delivery period, else the day after its session. */
export function deliveryDays(terms: { deliveryStart: string | null; deliveryEnd: string | null }, txDate: string): string[] {
  const first = terms.deliveryStart ?? addDays(txDate, 1);
  const last = terms.deliveryEnd ?? first;
  const days: string[] = [];
  for (let day = first; day <= last && days.length < 366; day = addDays(day, 1)) days.push(day);
  return days;
}

function nominationId(transactionId: string, clientCode: string, deliveryDay: string): string {
  return `N-${createHash('sha256').update(`${transactionId}\u0000${clientCode}\u0000${deliveryDay}`).digest('base64url').slice(0, 24)}`;
}

export interface NominationServiceOptions {
  repository: CollateralRepository;
  assets: () => Promise<readonly AssetRecord[]>;
  notifier: Pick<ClearingNotifier, 'notify'>;
  now: () => number;
}

/**
 * Nominations of physically delivered trades: one row per client, transaction and delivery day, made
 * on read from the transactions read model (off the engine's path; a trade shows once the projector
 * has written it), starting at the contracted quantity. The client's broker edits them until the
 * deadline of the delivery day; after it they are locked.
 */
export class NominationService {
  constructor(private readonly options: NominationServiceOptions) {}

  /** Makes the missing nominations of these clients' physical trades. */
  async sync(clientCodes: readonly string[] | null): Promise<number> {
    const repo = this.options.repository;
    const legs = await repo.physicalLegsWithoutNominations(clientCodes);
    if (legs.length === 0) return 0;
    const termsOf = new Map((await repo.terms()).map((terms) => [terms.assetId, terms]));
    const at = new Date(this.options.now()).toISOString();
    const rows: NominationRecord[] = [];
    for (const leg of legs) {
      const terms = termsOf.get(leg.assetId);
      if (!terms) continue;
      for (const deliveryDay of deliveryDays(terms, leg.txDate)) {
        rows.push({
          id: nominationId(leg.transactionId, leg.clientCode, deliveryDay),
          transactionId: leg.transactionId,
          clientCode: leg.clientCode,
          assetId: leg.assetId,
          way: leg.way,
          deliveryDay,
          contractedQty: leg.qty,
          nominatedQty: leg.qty,
          deadline: new Date(nominationDeadline(deliveryDay)).toISOString(),
          updatedAt: at,
          updatedBy: null,
        });
      }
    }
    return repo.insertNominations(rows);
  }

  async list(clientCodes: readonly string[] | null, range: { from?: string; to?: string; assetId?: string }): Promise<Nomination[]> {
    await this.sync(clientCodes);
    const [records, assets] = await Promise.all([this.options.repository.nominations(clientCodes, range), this.options.assets()]);
    const assetById = new Map(assets.map((asset) => [asset.id, asset]));
    return records.map((record) => this.toWire(record, assetById.get(record.assetId)));
  }

  /** The nomination for a caller who may see `visible` clients (someone else's answers 404). */
  async find(id: string, visible: ReadonlySet<string> | null): Promise<NominationRecord> {
    const record = await this.options.repository.nomination(id);
    if (!record || (visible !== null && !visible.has(record.clientCode))) throw new ExchangeError(apiError('CLEARING_NOMINATION_NOT_FOUND', { nominationId: id }));
    return record;
  }

  async update(record: NominationRecord, nominatedQty: number, by: string): Promise<Nomination> {
    const asset = (await this.options.assets()).find((candidate) => candidate.id === record.assetId);
    const now = this.options.now();
    if (Date.parse(record.deadline) <= now) throw new ExchangeError(apiError('CLEARING_NOMINATION_LOCKED', { deadline: record.deadline }));
    if (nominatedQty > record.contractedQty) {
      throw new ExchangeError(apiError('CLEARING_NOMINATION_QUANTITY', { max: formatDecimal(record.contractedQty, asset?.spec.quantityDecimals ?? 0), unit: asset?.spec.unit ?? '' }));
    }
    // Conditional on the deadline again: a request that crosses it is refused, not half-late.
    if (!(await this.options.repository.updateNomination(record.id, nominatedQty, by, new Date(now)))) {
      throw new ExchangeError(apiError('CLEARING_NOMINATION_LOCKED', { deadline: record.deadline }));
    }
    this.options.notifier.notify({ kind: 'nomination', clientCode: record.clientCode, marketId: asset?.marketId ?? null, sessionDate: null, at: new Date(now).toISOString() });
    const updated = (await this.options.repository.nomination(record.id))!;
    return this.toWire(updated, asset);
  }

  private toWire(record: NominationRecord, asset: AssetRecord | undefined): Nomination {
    return {
      nominationId: record.id,
      transactionId: record.transactionId,
      clientCode: record.clientCode,
      assetId: record.assetId,
      assetName: asset?.name ?? record.assetId,
      way: record.way,
      deliveryDay: record.deliveryDay,
      quantityDecimals: asset?.spec.quantityDecimals ?? 0,
      unit: asset?.spec.unit ?? '',
      contractedQty: record.contractedQty,
      nominatedQty: record.nominatedQty,
      deadline: record.deadline,
      locked: Date.parse(record.deadline) <= this.options.now(),
      updatedAt: record.updatedAt,
      updatedBy: record.updatedBy,
    };
  }
}
