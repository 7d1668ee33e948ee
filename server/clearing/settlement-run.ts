import { apiError, ExchangeError } from '../../protocol/error-codes.ts';
import type { SettlementRun } from '../../protocol/clearing.ts';
import type { ReferenceRepository } from '../store/reference.repository.ts';
import type { SettlementRepository } from '../store/settlement.repository.ts';
import { computeSettlement, settlementId, type SettlementAsset } from './settlement-compute.ts';

/** Market kinds whose assets are forwards when an asset has no clearing terms row. */
const FORWARD_KINDS = new Set(['forward', 'ccp']);

export interface SettlementRunnerOptions {
  settlement: SettlementRepository;
  reference: Pick<ReferenceRepository, 'markets' | 'assets'>;
  /** False while the market's session of that date is still open (or has not started). */
  isSessionClosed: (marketId: string, sessionDate: string) => boolean;
  now: () => number;
  /** Called between the run's steps; the crash test kills the process there. */
  onStep?: (step: string) => void;
}

/** The payment day of a session: the next business day (Monday to Friday). */
export function dueDateOf(sessionDate: string): string {
  let day = Date.parse(`${sessionDate}T12:00:00Z`);
  do day += 86_400_000;
  while ([0, 6].includes(new Date(day).getUTCDay()));
  return new Date(day).toISOString().slice(0, 10);
}

/**
 * Runs the settlement of a market and session date. A 'running' marker is committed first; then the
 * run reads its inputs, computes everything (settlement-compute.ts) and writes it with the completed
 * marker in one transaction. A completed run is final: running it again answers it unchanged. A run
 * killed midway leaves its marker only, and the next attempt (or the restart) does it all again.
 */
export class SettlementRunner {
  private readonly inProgress = new Set<string>();

  constructor(private readonly options: SettlementRunnerOptions) {}

  async run(marketId: string, sessionDate: string): Promise<SettlementRun> {
    const { settlement, reference } = this.options;
    const step = this.options.onStep ?? (() => {});
    const key = `${marketId}\u0000${sessionDate}`;
    if (this.inProgress.has(key)) throw new ExchangeError(apiError('CLEARING_SETTLEMENT_RUN_IN_PROGRESS', { marketId, sessionDate }));
    // Taken before the first await: a second call for the same run is refused, never interleaved.
    this.inProgress.add(key);
    try {
      const market = (await reference.markets()).find((candidate) => candidate.id === marketId);
      if (!market) throw new ExchangeError(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'unknown' }));
      if (!this.options.isSessionClosed(marketId, sessionDate)) throw new ExchangeError(apiError('CLEARING_SESSION_NOT_CLOSED', { marketId, sessionDate }));
      const existing = await settlement.run(marketId, sessionDate);
      if (existing?.status === 'completed') return existing;
      const runId = settlementId('SR', marketId, sessionDate);
      step('start');
      await settlement.markRunStarted(runId, marketId, sessionDate, new Date(this.options.now()).toISOString());
      step('marked');
      // What the run writes carries the marker's time, so a resumed run writes what the first attempt would have.
      const marker = (await settlement.run(marketId, sessionDate))!;
      const assets = (await reference.assets()).filter((asset) => asset.marketId === marketId);
      const terms = await settlement.clearingTerms();
      const settlementAssets: SettlementAsset[] = [];
      for (const asset of assets) {
        const assetTerms = terms.get(asset.id);
        const today = await settlement.dailyPriceOf(asset.id, sessionDate);
        const priceInForceBefore = await settlement.priceInForceBefore(asset.id, sessionDate);
        // Carried positions move from the price the last run marked them to: an override made after that run enters today's margin, not lost.
        const previousPrice = (await settlement.lastMarkedPrice(asset.id, sessionDate)) ?? priceInForceBefore;
        settlementAssets.push({
          assetId: asset.id,
          assetName: asset.name,
          priceDecimals: asset.spec.priceDecimals,
          quantityDecimals: asset.spec.quantityDecimals,
          forward: assetTerms ? assetTerms.deliveryStart !== null : FORWARD_KINDS.has(market.kind),
          feePerUnit: assetTerms?.feePerUnit ?? 0n,
          price: today?.price ?? priceInForceBefore,
          previousPrice,
        });
      }
      const assetIds = assets.map((asset) => asset.id);
      const forwardIds = settlementAssets.filter((asset) => asset.forward).map((asset) => asset.assetId);
      const trades = await settlement.sessionTrades(assetIds, sessionDate);
      // A forward transaction an earlier run carried and novated during this session: its children are today's trades, so the opening position gives it back.
      // Read from stored rows this run does not write, so a rerun or a resumed run unwinds the same.
      const novated = forwardIds.length === 0 ? [] : await settlement.novatedAfterSettlement(forwardIds, null);
      const unwinds = novated
        .filter(({ transaction, childrenDate }) => childrenDate === sessionDate && transaction.txDate < sessionDate)
        .map(({ transaction }) => ({
          transactionId: transaction.transactionId,
          assetId: transaction.assetId,
          buyer: transaction.seller,
          seller: transaction.buyer,
          price: transaction.price,
          qty: transaction.qty,
          noCnt: transaction.noCnt,
          marginsExposureActive: transaction.marginsExposureActive,
        }));
      const result = computeSettlement({
        settlementRunId: runId,
        marketId,
        sessionDate,
        currency: market.currency,
        at: marker.startedAt,
        dueDate: dueDateOf(sessionDate),
        assets: settlementAssets,
        clients: await settlement.clientIdentities(),
        trades: trades.map((trade) => ({ transactionId: trade.transactionId, assetId: trade.assetId, buyer: trade.buyer, seller: trade.seller, price: trade.price, qty: trade.qty, noCnt: trade.noCnt, marginsExposureActive: trade.marginsExposureActive })),
        openingPositions: await settlement.openingPositions(forwardIds, sessionDate),
        unwinds,
      });
      step('computed');
      await settlement.writeRun(result, { id: runId, at: new Date(this.options.now()).toISOString(), step });
      step('committed');
      return (await settlement.run(marketId, sessionDate))!;
    } finally {
      this.inProgress.delete(key);
    }
  }
}
