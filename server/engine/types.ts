/**
 * Engine vocabulary: configuration, commands, results, events and read-only views.
 *
 * Everything here is plain data so that a command log (the journal) can be serialised with JSON and
 * replayed into an identical engine. Prices and quantities are integers in the asset's minor units
 * (10^-priceDecimals, 10^-quantityDecimals); amounts (funds, limits, margins, exposure) are integers in
 * currency minor units with AMOUNT_DECIMALS places. Time is epoch milliseconds, always taken from the
 * command's `at`; the engine never reads a clock.
 */
import type { ErrorCode } from '../../protocol/error-codes.ts';
import type { ExecutionType, OrderStatus, SessionPhase, ValidityType, Way } from '../../protocol/enums.ts';
import type { OrderHeader, ProductInfo } from './header.ts';
import type { ParticipantKind } from '../../protocol/participants.ts';

/** Decimals of every money amount the engine handles (funds, limits, margins, exposure). */
export const AMOUNT_DECIMALS = 2;

export type OrderId = number;
export type TransactionId = number;

// ---------------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------------

/** One entry of a market's phase schedule: at `at` the market (all its assets) enters `phase`. */
export interface ScheduleEntry {
  at: number;
  phase: SessionPhase;
  /** Session date (YYYY-MM-DD) that starts with this entry; usually given with `opening`. */
  sessionDate?: string;
}

export interface MarketConfig {
  marketId: string;
  /** Currency of amounts on this market (shown with ORDER_INSUFFICIENT_FUNDS). */
  currency: string;
  /** Absolute-time schedule applied by `tick`; entries at or before the upsert's `at` are skipped. */
  schedule?: ScheduleEntry[];
}

export interface AssetFlags {
  /** A modify may not worsen the price (lower bid, higher ask): ORDER_PRICE_CANNOT_WORSEN. */
  priceMustImprove?: boolean;
  /** A modify may not decrease the quantity: ORDER_QUANTITY_CANNOT_DECREASE. */
  noQuantityDecrease?: boolean;
  /** A modify may not change the price: ORDER_PRICE_NOT_CHANGEABLE. */
  noPriceChange?: boolean;
  /** A modify may not change the time attributes (validity type, validity) or the execution type. */
  noAttributeChange?: boolean;
  /** Orders cannot be cancelled: ORDER_NOT_CANCELLABLE. */
  noCancel?: boolean;
  /** A client may not hold active orders on both sides: ORDER_CROSS_BID. */
  oneSidePerClient?: boolean;
}

export interface DeltaTConfig {
  /** Length of the delta-T period started by a crossing, in ms. */
  durationMs: number;
  /** During delta T a competing order must improve its side's best price by at least this step. */
  priceStep: number;
}

export interface SimpleCompetitiveConfig {
  /** The one client that initiates the procedure. */
  initiatorClientCode: string;
  /** The initiator's side; partners trade on the opposite side. */
  initiatorWay: Way;
}

export interface BalancingGroupConfig {
  /** Cumulative quantity decrease allowed on an order, as a percent of its original quantity. */
  maxDecreasePercent: number;
}

export interface AssetConfig {
  assetId: string;
  marketId: string;
  priceDecimals: number;
  quantityDecimals: number;
  priceStep: number;
  quantityStep: number;
  minQuantity: number;
  maxQuantity: number;
  /** Price limits of the asset: ORDER_PRICE_OUTSIDE_LIMITS. */
  minPrice: number;
  maxPrice: number;
  /** Session bounds (set per session, e.g. around the reference price). */
  sessionMinPrice?: number | null;
  sessionMaxPrice?: number | null;
  /** Regulator's maximum price. */
  regulatorMaxPrice?: number | null;
  /** false: every order command is refused with ORDER_TRADING_DEACTIVATED. Default true. */
  tradingActive?: boolean;
  /** Quantity per contract (noCnt = qty / contractQty). Default 1. */
  contractQty?: number;
  /** Which field a new order must carry: `qty` (ORDER_QUANTITY_MISSING) or `noCnt` (ORDER_CONTRACT_COUNT_MISSING). Default qty. */
  quantityInput?: 'qty' | 'noCnt';
  /** Settlement intervals per delivery day (power per interval = qty / intervals). Default 24. */
  settlementIntervalsPerDay?: number;
  /** Delivery days of the product (total qty = qty × deliveryDays). Default 1. */
  deliveryDays?: number;
  /** Margin of an order as basis points of its value. Default 0 (no funds check). */
  marginBps?: number;
  /** Unit of quantities ('MWh'), named in quantity refusals so they state the rule whole. Default none. */
  unit?: string;
  marginsExposureActive?: boolean;
  flags?: AssetFlags;
  deltaT?: DeltaTConfig | null;
  simpleCompetitive?: SimpleCompetitiveConfig | null;
  balancingGroup?: BalancingGroupConfig | null;
  /** Gas release asset: only clients with the asset in `gasReleaseAssets` may trade. */
  gasRelease?: boolean;
  /** The side reserved to active partners of the transmission operator; those partners may use only that side. */
  transmissionWay?: Way | null;
  /** Asset owners and clients restricted to one side on this asset: clientCode -> allowed way. */
  ownerSides?: Record<string, Way>;
  /** Latest settlement (start-of-day) price, shown in the statistics and used as reference price. */
  settlementPrice?: number | null;
  /**
   * Whitelist-restricted (bilateral) asset: orders match only between clients with an active
   * whitelist relation (setWhitelistRelation); a non-partner's resting order is skipped and stays.
   */
  bilateral?: boolean;
}

export interface SideRights {
  bid: boolean;
  ask: boolean;
}

export interface ClearingConfig {
  /** false: CLEARING_CLIENT_NOT_ACTIVE. Default true. */
  activeForTrading?: boolean;
  /** Assets the clearing house allows; null/absent = all. '*' = all. CLEARING_CLIENT_NOT_ALLOWED. */
  allowedAssets?: string[] | null;
  /** Maximum open contracts (sum of noCnt of open orders): CLEARING_MAX_CONTRACTS. */
  maxContracts?: number | null;
  /** Trading (financial) limit against exposure: CLEARING_FINANCIAL_LIMIT. */
  tradingLimit?: number | null;
  /** Funds available for margins: ORDER_INSUFFICIENT_FUNDS. null = not checked. */
  funds?: number | null;
}

export interface ClientConfig {
  clientCode: string;
  /** Agency the client belongs to; an agency actor may operate only on its own clients. */
  agencyId?: string | null;
  /** false: ORDER_CLIENT_NOT_ACTIVE. Default true. */
  active?: boolean;
  /** Trading rights per asset id ('*' = every asset) and direction: ORDER_NO_RIGHT. */
  rights?: Record<string, SideRights>;
  /** Client may not place asks: ORDER_CLIENT_RESTRICTED_ASK. */
  restrictedAsk?: boolean;
  /** Imbalance restriction per asset id ('*' = every asset): one way only, within a quantity. */
  imbalance?: Record<string, { way: Way; quantity: number }>;
  /** Tradeable quantity per asset id ('*' = every asset) and way: open + traded this session + new <= limit. */
  tradeableQuantity?: Record<string, { bid?: number | null; ask?: number | null }>;
  /** Gas release assets the client is permitted on ('*' = all). */
  gasReleaseAssets?: string[];
  /** Partner of the transmission system operator. */
  transmissionPartner?: { active: boolean } | null;
  clearing?: ClearingConfig;
}

// ---------------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------------

/** Who sends an order command. Operators leave agencyId empty. */
export interface Actor {
  userId?: string;
  brokerId?: string | null;
  /** When set, the client of the order must belong to this agency. */
  agencyId?: string | null;
}

export interface CommandBase {
  /** Epoch ms: the command's time (the sequencer stamps it); the engine's only clock. */
  at: number;
}

export interface AddOrderCommand extends CommandBase {
  type: 'addOrder';
  actor?: Actor;
  assetId?: string;
  clientCode?: string;
  way?: Way;
  /** Limit price; omitted (or null) only for a market order, which must be IOC or FOK. */
  price?: number | null;
  /** Quantity (MWh per day or contracts); on assets with quantityInput 'noCnt' the engine uses noCnt instead. */
  qty?: number;
  noCnt?: number;
  /** Power per settlement interval as entered; default qty / settlementIntervalsPerDay (rounded down). */
  powerPerInterval?: number | null;
  validityType?: ValidityType;
  /** Expiry instant for GTD / GTSV (epoch ms). The HTTP layer turns a GTD date into its end instant. */
  validity?: number | null;
  executionType?: ExecutionType;
  balancingGroupId?: string | null;
}

export interface ModifyOrderCommand extends CommandBase {
  type: 'modifyOrder';
  actor?: Actor;
  orderId: OrderId;
  price?: number;
  /** New open (offered) quantity; the traded part is kept. */
  qty?: number;
  noCnt?: number;
  validityType?: ValidityType;
  validity?: number | null;
  executionType?: ExecutionType;
}

export interface OrderRefCommand extends CommandBase {
  type: 'cancelOrder' | 'suspendOrder' | 'activateOrder';
  actor?: Actor;
  orderId: OrderId;
}

export interface SetPhaseCommand extends CommandBase {
  type: 'setPhase';
  marketId: string;
  /** Omitted or null: every asset of the market. */
  assetId?: string | null;
  phase: SessionPhase;
  sessionDate?: string;
}

export interface OperatorSessionCommand extends CommandBase {
  type: 'operatorSuspend' | 'operatorResume';
  marketId: string;
  assetId?: string | null;
}

export interface TickCommand extends CommandBase {
  type: 'tick';
}

export interface UpsertMarketCommand extends CommandBase {
  type: 'upsertMarket';
  market: MarketConfig;
}
export interface UpsertAssetCommand extends CommandBase {
  type: 'upsertAsset';
  asset: AssetConfig;
}
export interface UpsertClientCommand extends CommandBase {
  type: 'upsertClient';
  client: ClientConfig;
}
export interface SetSettlementPriceCommand extends CommandBase {
  type: 'setSettlementPrice';
  assetId: string;
  price: number | null;
}
/**
 * The clearing house has settled a market's session: its trades' exposure and margin leave the
 * engine's figures now (as a new session would take them), since clearing counts them from here on.
 */
export interface SettleSessionTradesCommand extends CommandBase {
  type: 'settleSessionTrades';
  marketId: string;
  sessionDate: string;
}

/**
 * Cancels every live order (on the book or suspended) of `clientCodes`, optionally of one market or
 * asset, in one journaled command. An order the phase, delta T, agency or the asset's cancel
 * restrictions keep stays and is listed in the result's `refused`; the command itself is never refused
 * for them. Nothing to cancel: no event, not journaled.
 */
export interface CancelAllCommand extends CommandBase {
  type: 'cancelAll';
  actor?: Actor;
  clientCodes: string[];
  marketId?: string | null;
  assetId?: string | null;
}

/** An order a cancelAll left in place, with the refusal a cancelOrder of it would get. */
export interface CancelAllRefusal {
  orderId: OrderId;
  code: ErrorCode;
  params: EngineParams;
}

/**
 * The operator suspends a participant (issue 16): a client (its code) or a broker (a user id). Every
 * live order of the client, or entered by the user, is cancelled in the same command (events as
 * cancelAll's, reason 'user'; `actor` is the operator), whatever the trader-side cancel rules say; from then on the
 * participant's new orders, modifications and activations, and new OTC registrations of a suspended
 * client, are refused with PARTICIPANT_SUSPENDED until reinstateParticipant.
 */
export interface SuspendParticipantCommand extends CommandBase {
  type: 'suspendParticipant';
  actor?: Actor;
  kind: ParticipantKind;
  id: string;
  reason: string;
  /** The operator's user id. */
  by: string;
}
export interface ReinstateParticipantCommand extends CommandBase {
  type: 'reinstateParticipant';
  kind: ParticipantKind;
  id: string;
  by: string;
}

/** How a transaction came to be: matched in the book, or registered off the book by a post-trade workflow. */
export type TransactionOrigin = 'book' | 'otc' | 'transfer' | 'split';
/** superseded: transferred (novated) to the central counterparty; its children carry the quantity. */
export type TransactionStatus = 'active' | 'superseded';

/**
 * A transaction the engine holds: every off-book one, and a book one once a post-trade command
 * (transfer, margins switch) has touched it. Plain data (snapshots and the hash take it as it is).
 */
export interface TransactionRecord {
  transactionId: number;
  assetId: string;
  marketId: string;
  buyer: string;
  seller: string;
  price: number;
  qty: number;
  noCnt: number;
  txDate: string;
  timestamp: number;
  origin: TransactionOrigin;
  status: TransactionStatus;
  marginsExposureActive: boolean;
  parentTransactionId: number | null;
  grandParentTransactionId: number | null;
  transferTimestamp: number | null;
  splitTimestamp: number | null;
  externalTransactionId: string | null;
  /** A book trade's orders and aggressor, when its facts carried them (TransactionFacts); absent otherwise (so older records hash as before). */
  buyOrderId?: number;
  sellOrderId?: number;
  aggressor?: Way;
}

/**
 * A transaction off the book (OTC deal, the children of a transfer): the engine gives it an id of its
 * transaction sequence and counts it in the parties' trade accounting like a book trade, without the
 * public tape, the session statistics or the last price.
 */
export interface RegisterOffBookTradeCommand extends CommandBase {
  type: 'registerOffBookTrade';
  assetId: string;
  buyer: string;
  seller: string;
  price: number;
  qty: number;
  origin: Exclude<TransactionOrigin, 'book'>;
  parentTransactionId: TransactionId | null;
  grandParentTransactionId: TransactionId | null;
  transferTimestamp: number | null;
  splitTimestamp: number | null;
  externalTransactionId: string | null;
  /** Whether clearing counts its margins from the start (an OTC deal is registered inactive and activated by its workflow). */
  marginsExposureActive: boolean;
}

/**
 * What the engine needs of a book transaction it does not hold (it keeps only off-book transactions
 * and those a post-trade command touched): the trading service reads it from the transactions read
 * model and journals it with the command, so a replay needs no read model.
 */
export interface TransactionFacts {
  transactionId: TransactionId;
  assetId: string;
  buyer: string;
  seller: string;
  price: number;
  qty: number;
  txDate: string;
  timestamp: number;
  origin: TransactionOrigin;
  parentTransactionId: TransactionId | null;
  grandParentTransactionId: TransactionId | null;
  marginsExposureActive: boolean;
  /**
   * A book trade's orders and aggressor (absent or null off the book, and in commands journaled before
   * they were sent): kept on the record, so the views built from it (the transaction pushed to the
   * parties when it changes, `getTransaction`) are whole.
   */
  buyOrderId?: number | null;
  sellOrderId?: number | null;
  aggressor?: Way | null;
}

/**
 * Transfer (novation) of a transaction to the central counterparty's asset: the original is superseded
 * and leaves the engine's accounting; a child of `qty` in `targetAssetId` (origin transfer) and, when
 * `qty` is less than the original's, a child for the remainder in the original asset (origin split).
 */
export interface NovateTransactionCommand extends CommandBase {
  type: 'novateTransaction';
  transactionId: TransactionId;
  qty: number;
  targetAssetId: string;
  /** The original when it is a book transaction the engine does not hold yet (see TransactionFacts). */
  original?: TransactionFacts | null;
}

/** Whether clearing (and the engine's trade margin) counts a transaction's margins. */
export interface SetTransactionMarginsExposureCommand extends CommandBase {
  type: 'setTransactionMarginsExposure';
  transactionId: TransactionId;
  active: boolean;
  original?: TransactionFacts | null;
}

/** A whitelist relation between two clients (symmetric): on bilateral assets only partners match. */
export interface SetWhitelistRelationCommand extends CommandBase {
  type: 'setWhitelistRelation';
  clientCode: string;
  partnerCode: string;
  active: boolean;
}

export type EngineCommand =
  | RegisterOffBookTradeCommand
  | NovateTransactionCommand
  | SetTransactionMarginsExposureCommand
  | SetWhitelistRelationCommand
  | AddOrderCommand
  | ModifyOrderCommand
  | OrderRefCommand
  | SetPhaseCommand
  | OperatorSessionCommand
  | TickCommand
  | UpsertMarketCommand
  | UpsertAssetCommand
  | UpsertClientCommand
  | SetSettlementPriceCommand
  | SettleSessionTradesCommand
  | CancelAllCommand
  | SuspendParticipantCommand
  | ReinstateParticipantCommand;


// ---------------------------------------------------------------------------------------------------
// Views and events
// ---------------------------------------------------------------------------------------------------

/** An order as SPEC §3 lists it (plus the engine's bookkeeping fields). A copy: never mutated later. */
export interface OrderView {
  orderId: OrderId;
  assetId: string;
  marketId: string;
  status: OrderStatus;
  suspended: boolean;
  clientCode: string;
  brokerId: string | null;
  way: Way;
  /** Ordered quantity: traded + offered. */
  qty: number;
  noCnt: number;
  /** null for a market order (IOC / FOK without a limit). */
  price: number | null;
  sessionDate: string;
  tradedQty: number;
  /** Volume-weighted average traded price (rounded), null before the first trade. */
  tradedPrice: number | null;
  /** Open quantity still offered in the book (or held while suspended). */
  offeredQty: number;
  offeredPrice: number | null;
  executionType: ExecutionType;
  validityType: ValidityType;
  validity: number | null;
  expiresAt: number | null;
  createdAt: number;
  lastModifiedAt: number;
  /** Time-priority sequence: lower goes first within a price level. */
  priority: number;
  /** Place in its price level's queue (1 = first): computed by the queries (getOrder, listOrders); null from orderViewOf(event) and off the book. */
  position: number | null;
  powerPerInterval: number;
  totalQty: number;
  balancingGroupId: string | null;
  initiator: boolean;
}

/** SPEC §3 Transaction, plus the two order ids and brokers (null off the book). */
export interface TransactionView {
  transactionId: TransactionId;
  assetId: string;
  marketId: string;
  buyer: string;
  seller: string;
  buyOrderId: OrderId | null;
  sellOrderId: OrderId | null;
  buyerBrokerId: string | null;
  sellerBrokerId: string | null;
  /** Side of the order that took liquidity; in an uncross (auction, end of delta T) the side of the later order; null off the book. */
  aggressor: Way | null;
  origin: TransactionOrigin;
  status: TransactionStatus;
  qty: number;
  price: number;
  noCnt: number;
  txDate: string;
  timestamp: number;
  marginsExposureActive: boolean;
  externalTransactionId: string | null;
  gasfwTransactionId: string | null;
  transferTimestamp: number | null;
  parentTransactionId: TransactionId | null;
  grandParentTransactionId: TransactionId | null;
  splitTimestamp: number | null;
}

export interface ClientTradeStats {
  clientCode: string;
  tradedQty: number;
  /** Rounded value-weighted average price, null without trades. */
  averagePrice: number | null;
}

export interface SessionStats {
  assetId: string;
  sessionDate: string;
  minPrice: number | null;
  maxPrice: number | null;
  lastPrice: number | null;
  volume: number;
  transactions: number;
  closingPrice: number | null;
  /** Quantity executed by the last uncross (opening auction or end of delta T). */
  tradeableQty: number;
  /** Unexecuted quantity at the last uncross price: positive = bids left, negative = asks left. */
  surplusQty: number;
  settlementPrice: number | null;
}

export type OrderEventKind =
  | 'created'
  | 'modified'
  | 'traded'
  | 'tradedPartially'
  | 'cancelled'
  | 'expired'
  | 'suspended'
  | 'activated';

export type CancelReason = 'user' | 'ioc' | 'expired';

/**
 * An order changed: what changed, as primitives, and the order's shared immutable header (never a
 * copy of the whole order: `orderViewOf(event)` in events.ts builds the full OrderView on demand).
 */
export interface OrderEvent {
  type: 'order';
  kind: OrderEventKind;
  orderId: OrderId;
  /**
   * Which command emitted it: the count of commands that changed the engine, this one included.
   * Refusals and idle ticks (never journaled) do not count, so a replay gives every event the same
   * seq; with the sequencer driving the engine from an empty journal it is the journal record's seq.
   */
  seq: number;
  at: number;
  /** Set for cancelled and expired (the key is always present, undefined otherwise). */
  reason?: CancelReason;
  status: OrderStatus;
  suspended: boolean;
  /** Limit price; a market order's is an internal limit (`header.market`; see limitPriceOf). */
  price: number;
  /** Open (offered) quantity. */
  remaining: number;
  tradedQty: number;
  /** Sum of price × qty of its trades (the average traded price is tradedValue / tradedQty). */
  tradedValue: number;
  priority: number;
  header: OrderHeader;
}

/** A match; `transactionViewOf(event)` in events.ts builds the SPEC §3 TransactionView. */
export interface TradeEvent {
  type: 'trade';
  transactionId: TransactionId;
  /** As OrderEvent.seq. */
  seq: number;
  at: number;
  /** Asset, market, session date and contract size at the time of the trade. */
  product: ProductInfo;
  buyOrderId: OrderId;
  sellOrderId: OrderId;
  buyer: string;
  seller: string;
  buyerBrokerId: string | null;
  sellerBrokerId: string | null;
  /** Side of the order that took liquidity; in an uncross (auction, end of delta T) the side of the later order. */
  aggressor: Way;
  qty: number;
  price: number;
  /** A book trade counts its margins when its asset has a margin rate (or marginsExposureActive). */
  marginsExposureActive: boolean;
}

/** A transaction registered off the book (registerOffBookTrade, the children of a transfer). */
export interface OffBookTradeEvent {
  type: 'offBookTrade';
  seq: number;
  at: number;
  transaction: TransactionView;
}

/** A transaction's post-trade state changed: superseded by a transfer, or its margins switched. */
export interface TransactionUpdateEvent {
  type: 'transactionUpdate';
  seq: number;
  at: number;
  transactionId: TransactionId;
  assetId: string;
  buyer: string;
  seller: string;
  status: TransactionStatus;
  marginsExposureActive: boolean;
  /** The whole transaction as it now is (the parties' private queues get it). */
  transaction: TransactionView;
}

export type EngineEvent =
  | OrderEvent
  | TradeEvent
  | OffBookTradeEvent
  | TransactionUpdateEvent
  /** The new aggregate of one price level (qty 0 and orders 0: the level is gone). */
  | { type: 'level'; assetId: string; way: Way; price: number; qty: number; orders: number }
  | { type: 'deltaT'; kind: 'start' | 'end'; assetId: string; endsAt: number; price: number; at: number }
  | { type: 'phase'; marketId: string; assetId: string | null; phase: SessionPhase; previous: SessionPhase; sessionDate: string; at: number }
  | { type: 'stats'; stats: SessionStats }
  | { type: 'config'; kind: 'market' | 'asset' | 'client' | 'settlementPrice' | 'sessionTradesSettled' | 'whitelist' | 'participant'; id: string; at: number };

export type EngineParams = Record<string, string | number>;

export interface EngineResult {
  result: 'OK' | ErrorCode;
  params?: EngineParams;
  /** Id of the order the command created or acted on. */
  orderId?: OrderId;
  events: EngineEvent[];
  /** cancelAll: the orders it cancelled (ascending ids) and those it had to leave; suspendParticipant: the orders it cancelled. */
  cancelled?: OrderId[];
  refused?: CancelAllRefusal[];
}

export interface BookLevelView {
  price: number;
  qty: number;
  orders: number;
}

export interface BookView {
  assetId: string;
  bids: BookLevelView[];
  asks: BookLevelView[];
}
