import { CLEARING_AMOUNT_DECIMALS, type FinancialReport } from '../../protocol/clearing.ts';
import { formatDecimal } from '../../protocol/decimal.ts';
import type { ClientConfig, EngineEvent } from '../engine/types.ts';
import type { ClearingTerms, ClientTrade, CollateralRepository, RestrictionRecord } from '../store/collateral.repository.ts';
import type { AssetRecord, Client } from '../store/reference.repository.ts';
import { SettlementRepository } from '../store/settlement.repository.ts';
import type { Store } from '../store/store.ts';
import { assetConfigOf, clientConfigOf } from '../trading/engine-setup.ts';
import type { Sequencer } from '../trading/sequencer.ts';
import { bucharestDate } from '../trading/time.ts';
import type { ClearingNotifier } from './clearing-notifier.ts';
import { addDays } from './collateral-service.ts';
import { computeMargins, type MarginFigures, type OpenTrade, type PositionInput } from './margins.ts';

export interface EngineFundsOptions {
  store: Store;
  repository: CollateralRepository;
  sequencer: Sequencer;
  notifier: Pick<ClearingNotifier, 'notify' | 'alert'>;
  now: () => number;
  /** Ms trades are gathered before the clients they touch are refreshed (0: at once; tests). */
  tradeDebounceMs?: number;
  /** Resolves once the read models hold every trade so far (the margins read the transactions table). */
  readModelsSettled?: () => Promise<void>;
}

interface Terms {
  initialMarginBps: number;
  deliveryMarginBps: number;
  forward: boolean;
  deliveryStart: string | null;
  deliveryEnd: string | null;
}

/** Where a carried position stands on `today`: a forward is delivered over its delivery period, a spot position the day after its session. */
function stageOf(terms: Terms, positionDate: string, today: string): PositionInput['stage'] {
  const start = terms.deliveryStart ?? addDays(positionDate, 1);
  const end = terms.deliveryEnd ?? start;
  if (today < start) return 'open';
  return today <= end ? 'delivery' : 'delivered';
}

const toOpen = (trade: ClientTrade): OpenTrade => ({ way: trade.way, price: trade.price, qty: trade.qty });
const signed = (trade: ClientTrade) => (trade.way === 'bid' ? trade.qty : -trade.qty);

/**
 * Clearing's figures in the engine: per client, the funds of the engine's ORDER_INSUFFICIENT_FUNDS
 * check (the clearing limit less the margins the engine does not hold itself, margins.ts) and the
 * financial restrictions (imbalance, tradeable quantity), sent as one journaled `upsertClient` with
 * every other field as engine-setup.ts builds it; per asset, the initial margin rate of
 * asset_clearing_terms as the engine's `marginBps` (`upsertAsset`). A replay of the journal applies
 * the same figures, so it makes the same decisions.
 *
 * Clearing manages the funds of a client once it has a warranty on record; a client without one keeps
 * the funds of its trading setup (the exchange's configuration before clearing).
 */
export class EngineFunds {
  private readonly lastSent = new Map<string, string>();
  private readonly marginCalls = new Map<string, number>();
  private marginCallCurrency = 'RON';
  private pendingClients = new Set<string>();
  /** Clients clearing sets figures for (null until the first refresh): trades of others are not its business. */
  private managed: Set<string> | null = null;
  private tradeTimer: NodeJS.Timeout | null = null;
  private tradeRefreshRunning = false;
  /** Wall time of the last trade-driven refresh, its wait for the read models included. */
  private lastTradeRefreshMs = 0;
  private stopped = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: EngineFundsOptions) {}

  private today(): string {
    return bucharestDate(this.options.now());
  }

  /** The financial report of a client now (GET /clearing/financial-report). */
  async report(client: Client): Promise<FinancialReport> {
    const [figures, currency, engineFunds] = await Promise.all([
      this.figures(client.code),
      this.options.store.reference.markets().then((markets) => markets[0]?.currency ?? 'RON'),
      this.options.repository.engineFunds(client.code),
    ]);
    const { engineFunds: _computed, ...parts } = figures;
    const engine = this.options.sequencer.engine.getClientFinancials(client.code);
    return { clientCode: client.code, clientName: client.name, currency, ...parts, engineFunds: engineFunds ?? engine?.funds ?? null, at: new Date(this.options.now()).toISOString() };
  }

  /** The margin figures of a client from the store (warranties, settled positions, prices, obligations) and the engine. */
  async figures(clientCode: string): Promise<MarginFigures> {
    const repo = this.options.repository;
    const today = this.today();
    const [warrantyLimit, managed, carried, marks, unpaidAmount, termsList, assets, settledThrough, novated] = await Promise.all([
      repo.clearingLimit(clientCode, today),
      repo.clientsWithWarranties().then((clients) => clients.has(clientCode)),
      repo.carriedPositions(clientCode, today),
      repo.markPrices(today),
      repo.unpaidAmount(clientCode),
      repo.terms(),
      this.options.store.reference.assets(),
      repo.settledThrough(),
      new SettlementRepository(this.options.store.db).novatedAfterSettlement(null, clientCode),
    ]);
    const assetById = new Map(assets.map((asset) => [asset.id, asset]));
    const termsById = new Map(termsList.map((terms) => [terms.assetId, terms]));
    const carriedById = new Map(carried.map((position) => [position.assetId, position]));
    // Trades a settlement has not covered: after the market's last settled session (and the asset's carried position).
    const cutoffOf = (asset: AssetRecord) => {
      const market = settledThrough.get(asset.marketId) ?? null;
      const held = carriedById.get(asset.id)?.sessionDate ?? null;
      return market === null || (held !== null && held > market) ? held : market;
    };
    const cutoffs = assets.map(cutoffOf);
    const oldest = cutoffs.includes(null) ? null : (cutoffs as string[]).reduce((a, b) => (a < b ? a : b), '9999-12-31');
    const forwards = termsList.filter((terms) => terms.deliveryStart !== null).map((terms) => terms.assetId);
    // A spot position of a session before yesterday is delivered: its trades no longer count.
    // A transaction whose margin exposure is not active (an OTC deal before its activation) counts in no margin.
    const trades = (await repo.clientTrades(clientCode, oldest, forwards, addDays(today, -1))).filter((trade) => trade.marginsExposureActive);
    const engine = this.options.sequencer.engine;

    const assetIds = new Set([...carried.map((position) => position.assetId), ...trades.map((trade) => trade.assetId)]);
    const lastPrices = await repo.lastTradePrices([...assetIds].filter((assetId) => !marks.has(assetId)));
    const positions: PositionInput[] = [];
    for (const assetId of assetIds) {
      const asset = assetById.get(assetId);
      if (!asset) continue;
      const terms = termsOf(asset, termsById.get(assetId));
      const held = carriedById.get(assetId);
      const sessionDate = engine.getStats(assetId)?.sessionDate || today;
      const cutoff = cutoffOf(asset);
      const unsettled = trades.filter((trade) => trade.assetId === assetId && (cutoff === null || trade.txDate > cutoff));
      const current = unsettled.filter((trade) => trade.txDate >= sessionDate);
      const prior = unsettled.filter((trade) => trade.txDate < sessionDate);
      const base = {
        assetId,
        scale: { priceDecimals: asset.spec.priceDecimals, quantityDecimals: asset.spec.quantityDecimals },
        markPrice: marks.get(assetId) ?? lastPrices.get(assetId) ?? null,
        initialMarginBps: terms.initialMarginBps,
        deliveryMarginBps: terms.deliveryMarginBps,
        forward: terms.forward,
      };
      if (terms.forward) {
        // One position per forward: the settled one plus the earlier sessions' unsettled trades.
        // A transaction the held position carried, novated since: its children are unsettled trades here, so it leaves the carried position.
        const leftToChildren = novated
          .filter(({ transaction, childrenDate }) => transaction.assetId === assetId && held !== undefined && held.sessionDate >= transaction.txDate && childrenDate > held.sessionDate)
          .reduce((sum, { transaction }) => sum + (transaction.buyer === clientCode ? transaction.qty : 0) - (transaction.seller === clientCode ? transaction.qty : 0), 0);
        const carriedQty = (held?.qty ?? 0) - leftToChildren + prior.reduce((sum, trade) => sum + signed(trade), 0);
        const positionDate = prior.at(-1)?.txDate ?? held?.sessionDate ?? sessionDate;
        positions.push({ ...base, carriedQty, stage: stageOf(terms, positionDate, today), trades: current.map(toOpen), priorTrades: prior.map(toOpen) });
      } else {
        // A spot position is delivered the day after its session: one per session date.
        if (held) positions.push({ ...base, carriedQty: held.qty, stage: stageOf(terms, held.sessionDate, today), trades: [], priorTrades: [] });
        const byDate = new Map<string, ClientTrade[]>();
        for (const trade of prior) byDate.set(trade.txDate, [...(byDate.get(trade.txDate) ?? []), trade]);
        for (const [date, dayTrades] of byDate) {
          positions.push({ ...base, carriedQty: dayTrades.reduce((sum, trade) => sum + signed(trade), 0), stage: stageOf(terms, date, today), trades: [], priorTrades: dayTrades.map(toOpen) });
        }
        if (current.length > 0) positions.push({ ...base, carriedQty: 0, stage: 'open', trades: current.map(toOpen), priorTrades: [] });
      }
    }
    const financials = engine.getClientFinancials(clientCode);
    // A client with no warranty on record still trades on its trading-setup funds: they are its limit.
    const clearingLimit = managed ? warrantyLimit : Math.max(0, financials?.funds ?? 0);
    return computeMargins({
      clearingLimit,
      engine: {
        reservedMargin: financials?.reservedMargin ?? 0,
        tradesMargin: financials?.tradesMargin ?? 0,
        openValue: financials?.openValue ?? 0,
        tradedValue: financials?.tradedValue ?? 0,
        tradingLimit: financials?.tradingLimit ?? null,
      },
      positions,
      unpaidAmount,
    });
  }

  /**
   * Recomputes these clients' figures and sends the ones that changed to the engine. Called on a
   * warranty change, a restriction change, after trades, and by the settlement side after a
   * settlement or a payment. Serialised, so two refreshes never interleave their commands.
   */
  refresh = (clientCodes: readonly string[]): Promise<void> => {
    const run = this.queue.then(() => this.refreshNow(clientCodes));
    this.queue = run.catch((error: unknown) => console.error('clearing: refreshing engine funds failed:', error));
    return run;
  };

  private async refreshNow(clientCodes: readonly string[]): Promise<void> {
    const repo = this.options.repository;
    const [clients, setups, withWarranties, restrictions, markets] = await Promise.all([
      this.options.store.reference.clients(),
      this.options.store.reference.tradingSetups(),
      repo.clientsWithWarranties(),
      repo.restrictions(null),
      this.options.store.reference.markets(),
    ]);
    const currency = markets[0]?.currency ?? 'RON';
    this.managed = new Set([...withWarranties, ...restrictions.map((row) => row.clientCode)]);
    const wanted = new Set(clientCodes);
    const setupOf = new Map(setups.map((setup) => [setup.clientCode, setup]));
    for (const client of clients) {
      if (!wanted.has(client.code)) continue;
      const own = restrictions.filter((row) => row.clientCode === client.code);
      const managed = withWarranties.has(client.code);
      if (!managed && own.length === 0 && !this.lastSent.has(client.code)) continue;
      const config = clientConfigOf(client, setupOf.get(client.code));
      let figures: MarginFigures | null = null;
      if (managed) {
        figures = await this.figures(client.code);
        config.clearing = { ...config.clearing, funds: figures.engineFunds };
      }
      applyRestrictions(config, own);
      const key = JSON.stringify(config);
      if (this.lastSent.get(client.code) !== key) {
        const result = await this.options.sequencer.submit({ type: 'upsertClient', client: config });
        if (result.result !== 'OK') throw new Error(`upsertClient ${client.code} refused: ${result.result}`);
        this.lastSent.set(client.code, key);
        if (figures) await repo.setEngineFunds(client.code, figures.engineFunds, new Date(this.options.now()));
      }
      if (figures) this.marginCallNews(client.code, figures.withUnpaid.marginCall, currency);
    }
  }

  /** The clients with a margin call now (the operator console), amounts in the clearing currency's minor units. */
  openMarginCalls(): Array<{ clientCode: string; amount: number; currency: string }> {
    const out: Array<{ clientCode: string; amount: number; currency: string }> = [];
    for (const [clientCode, amount] of this.marginCalls) if (amount > 0) out.push({ clientCode, amount, currency: this.marginCallCurrency });
    return out.sort((a, b) => a.clientCode.localeCompare(b.clientCode));
  }

  /** A margin call appearing or growing is news; its release is a change the tabs refetch on. */
  private marginCallNews(clientCode: string, marginCall: number, currency: string): void {
    const before = this.marginCalls.get(clientCode) ?? 0;
    this.marginCalls.set(clientCode, marginCall);
    this.marginCallCurrency = currency;
    const at = new Date(this.options.now()).toISOString();
    if (marginCall > before) this.options.notifier.alert('marginCall', clientCode, { amount: formatDecimal(marginCall, CLEARING_AMOUNT_DECIMALS), currency }, at);
    else if (marginCall < before) this.options.notifier.notify({ kind: 'margin_call', clientCode, marketId: null, sessionDate: null, at });
  }

  /** Sets each asset's margin rate from asset_clearing_terms in the store (the order dialog's preview) and the engine. */
  async syncAssetMargins(): Promise<void> {
    const terms = await this.options.repository.terms();
    const changed = new Set<string>();
    for (const row of terms) if (await this.options.repository.setAssetMarginBps(row.assetId, row.initialMarginBps)) changed.add(row.assetId);
    if (changed.size === 0) return;
    for (const asset of await this.options.store.reference.assets()) {
      if (!changed.has(asset.id)) continue;
      const result = await this.options.sequencer.submit({ type: 'upsertAsset', asset: assetConfigOf(asset) });
      if (result.result !== 'OK') throw new Error(`upsertAsset ${asset.id} refused: ${result.result}`);
    }
  }

  /** Every client clearing sets figures for, at start (after the setup commands gave the engine the trading setups). */
  async refreshAll(): Promise<void> {
    await this.syncAssetMargins();
    const clients = await this.options.store.reference.clients();
    await this.refresh(clients.map((client) => client.code));
  }

  /** The sequencer's listener: trades (book and off-book) and margin switches change the margins; refreshed off the hot path. */
  onEvents = (events: readonly EngineEvent[]): void => {
    for (const event of events) {
      const t = event.type === 'trade' || event.type === 'transactionUpdate' ? event : event.type === 'offBookTrade' ? event.transaction : null;
      if (t === null) continue;
      for (const clientCode of [t.buyer, t.seller]) if (this.managed === null || this.managed.has(clientCode)) this.pendingClients.add(clientCode);
    }
    this.armTradeRefresh();
  };

  /**
   * One trade-driven refresh at a time, the next no sooner than three times the last one took: a
   * refresh reads the clients' trades from the store, so however busy trading gets it takes at most
   * about a quarter of the store's time (the engine's own trade margin covers a trade at once; only
   * the variation loss waits for the refresh).
   */
  private armTradeRefresh(): void {
    if (this.stopped || this.pendingClients.size === 0 || this.tradeTimer || this.tradeRefreshRunning) return;
    const debounceMs = this.options.tradeDebounceMs ?? 250;
    const delayMs = debounceMs === 0 ? 0 : Math.max(debounceMs, 3 * this.lastTradeRefreshMs);
    this.tradeTimer = setTimeout(() => {
      this.tradeTimer = null;
      const clients = [...this.pendingClients];
      this.pendingClients = new Set();
      this.tradeRefreshRunning = true;
      const started = performance.now();
      const written = this.options.readModelsSettled?.().catch(() => {}) ?? Promise.resolve();
      void written
        .then(() => this.refresh(clients))
        .catch(() => {})
        .finally(() => {
          this.lastTradeRefreshMs = performance.now() - started;
          this.tradeRefreshRunning = false;
          this.armTradeRefresh();
        });
    }, delayMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.tradeTimer) clearTimeout(this.tradeTimer);
    this.tradeTimer = null;
  }

  /** Waits for the refreshes under way (tests, shutdown). */
  async settled(): Promise<void> {
    await this.queue;
  }
}

function termsOf(asset: AssetRecord, terms: ClearingTerms | undefined): Terms {
  if (terms) {
    return { initialMarginBps: terms.initialMarginBps, deliveryMarginBps: terms.deliveryMarginBps, forward: terms.deliveryStart !== null, deliveryStart: terms.deliveryStart, deliveryEnd: terms.deliveryEnd };
  }
  // No clearing terms yet: the engine's rate, delivered the day after the session, no delivery margin.
  const marginBps = typeof asset.spec.config.marginBps === 'number' ? asset.spec.config.marginBps : 0;
  return { initialMarginBps: marginBps, deliveryMarginBps: 0, forward: false, deliveryStart: null, deliveryEnd: null };
}

/** Financial restrictions into the engine's ClientConfig.imbalance and tradeableQuantity. */
function applyRestrictions(config: ClientConfig, rows: readonly RestrictionRecord[]): void {
  const imbalance: NonNullable<ClientConfig['imbalance']> = {};
  const tradeable: NonNullable<ClientConfig['tradeableQuantity']> = {};
  for (const row of rows) {
    if (row.imbalanceWay !== null && row.imbalanceQty !== null) imbalance[row.assetId] = { way: row.imbalanceWay, quantity: row.imbalanceQty };
    if (row.tradeableBid !== null || row.tradeableAsk !== null) tradeable[row.assetId] = { bid: row.tradeableBid, ask: row.tradeableAsk };
  }
  if (Object.keys(imbalance).length > 0) config.imbalance = imbalance;
  if (Object.keys(tradeable).length > 0) config.tradeableQuantity = tradeable;
}
