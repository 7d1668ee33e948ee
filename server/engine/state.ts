/**
 * Runtime state records of the engine: markets, assets (with their normalised configuration and
 * book), clients, a client's record on an asset, and orders. Configuration arrives as plain data
 * (types.ts) and is normalised once, on upsert, into flat fields the hot path reads without lookups
 * or defaults. These records point at each other (an order at its client record, the record at its
 * asset, the asset at its book of orders), so they live in one file.
 */
import type { ExecutionType, OrderStatus, SessionPhase, ValidityType, Way } from '../../protocol/enums.ts';
import type { ParticipantKind } from '../../protocol/participants.ts';
import { phaseAllows, type PhaseRights } from '../../protocol/phase-actions.ts';
import { Book, type Level } from './book.ts';
import type { OrderMoment } from './events.ts';
import { OrderHeader, ProductInfo } from './header.ts';
import { ASK, BID, NONE, sideOf, type SideIndex } from './sides.ts';
import { AMOUNT_DECIMALS, type AssetConfig, type ClientConfig, type MarketConfig, type ScheduleEntry } from './types.ts';

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
  /** A book trade's marginsExposureActive: the asset has a margin rate (or marginsExposureActive set). */
  bookTradesMargined = false;
  /** Whitelist-restricted: only clients with an active relation match (matching.ts). */
  bilateral = false;
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
  /** Fast path: a price in [priceLo, priceHi] on the price step passes every price rule (set by rules/price.ts). */
  priceLo = 1;
  priceHi = 0;
  // runtime
  private currentPhase: SessionPhase = 'closed';
  /** What the phase allows (protocol/phase-actions.ts), set with the phase: the order path reads a flag. */
  allows: PhaseRights = phaseAllows.closed;
  get phase(): SessionPhase {
    return this.currentPhase;
  }
  set phase(phase: SessionPhase) {
    this.currentPhase = phase;
    this.allows = phaseAllows[phase];
  }
  phaseBeforeSuspend: SessionPhase | null = null;
  sessionDate = '';
  readonly book = new Book<OrderState>();
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
    this.bookTradesMargined = this.marginsExposureActive || this.marginBps > 0;
    this.bilateral = config.bilateral ?? false;
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
 * ClientAssetState; recomputed when any configuration changed since (epoch). Each rule file of
 * rules/ fills its own fields (rules/resolve.ts calls them).
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
  /** rules/rights.ts: every static participant rule passes for a bid / an ask (status, rights, ask restriction, owner side, transmission, gas release). */
  bidOk = false;
  askOk = false;
  /** rules/position-limits.ts: no imbalance and no tradeable-quantity limit. */
  limitsFree = true;
  /** clearing.ts: clearing status and allowed asset pass. */
  clearingOk = true;
}

/** Per client and asset: open aggregates and the client's resting orders per side (intrusive list). */
export class ClientAssetState {
  readonly clientCode: string;
  readonly assetId: string;
  /** The asset (its state object lives as long as the engine), so order commands need no lookup by id. */
  readonly asset: AssetState;
  readonly client: ClientState;
  /** Rules of this client on this asset, resolved from both configurations (see state.ts). */
  readonly rules: ResolvedRules;
  /** Open (offered) quantity of resting orders per side. */
  openQty: [number, number] = [0, 0];
  openCount: [number, number] = [0, 0];
  /** Heads of the client's resting orders per side (linked through cPrev / cNext). */
  heads: [OrderState | null, OrderState | null] = [null, null];
  /** Traded this session per side, and traded value (price × qty) for the average price. */
  tradedQty: [number, number] = [0, 0];
  tradedValue = 0;
  tradedTotalQty = 0;
  /** This session's traded value and trade margin in amount units (the client's share on this asset). */
  tradedAmount = 0;
  tradesMargin = 0;
  constructor(client: ClientState, asset: AssetState, rules: ResolvedRules) {
    this.clientCode = client.clientCode;
    this.client = client;
    this.asset = asset;
    this.assetId = asset.assetId;
    this.rules = rules;
  }
}

/**
 * The mutable part of an order inside the engine. Instances are pooled and reused (`init` resets
 * every field), so nothing outside the engine keeps one: events hold the order's header (immutable,
 * one per order) and copies of the changing fields.
 */
export class OrderState implements OrderMoment {
  id = 0;
  assetId = '';
  /** What does not change (client, way, product, validity...); replaced, never mutated. */
  header!: OrderHeader;
  side: SideIndex = BID;
  /** Limit price (a market order holds its internal limit: any price). */
  price = 0;
  /** Open quantity (offered). */
  remaining = 0;
  tradedQty = 0;
  tradedValue = 0;
  /** Quantity when created (balancing-group decrease cap). */
  originalQty = 0;
  lastModifiedAt = 0;
  status: OrderStatus = 'created';
  suspended = false;
  /** In the book (false while suspended or once finished). */
  resting = false;
  /** In the engine's live map (resting or suspended). */
  live = false;
  /** Time priority sequence. */
  priority = 0;
  /** Margin and exposure this order reserves on its client (amount units). */
  reservedMargin = 0;
  reservedValue = 0;
  reservedContracts = 0;
  // intrusive links
  level: Level<OrderState> | null = null;
  prev: OrderState | null = null;
  next: OrderState | null = null;
  cPrev: OrderState | null = null;
  cNext: OrderState | null = null;
  cas!: ClientAssetState;

  // The header's fields the hot path reads (cancel, expiry, matching) are copied onto the order: the
  // header is another object, and reading them through it cost a cache miss each (about 7% of
  // bench:engine). The rest are read through the header.
  clientCode = '';
  brokerId: string | null = null;
  /** The user who entered the order (the command's actor.userId), or null: a broker suspension cancels that user's orders. */
  enteredBy: string | null = null;
  way: Way = 'bid';
  executionType: ExecutionType = 'normal';
  validityType: ValidityType = 'day';
  validity: number | null = null;
  expiresAt: number | null = null;

  /** Per-asset constants at creation (market, session date, product factors). */
  get product(): ProductInfo {
    return this.header.product;
  }
  get createdAt(): number {
    return this.header.createdAt;
  }
  get balancingGroupId(): string | null {
    return this.header.balancingGroupId;
  }
  get initiator(): boolean {
    return this.header.initiator;
  }
  /** A market order (IOC / FOK without a limit). */
  get market(): boolean {
    return this.header.market;
  }
  /** Power per settlement interval as entered, or null (derived from qty). */
  get powerPerInterval(): number | null {
    return this.header.powerPerInterval;
  }

  /** A modify changed the validity: a new header, so earlier events keep the old one. */
  setValidity(validityType: ValidityType, validity: number | null): void {
    this.header = this.header.withValidity(validityType, validity);
    this.validityType = validityType;
    this.validity = validity;
    this.expiresAt = this.header.expiresAt;
  }

  init(
    id: number,
    product: ProductInfo,
    clientCode: string,
    brokerId: string | null,
    way: Way,
    price: number,
    qty: number,
    executionType: ExecutionType,
    validityType: ValidityType,
    validity: number | null,
    at: number,
    priority: number,
    balancingGroupId: string | null,
    initiator: boolean,
    market: boolean,
    powerPerInterval: number | null,
    cas: ClientAssetState,
  ): this {
    this.id = id;
    this.assetId = product.assetId;
    const header = new OrderHeader(product, clientCode, brokerId, way, executionType, at, balancingGroupId, initiator, market, powerPerInterval, validityType, validity);
    this.header = header;
    this.clientCode = clientCode;
    this.brokerId = brokerId;
    this.enteredBy = null;
    this.way = way;
    this.executionType = executionType;
    this.validityType = validityType;
    this.validity = validity;
    this.expiresAt = header.expiresAt;
    this.side = way === 'bid' ? BID : ASK;
    this.price = price;
    this.remaining = qty;
    this.tradedQty = 0;
    this.tradedValue = 0;
    this.originalQty = qty;
    this.lastModifiedAt = at;
    this.status = 'created';
    this.suspended = false;
    this.resting = false;
    this.live = true;
    this.priority = priority;
    this.reservedMargin = 0;
    this.reservedValue = 0;
    this.reservedContracts = 0;
    this.level = null;
    this.prev = null;
    this.next = null;
    this.cPrev = null;
    this.cNext = null;
    this.cas = cas;
    return this;
  }
}

/** A participant the operator suspended (suspendParticipant): plain data, kept in snapshots and the hash. */
export interface ParticipantSuspension {
  kind: ParticipantKind;
  /** A client code, or a broker's user id. */
  id: string;
  at: number;
  /** The operator's user id. */
  by: string;
  reason: string;
}

/** Suspended clients (by code) and brokers (by user id); rules/participant-suspension.ts reads them. */
export class ParticipantSuspensions {
  readonly clients = new Map<string, ParticipantSuspension>();
  readonly brokers = new Map<string, ParticipantSuspension>();
  of(kind: ParticipantKind): Map<string, ParticipantSuspension> {
    return kind === 'client' ? this.clients : this.brokers;
  }
}

/** Client list links: the client's resting orders on one side of one asset. */
export function clientLink(order: OrderState): void {
  const cas = order.cas;
  const s = order.side;
  const head = cas.heads[s];
  order.cPrev = null;
  order.cNext = head;
  if (head) head.cPrev = order;
  cas.heads[s] = order;
  cas.openQty[s] += order.remaining;
  cas.openCount[s]++;
}

export function clientUnlink(order: OrderState): void {
  const cas = order.cas;
  const s = order.side;
  if (order.cPrev) order.cPrev.cNext = order.cNext;
  else cas.heads[s] = order.cNext;
  if (order.cNext) order.cNext.cPrev = order.cPrev;
  order.cPrev = null;
  order.cNext = null;
  cas.openQty[s] -= order.remaining;
  cas.openCount[s]--;
}
