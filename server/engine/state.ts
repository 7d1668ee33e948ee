/**
 * Runtime state records of the engine: markets, assets (with their normalised rules and book) and
 * clients. Configuration arrives as plain data (types.ts) and is normalised once, on upsert, into
 * flat fields the hot path reads without lookups or defaults.
 */
import type { SessionPhase, Way } from '../../protocol/enums.ts';
import { ASK, BID, Book, ClientAssetState, type SideIndex } from './book.ts';
import { ProductInfo } from './events.ts';
import { AMOUNT_DECIMALS, type AssetConfig, type ClientConfig, type MarketConfig, type ScheduleEntry } from './types.ts';

export const NONE = -1;

export function sideOf(way: Way): SideIndex {
  return way === 'bid' ? BID : ASK;
}
export function wayOf(side: number): Way {
  return side === BID ? 'bid' : 'ask';
}

export class MarketState {
  config: MarketConfig;
  phase: SessionPhase = 'closed';
  phaseBeforeSuspend: SessionPhase | null = null;
  sessionDate = '';
  readonly assets: AssetState[] = [];
  schedule: ScheduleEntry[] = [];
  scheduleIndex = 0;
  constructor(config: MarketConfig) {
    this.config = config;
  }
}

export interface MutableStats {
  minPrice: number | null;
  maxPrice: number | null;
  lastPrice: number | null;
  volume: number;
  transactions: number;
  closingPrice: number | null;
  tradeableQty: number;
  surplusQty: number;
}

export function emptyStats(): MutableStats {
  return { minPrice: null, maxPrice: null, lastPrice: null, volume: 0, transactions: 0, closingPrice: null, tradeableQty: 0, surplusQty: 0 };
}

export interface DeltaTState {
  endsAt: number;
  /** Side of the order whose crossing started the period (the competing side). */
  side: SideIndex;
  startedAt: number;
}

export class AssetState {
  readonly assetId: string;
  config!: AssetConfig;
  market!: MarketState;
  marketId = '';
  /** Immutable per-asset constants for orders and transactions (replaced on config or session change). */
  product!: ProductInfo;
  // normalised rules
  priceDecimals = 0;
  quantityDecimals = 0;
  priceStep = 1;
  quantityStep = 1;
  minQuantity = 1;
  maxQuantity = Number.MAX_SAFE_INTEGER;
  minPrice = 0;
  maxPrice = Number.MAX_SAFE_INTEGER;
  sessionMinPrice = NONE;
  sessionMaxPrice = NONE;
  hasSessionMin = false;
  hasSessionMax = false;
  regulatorMaxPrice = 0;
  hasRegulatorMax = false;
  /** 10^(12 + priceDecimals): first price whose whole part has 13 digits. */
  priceDigitsLimit = 1e12;
  tradingActive = true;
  contractQty = 1;
  inputNoCnt = false;
  intervalsPerDay = 24;
  deliveryDays = 1;
  marginBps = 0;
  marginsExposureActive = false;
  /** amount = price × qty × amountMul / amountDiv (rounded up). */
  amountMul = 1;
  amountDiv = 1;
  priceMustImprove = false;
  noQuantityDecrease = false;
  noPriceChange = false;
  noAttributeChange = false;
  noCancel = false;
  oneSidePerClient = false;
  deltaTDurationMs = 0;
  deltaTPriceStep = 0;
  hasDeltaT = false;
  scInitiator: string | null = null;
  scSide: number = NONE;
  bgMaxDecreasePercent = NONE;
  gasRelease = false;
  transmissionSide: number = NONE;
  settlementPrice: number | null = null;
  /** Fast path: a price in [priceLo, priceHi] on the price step passes every price rule. */
  priceLo = 1;
  priceHi = 0;
  // runtime
  phase: SessionPhase = 'closed';
  phaseBeforeSuspend: SessionPhase | null = null;
  sessionDate = '';
  readonly book = new Book();
  readonly clients = new Map<string, ClientAssetState>();
  deltaT: DeltaTState | null = null;
  stats: MutableStats = emptyStats();
  statsDirty = false;
  initiatorOrderId: number | null = null;
  initiatorPlaced = false;
  constructor(assetId: string) {
    this.assetId = assetId;
  }

  apply(config: AssetConfig, market: MarketState): void {
    this.config = config;
    this.market = market;
    this.marketId = market.config.marketId;
    this.priceDecimals = config.priceDecimals;
    this.quantityDecimals = config.quantityDecimals;
    this.priceStep = config.priceStep;
    this.quantityStep = config.quantityStep;
    this.minQuantity = config.minQuantity;
    this.maxQuantity = config.maxQuantity;
    this.minPrice = config.minPrice;
    this.maxPrice = config.maxPrice;
    this.hasSessionMin = config.sessionMinPrice != null;
    this.sessionMinPrice = config.sessionMinPrice ?? NONE;
    this.hasSessionMax = config.sessionMaxPrice != null;
    this.sessionMaxPrice = config.sessionMaxPrice ?? NONE;
    this.hasRegulatorMax = config.regulatorMaxPrice != null;
    this.regulatorMaxPrice = config.regulatorMaxPrice ?? 0;
    this.priceDigitsLimit = 10 ** (12 + config.priceDecimals);
    this.tradingActive = config.tradingActive ?? true;
    this.contractQty = config.contractQty ?? 1;
    this.inputNoCnt = config.quantityInput === 'noCnt';
    this.intervalsPerDay = config.settlementIntervalsPerDay ?? 24;
    this.deliveryDays = config.deliveryDays ?? 1;
    this.marginBps = config.marginBps ?? 0;
    this.marginsExposureActive = config.marginsExposureActive ?? false;
    const exp = AMOUNT_DECIMALS - config.priceDecimals - config.quantityDecimals;
    this.amountMul = exp >= 0 ? 10 ** exp : 1;
    this.amountDiv = exp >= 0 ? 1 : 10 ** -exp;
    const f = config.flags ?? {};
    this.priceMustImprove = f.priceMustImprove ?? false;
    this.noQuantityDecrease = f.noQuantityDecrease ?? false;
    this.noPriceChange = f.noPriceChange ?? false;
    this.noAttributeChange = f.noAttributeChange ?? false;
    this.noCancel = f.noCancel ?? false;
    this.oneSidePerClient = f.oneSidePerClient ?? false;
    this.hasDeltaT = config.deltaT != null;
    this.deltaTDurationMs = config.deltaT?.durationMs ?? 0;
    this.deltaTPriceStep = config.deltaT?.priceStep ?? 0;
    this.scInitiator = config.simpleCompetitive?.initiatorClientCode ?? null;
    this.scSide = config.simpleCompetitive ? sideOf(config.simpleCompetitive.initiatorWay) : NONE;
    this.bgMaxDecreasePercent = config.balancingGroup ? config.balancingGroup.maxDecreasePercent : NONE;
    this.gasRelease = config.gasRelease ?? false;
    this.transmissionSide = config.transmissionWay ? sideOf(config.transmissionWay) : NONE;
    if (config.settlementPrice !== undefined) this.settlementPrice = config.settlementPrice;
    let lo = Math.max(1, this.minPrice);
    if (this.hasSessionMin) lo = Math.max(lo, this.sessionMinPrice);
    let hi = Math.min(this.maxPrice, this.priceDigitsLimit - 1, Number.MAX_SAFE_INTEGER);
    if (this.hasSessionMax) hi = Math.min(hi, this.sessionMaxPrice);
    if (this.hasRegulatorMax) hi = Math.min(hi, this.regulatorMaxPrice);
    this.priceLo = lo;
    this.priceHi = hi;
    this.refreshProduct();
  }

  refreshProduct(): void {
    this.product = new ProductInfo(this.assetId, this.marketId, this.sessionDate, this.contractQty, this.intervalsPerDay, this.deliveryDays, this.marginsExposureActive);
  }
}

export class ClientState {
  readonly clientCode: string;
  config!: ClientConfig;
  agencyId: string | null = null;
  active = true;
  restrictedAsk = false;
  transmissionPartner = false;
  transmissionActive = false;
  clearingActive = true;
  maxContracts = NONE;
  tradingLimit = NONE;
  funds = NONE;
  // runtime aggregates (amount units)
  /** Margin reserved by open (resting) orders. */
  reservedMargin = 0;
  /** Margin blocked by this session's transactions. */
  tradesMargin = 0;
  /** Value of open orders. */
  openValue = 0;
  /** Value traded this session (exposure from transactions). */
  tradedValue = 0;
  /** noCnt of open orders. */
  openContracts = 0;
  /** One-entry cache of clientAsset(): the last asset this client acted on and its record. */
  lastAsset: AssetState | null = null;
  lastCas: ClientAssetState | null = null;
  constructor(clientCode: string) {
    this.clientCode = clientCode;
  }
  apply(config: ClientConfig): void {
    this.config = config;
    this.agencyId = config.agencyId ?? null;
    this.active = config.active ?? true;
    this.restrictedAsk = config.restrictedAsk ?? false;
    this.transmissionPartner = config.transmissionPartner != null;
    this.transmissionActive = config.transmissionPartner?.active ?? false;
    const c = config.clearing ?? {};
    this.clearingActive = c.activeForTrading ?? true;
    this.maxContracts = c.maxContracts ?? NONE;
    this.tradingLimit = c.tradingLimit ?? NONE;
    this.funds = c.funds ?? NONE;
  }
}

/**
 * Rules of one client on one asset, resolved from both configurations and cached on the
 * ClientAssetState; recomputed when any configuration changed since (epoch).
 */
export class ResolvedRules {
  epoch = -1;
  canBid = false;
  canAsk = false;
  ownerSide: number = NONE;
  gasReleaseOk = false;
  imbalanceSide: number = NONE;
  imbalanceQty = 0;
  tradeableBid = NONE;
  tradeableAsk = NONE;
  clearingAllowed = true;
  // Fast-path summaries (the detailed checks run only when one of these says "maybe not"):
  /** Every static participant rule passes for a bid / an ask (status, rights, ask restriction, owner side, transmission, gas release). */
  bidOk = false;
  askOk = false;
  /** No imbalance and no tradeable-quantity limit. */
  limitsFree = true;
  /** Clearing status and allowed asset pass. */
  clearingOk = true;
}

function pick<T>(record: Record<string, T> | undefined, assetId: string): T | undefined {
  if (!record) return undefined;
  return Object.prototype.hasOwnProperty.call(record, assetId) ? record[assetId] : Object.prototype.hasOwnProperty.call(record, '*') ? record['*'] : undefined;
}

export function resolveRules(target: ResolvedRules, client: ClientState, asset: AssetState, epoch: number): void {
  const cc = client.config;
  const ac = asset.config;
  const rights = pick(cc.rights, asset.assetId);
  target.canBid = rights?.bid ?? false;
  target.canAsk = rights?.ask ?? false;
  const owner = ac.ownerSides && Object.prototype.hasOwnProperty.call(ac.ownerSides, client.clientCode) ? ac.ownerSides[client.clientCode] : undefined;
  target.ownerSide = owner ? sideOf(owner) : NONE;
  const gr = cc.gasReleaseAssets ?? [];
  target.gasReleaseOk = gr.includes('*') || gr.includes(asset.assetId);
  const imb = pick(cc.imbalance, asset.assetId);
  target.imbalanceSide = imb ? sideOf(imb.way) : NONE;
  target.imbalanceQty = imb ? imb.quantity : 0;
  const tq = pick(cc.tradeableQuantity, asset.assetId);
  target.tradeableBid = tq?.bid ?? NONE;
  target.tradeableAsk = tq?.ask ?? NONE;
  const allowed = cc.clearing?.allowedAssets;
  target.clearingAllowed = allowed == null || allowed.includes('*') || allowed.includes(asset.assetId);
  const sideOk = (side: number, can: boolean): boolean =>
    client.active &&
    can &&
    !(side === ASK && client.restrictedAsk) &&
    (target.ownerSide === NONE || target.ownerSide === side) &&
    (asset.transmissionSide === NONE || (side === asset.transmissionSide ? client.transmissionActive : !client.transmissionPartner)) &&
    (!asset.gasRelease || target.gasReleaseOk);
  target.bidOk = sideOk(BID, target.canBid);
  target.askOk = sideOk(ASK, target.canAsk);
  target.limitsFree = target.imbalanceSide === NONE && target.tradeableBid === NONE && target.tradeableAsk === NONE;
  target.clearingOk = client.clearingActive && target.clearingAllowed;
  target.epoch = epoch;
}
