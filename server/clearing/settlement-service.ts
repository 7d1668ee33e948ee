import { apiError, ExchangeError } from '../../protocol/error-codes.ts';
import type { ClearingChange, DailySettlementPrice, PaymentObligation, SettlementRun } from '../../protocol/clearing.ts';
import type { EngineEvent } from '../engine/types.ts';
import { SettlementRepository } from '../store/settlement.repository.ts';
import type { Store } from '../store/store.ts';
import type { Sequencer } from '../trading/sequencer.ts';
import { settlementId } from './settlement-compute.ts';
import { computeDailySettlementPrice } from './settlement-price.ts';
import { SettlementRunner } from './settlement-run.ts';

const DEFAULT_CLOSING_WINDOW_MINUTES = 30;

export interface SettlementServiceOptions {
  store: Pick<Store, 'db' | 'reference'>;
  sequencer: Pick<Sequencer, 'engine' | 'submit' | 'onEvents'>;
  /** Resolves once the read models hold the trades acknowledged so far. */
  flushed: () => Promise<unknown>;
  now: () => number;
  /** Something of a client changed (sent on /user/queue/clearing). */
  notify: (change: ClearingChange) => void;
  /** Recomputes these clients' margins and engine funds (the collateral side) after a run, a payment or a price change. */
  refresh?: (clientCodes: readonly string[]) => Promise<void>;
  /** Runs the market's settlement right after its close (default true). */
  settleOnClose?: boolean;
}

/** Best bid and ask of an asset at its close, before the close expired the day orders. */
interface CloseCapture {
  bestBid: number | null;
  bestAsk: number | null;
}

interface CloseJob {
  marketId: string;
  sessionDate: string;
  closedAt: number;
  captures: Map<string, CloseCapture>;
}

const better = (way: 'bid' | 'ask', a: number | null, b: number | null): number | null => {
  if (a === null) return b;
  if (b === null) return a;
  return way === 'bid' ? Math.max(a, b) : Math.min(a, b);
};

/**
 * The settlement side of the clearing house: listens to the sequencer for session closes, computes the
 * daily (and at expiry the final) settlement prices, gives the price in force to the engine with its
 * journaled `setSettlementPrice`, runs the market's settlement, and records payments. The sequencer's
 * callback only notes the close and the book's top; the work runs on a queue, one job at a time.
 */
export class SettlementService {
  readonly settlement: SettlementRepository;
  readonly runner: SettlementRunner;
  private queue: Promise<void> = Promise.resolve();
  private stopListening: (() => void) | null = null;

  constructor(private readonly options: SettlementServiceOptions) {
    this.settlement = new SettlementRepository(options.store.db);
    this.runner = new SettlementRunner({
      settlement: this.settlement,
      reference: options.store.reference,
      isSessionClosed: (marketId, sessionDate) => this.isSessionClosed(marketId, sessionDate),
      now: options.now,
    });
  }

  /** Listens to the sequencer, gives the engine the prices in force, and resumes runs a crash interrupted. */
  async start(): Promise<void> {
    this.stopListening = this.options.sequencer.onEvents((events) => this.onEvents(events));
    const engine = this.options.sequencer.engine;
    for (const [assetId, { price }] of await this.settlement.latestPricesInForce()) {
      // The start's upsertAsset may have put the configured price back: the clearing house's wins.
      if (engine.getStats(assetId) && engine.getStats(assetId)?.settlementPrice !== price) await this.options.sequencer.submit({ type: 'setSettlementPrice', assetId, price });
    }
    for (const run of await this.settlement.runsInState('running')) this.enqueue(() => this.runAndNotify(run.marketId, run.sessionDate).then(() => {}));
    await this.catchUpCloses();
  }

  /**
   * A close the journal holds but whose work a crash lost (the replay does not reach listeners): the
   * prices and the run are made now. The close's instant is not known any more, so the window ends at
   * the session's last trade, and the book's top is today's (the day orders are gone).
   */
  private async catchUpCloses(): Promise<void> {
    const engine = this.options.sequencer.engine;
    const assets = await this.options.store.reference.assets();
    for (const market of await this.options.store.reference.markets()) {
      const phase = engine.getMarketPhase(market.id);
      if (!phase || phase.phase !== 'closed' || phase.sessionDate === '') continue;
      if ((await this.settlement.run(market.id, phase.sessionDate))?.status === 'completed') continue;
      const marketAssets = assets.filter((asset) => asset.marketId === market.id).map((asset) => asset.id);
      const closedAt = (await this.settlement.lastTradeAt(marketAssets, phase.sessionDate)) ?? this.options.now();
      const captures = new Map<string, CloseCapture>();
      for (const assetId of marketAssets) {
        const book = engine.getBook(assetId, 1);
        captures.set(assetId, { bestBid: book?.bids[0]?.price ?? null, bestAsk: book?.asks[0]?.price ?? null });
      }
      this.enqueue(() => this.afterClose({ marketId: market.id, sessionDate: phase.sessionDate, closedAt, captures }));
    }
  }

  stop(): void {
    this.stopListening?.();
    this.stopListening = null;
  }

  /** Resolves when the queued work is done (tests, shutdown). */
  async idle(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.queue;
      await current;
    } while (current !== this.queue);
  }

  isSessionClosed(marketId: string, sessionDate: string): boolean {
    const phase = this.options.sequencer.engine.getMarketPhase(marketId);
    if (!phase || phase.sessionDate === '') return false;
    if (sessionDate < phase.sessionDate) return true;
    return sessionDate === phase.sessionDate && phase.phase === 'closed';
  }

  /** On the sequencer's callback: O(events), no I/O. */
  onEvents(events: readonly EngineEvent[]): void {
    let jobs: CloseJob[] | null = null;
    for (let index = 0; index < events.length; index++) {
      const event = events[index]!;
      if (event.type !== 'phase' || event.phase !== 'closed' || event.previous === 'closed') continue;
      if (event.assetId === null) {
        (jobs ??= []).push({ marketId: event.marketId, sessionDate: event.sessionDate, closedAt: event.at, captures: new Map() });
        continue;
      }
      // The close expires day orders right after this event: the levels they leave are the book's top before it.
      let bestBid: number | null = null;
      let bestAsk: number | null = null;
      for (let next = index + 1; next < events.length; next++) {
        const later = events[next]!;
        if (later.type === 'phase') break;
        if (later.type === 'level' && later.assetId === event.assetId) {
          if (later.way === 'bid') bestBid = better('bid', bestBid, later.price);
          else bestAsk = better('ask', bestAsk, later.price);
        }
      }
      const book = this.options.sequencer.engine.getBook(event.assetId, 1);
      const capture = { bestBid: better('bid', bestBid, book?.bids[0]?.price ?? null), bestAsk: better('ask', bestAsk, book?.asks[0]?.price ?? null) };
      const job = jobs?.find((candidate) => candidate.marketId === event.marketId);
      if (job) job.captures.set(event.assetId, capture);
    }
    for (const job of jobs ?? []) this.enqueue(() => this.afterClose(job));
  }

  /** Runs a settlement now (the administrator's POST), after what is queued. */
  async runSettlement(marketId: string, sessionDate: string): Promise<SettlementRun> {
    if (!this.isSessionClosed(marketId, sessionDate)) throw new ExchangeError(apiError('CLEARING_SESSION_NOT_CLOSED', { marketId, sessionDate }));
    return this.runAndNotify(marketId, sessionDate);
  }

  async overridePrice(dailySettlementPriceId: string, price: number, reason: string, by: string): Promise<DailySettlementPrice> {
    const existing = await this.settlement.dailyPrice(dailySettlementPriceId);
    if (!existing) throw new ExchangeError(apiError('CLEARING_SETTLEMENT_PRICE_NOT_FOUND', { dailySettlementPriceId }));
    const updated = (await this.settlement.overridePrice(dailySettlementPriceId, price, reason, by))!;
    const latest = (await this.settlement.latestPricesInForce()).get(updated.assetId);
    if (latest?.sessionDate === updated.sessionDate) await this.options.sequencer.submit({ type: 'setSettlementPrice', assetId: updated.assetId, price });
    await this.saveFinalPriceIfExpiry(updated);
    this.options.notify({ kind: 'settlement_price', clientCode: null, marketId: updated.marketId, sessionDate: updated.sessionDate, at: new Date(this.options.now()).toISOString() });
    // The holders' variation margin follows the price in force.
    const holders = await this.settlement.listNotes({ clientCodes: null, marketIds: null, marketId: updated.marketId, assetId: updated.assetId, from: updated.sessionDate, to: updated.sessionDate });
    await this.options.refresh?.([...new Set(holders.map((note) => note.clientCode))]);
    return updated;
  }

  async settleObligation(obligationId: string, reference: string, by: string): Promise<PaymentObligation> {
    const settled = await this.settlement.settleObligation(obligationId, by, reference, new Date(this.options.now()).toISOString());
    if (!settled) {
      const existing = await this.settlement.obligation(obligationId);
      if (!existing) throw new ExchangeError(apiError('CLEARING_OBLIGATION_NOT_FOUND', { obligationId }));
      throw new ExchangeError(apiError('CLEARING_OBLIGATION_ALREADY_SETTLED', { obligationId, status: existing.status }));
    }
    this.options.notify({ kind: 'payment', clientCode: settled.clientCode, marketId: settled.marketId, sessionDate: settled.sessionDate, at: new Date(this.options.now()).toISOString() });
    await this.options.refresh?.([settled.clientCode]);
    return settled;
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((error: unknown) => console.error('settlement:', error));
  }

  private async runAndNotify(marketId: string, sessionDate: string): Promise<SettlementRun> {
    const run = await this.runner.run(marketId, sessionDate);
    // From here clearing counts the session's trades (carried positions, obligations): the engine gives
    // up their exposure and margin now rather than at the next session, so nothing is counted twice.
    if (run.status === 'completed') await this.options.sequencer.submit({ type: 'settleSessionTrades', marketId, sessionDate });
    const at = new Date(this.options.now()).toISOString();
    const notes = await this.settlement.listNotes({ clientCodes: null, marketIds: null, marketId, from: sessionDate, to: sessionDate });
    for (const note of notes) this.options.notify({ kind: 'settlement', clientCode: note.clientCode, marketId, sessionDate, at });
    await this.options.refresh?.([...new Set(notes.map((note) => note.clientCode))]);
    return run;
  }

  /** The daily settlement prices of the market's assets, the engine's settlement price, then the settlement run. */
  private async afterClose(job: CloseJob): Promise<void> {
    await this.options.flushed();
    const terms = await this.settlement.clearingTerms();
    const assets = (await this.options.store.reference.assets()).filter((asset) => asset.marketId === job.marketId);
    const computedAt = new Date(job.closedAt).toISOString();
    for (const asset of assets) {
      const windowMinutes = terms.get(asset.id)?.closingWindowMinutes ?? DEFAULT_CLOSING_WINDOW_MINUTES;
      const windowTrades = await this.settlement.tradesBetween(asset.id, job.sessionDate, new Date(job.closedAt - windowMinutes * 60_000).toISOString(), computedAt);
      const previous = await this.settlement.priceInForceBefore(asset.id, job.sessionDate);
      const capture = job.captures.get(asset.id) ?? { bestBid: null, bestAsk: null };
      const computed = computeDailySettlementPrice({ windowTrades, bestBid: capture.bestBid, bestAsk: capture.bestAsk, previous });
      await this.settlement.saveComputedPrice({ id: settlementId('DSP', asset.id, job.sessionDate), assetId: asset.id, sessionDate: job.sessionDate, ...computed, previousValue: previous, computedAt });
      const saved = (await this.settlement.dailyPriceOf(asset.id, job.sessionDate))!;
      if (saved.price !== null && this.options.sequencer.engine.getStats(asset.id)?.settlementPrice !== saved.price) {
        await this.options.sequencer.submit({ type: 'setSettlementPrice', assetId: asset.id, price: saved.price });
      }
      await this.saveFinalPriceIfExpiry(saved, terms.get(asset.id)?.expiryDate ?? null);
    }
    this.options.notify({ kind: 'settlement_price', clientCode: null, marketId: job.marketId, sessionDate: job.sessionDate, at: new Date(this.options.now()).toISOString() });
    // Reopened since (an operator's reopen of the same session): it settles at its next close, not now.
    if ((this.options.settleOnClose ?? true) && this.isSessionClosed(job.marketId, job.sessionDate)) await this.runAndNotify(job.marketId, job.sessionDate);
  }

  /** At a forward's expiry the final settlement price is that day's daily settlement price in force. */
  private async saveFinalPriceIfExpiry(price: DailySettlementPrice, expiryDate?: string | null): Promise<void> {
    const expiry = expiryDate === undefined ? (await this.settlement.clearingTerms()).get(price.assetId)?.expiryDate : expiryDate;
    if (expiry !== price.sessionDate || price.price === null) return;
    await this.settlement.saveFinalPrice({
      finalSettlementPriceId: settlementId('FSP', price.assetId),
      assetId: price.assetId,
      sessionDate: price.sessionDate,
      finalSettlementPrice: price.price,
      dailySettlementPrice: price.price,
      consultationPrice: null,
      priceFromLiquidation: null,
      computedAt: new Date(this.options.now()).toISOString(),
    });
  }
}
