/**
 * The matching engine: a single-threaded sequencer. `execute(command)` checks every rule, applies the
 * command and returns a result code with the events it produced. No I/O, no clock (time comes from
 * `command.at`), ids from counters: the same commands always give the same state, so the journal
 * can rebuild the engine by replaying its command log. A refused command changes nothing.
 *
 * See docs/engine.md for the rules, the phase permissions and delta T.
 */
import { apiError, type ApiError, type ErrorCode } from '../../protocol/error-codes.ts';
import { executionTypes, validityTypes, type ExecutionType, type SessionPhase, type ValidityType, type Way } from '../../protocol/enums.ts';
import { formatDecimal } from '../../protocol/decimal.ts';
import { amountOf, marginOf } from './amounts.ts';
import { ASK, BID, ClientAssetState, OrderState, clientLink, clientUnlink, type Level, type SideIndex } from './book.ts';
import { buildOrderView, buildTransactionView } from './events.ts';
import { computeStateHash } from './hash.ts';
import { ExpiryHeap } from './heap.ts';
import { OrderIndex } from './order-index.ts';
import { exportEngineState, importEngineState, type EngineSnapshot, type SnapshotAccess } from './snapshot.ts';
import { validateInternalState } from './validate.ts';
import { AssetState, ClientState, MarketState, NONE, ResolvedRules, emptyStats, resolveRules, wayOf } from './state.ts';
import {
  AMOUNT_DECIMALS,
  type AddOrderCommand,
  type BookView,
  type CancelReason,
  type ClientTradeStats,
  type EngineCommand,
  type EngineEvent,
  type EngineParams,
  type EngineResult,
  type ModifyOrderCommand,
  type OperatorSessionCommand,
  type OrderEventKind,
  type OrderRefCommand,
  type OrderView,
  type SessionStats,
  type SetPhaseCommand,
} from './types.ts';

const validityTypeSet: ReadonlySet<string> = new Set(validityTypes);
const executionTypeSet: ReadonlySet<string> = new Set(executionTypes);
const phaseSet: ReadonlySet<string> = new Set(['opening', 'trading', 'closing', 'suspended', 'closed']);

/** A refusal, built only on the error path. */
type Refusal = EngineResult;

function refuse<C extends ErrorCode>(error: ApiError<C>): Refusal {
  return { result: error.code, params: error.params as EngineParams, events: [] };
}

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

/** noCnt of a quantity (no division for the common contract size 1). */
function contractsOf(a: AssetState, qty: number): number {
  return a.contractQty === 1 ? qty : Math.ceil(qty / a.contractQty);
}

const NO_EVENTS: EngineEvent[] = [];

function isPositiveInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
}

export class Engine {
  private readonly markets = new Map<string, MarketState>();
  private readonly assets = new Map<string, AssetState>();
  private readonly clients = new Map<string, ClientState>();
  /** Live orders: resting in a book or suspended. Finished orders leave the engine (the store keeps them). */
  private readonly orders = new OrderIndex();
  private readonly expiries = new ExpiryHeap();
  private readonly deltaTAssets = new Set<AssetState>();
  /** Value and margin of the order being added at its full quantity (see reserve()). */
  private hintQty = -1;
  private hintValue = 0;
  private hintMargin = 0;
  /** One-entry cache of the asset of the last new order. */
  private lastAsset: AssetState | null = null;
  private readonly dirtyAssets: AssetState[] = [];
  /**
   * Finished OrderState objects, reused by new orders. Safe because events and queries copy what they
   * need, and a command takes at most one object from the pool, before anything finishes in it.
   */
  private readonly pool: OrderState[] = [];
  private nextOrderId = 1;
  private nextTransactionId = 1;
  private nextPriority = 1;
  /** Bumped on every configuration change; cached client/asset rules recompute when stale. */
  private epoch = 0;
  private now = 0;
  /** Events of the current command: a new array per command that becomes the result's `events`. */
  private events: EngineEvent[] = [];
  private resultOrderId: number | undefined = undefined;
  private commandCount = 0;

  // =================================================================================================
  // Sequencer
  // =================================================================================================

  execute(command: EngineCommand): EngineResult {
    if (command === null || typeof command !== 'object') return refuse(apiError('REQUEST_INVALID', { field: 'command', issue: 'notAnObject' }));
    // A fresh (young) array per command, handed out as the result's events: storing young events
    // into a long-lived buffer would take the write barrier's slow path for every event.
    this.events = [];
    this.resultOrderId = undefined;
    this.hintQty = -1;
    this.commandCount++;
    // `at` is read inside each case so that every load site sees few command shapes
    let refusal: Refusal | null;
    switch (command.type) {
      case 'addOrder':
        refusal = this.advance(command.at) ?? this.addOrder(command);
        break;
      case 'cancelOrder':
        refusal = this.advance(command.at) ?? this.cancelOrder(command);
        break;
      case 'modifyOrder':
        refusal = this.advance(command.at) ?? this.modifyOrder(command);
        break;
      case 'suspendOrder':
        refusal = this.advance(command.at) ?? this.suspendOrder(command);
        break;
      case 'activateOrder':
        refusal = this.advance(command.at) ?? this.activateOrder(command);
        break;
      case 'setPhase':
        refusal = this.advance(command.at) ?? this.setPhase(command);
        break;
      case 'operatorSuspend':
      case 'operatorResume':
        refusal = this.advance(command.at) ?? this.operatorSession(command);
        break;
      case 'tick':
        refusal = this.advance(command.at) ?? this.tick(command.at);
        break;
      case 'upsertMarket':
        refusal = this.advance(command.at) ?? this.upsertMarket(command.market, command.at);
        break;
      case 'upsertAsset':
        refusal = this.advance(command.at) ?? this.upsertAsset(command.asset, command.at);
        break;
      case 'upsertClient':
        refusal = this.advance(command.at) ?? this.upsertClient(command.client, command.at);
        break;
      case 'setSettlementPrice':
        refusal = this.advance(command.at) ?? this.setSettlementPrice(command.assetId, command.price, command.at);
        break;
      default:
        refusal = refuse(apiError('REQUEST_INVALID', { field: 'type', issue: 'unknownCommand' }));
    }
    if (refusal !== null) return refusal;
    if (this.dirtyAssets.length > 0) this.flushStats();
    const events = this.takeEvents();
    const orderId = this.resultOrderId;
    return orderId === undefined ? { result: 'OK', events } : { result: 'OK', orderId, events };
  }

  /** Validates a command's time and moves the engine's clock (the latest time seen). */
  private advance(at: number): Refusal | null {
    if (typeof at !== 'number' || !Number.isFinite(at)) return refuse(apiError('REQUEST_INVALID', { field: 'at', issue: 'notANumber' }));
    if (at > this.now) this.now = at;
    return null;
  }

  // =================================================================================================
  // Orders
  // =================================================================================================

  private addOrder(c: AddOrderCommand): Refusal | null {
    const at = c.at;
    const assetId = c.assetId;
    if (!assetId) return refuse(apiError('ORDER_ASSET_ID_MISSING'));
    const last = this.lastAsset;
    const a = last !== null && last.assetId === assetId ? last : this.assets.get(assetId);
    if (a === undefined) return refuse(apiError('ORDER_ASSET_ID_INVALID', { assetId }));
    this.lastAsset = a;
    const phase = a.phase;
    if (phase !== 'trading' && phase !== 'opening') return this.phaseRefusal(phase);
    if (!a.tradingActive) return refuse(apiError('ORDER_TRADING_DEACTIVATED', { assetId }));
    const way = c.way;
    if (!way) return refuse(apiError('ORDER_DIRECTION_MISSING'));
    if (way !== 'bid' && way !== 'ask') return refuse(apiError('ORDER_DIRECTION_INVALID', { way: String(way) }));
    const side: SideIndex = way === 'bid' ? BID : ASK;
    const clientCode = c.clientCode;
    if (!clientCode) return refuse(apiError('ORDER_CLIENT_CODE_MISSING'));
    const client = this.clients.get(clientCode);
    if (client === undefined) return refuse(apiError('ORDER_CLIENT_CODE_INVALID', { clientCode }));
    const cas = this.clientAsset(a, client);
    const rules = cas.rules;
    const agencyId = c.actor?.agencyId;
    if (!(side === BID ? rules.bidOk : rules.askOk) || (agencyId && client.agencyId !== agencyId)) {
      const participant = this.checkParticipant(a, client, rules, agencyId, side);
      if (participant !== null) return participant;
    }

    // validity and execution
    const validityType = c.validityType;
    if (!validityType) return refuse(apiError('ORDER_VALIDITY_TYPE_MISSING'));
    if (validityType !== 'day' && validityType !== 'GTC' && validityType !== 'GTD' && validityType !== 'GTSV') return refuse(apiError('ORDER_VALIDITY_TYPE_INVALID', { validityType: String(validityType) }));
    let validity: number | null = null;
    if (validityType === 'GTD' || validityType === 'GTSV') {
      const v = c.validity;
      if (v === undefined || v === null) return refuse(apiError('ORDER_VALIDITY_TIMESTAMP_MISSING'));
      if (typeof v !== 'number' || !Number.isFinite(v)) return refuse(apiError('REQUEST_INVALID', { field: 'validity', issue: 'notANumber' }));
      if (v <= at) return refuse(apiError('ORDER_VALIDITY_IN_PAST', { validity: iso(v) }));
      validity = v;
    }
    if (a.scInitiator !== null && validityType !== 'GTC') return refuse(apiError('ORDER_SIMPLE_COMPETITIVE_GTC_ONLY'));
    const executionType: ExecutionType = c.executionType ?? 'normal';
    if (executionType !== 'normal') {
      if (!executionTypeSet.has(executionType)) return refuse(apiError('REQUEST_INVALID', { field: 'executionType', issue: 'invalid' }));
      if (phase !== 'trading') return refuse(apiError('SESSION_PHASE_FORBIDS', { phase }));
    }

    // quantity
    let qty: number;
    if (a.inputNoCnt) {
      const n = c.noCnt;
      if (n === undefined || n === null) return refuse(apiError('ORDER_CONTRACT_COUNT_MISSING'));
      if (!isPositiveInt(n)) return this.quantityInvalid(a);
      qty = n * a.contractQty;
    } else {
      const q = c.qty;
      if (q === undefined || q === null) return refuse(apiError('ORDER_QUANTITY_MISSING'));
      if (!isPositiveInt(q)) return this.quantityInvalid(a);
      qty = q;
    }
    if (!(qty % a.quantityStep === 0 && qty >= a.minQuantity && qty <= a.maxQuantity)) {
      const qtyRefusal = this.checkQuantity(a, qty);
      if (qtyRefusal !== null) return qtyRefusal;
    }

    // price (a market order has none: it must be IOC or FOK and takes any price)
    let price: number;
    const isMarket = c.price === undefined || c.price === null;
    if (isMarket) {
      if (executionType === 'normal') return refuse(apiError('ORDER_PRICE_MISSING'));
      price = side === BID ? Number.MAX_SAFE_INTEGER : 0;
    } else {
      price = c.price!;
      if (!(price >= a.priceLo && price <= a.priceHi && price % a.priceStep === 0 && Number.isInteger(price))) {
        const priceRefusal = this.checkPrice(a, price);
        if (priceRefusal !== null) return priceRefusal;
      }
    }

    // simple competitive roles
    let initiator = false;
    if (a.scInitiator !== null) {
      if (clientCode === a.scInitiator) {
        if (side !== a.scSide) return refuse(apiError('ORDER_SIMPLE_COMPETITIVE_WRONG_SIDE', { way }));
        if (a.initiatorOrderId !== null) return refuse(apiError('ORDER_INITIATOR_EXISTS', { orderId: a.initiatorOrderId }));
        if (a.initiatorPlaced) return refuse(apiError('ORDER_INITIATOR_NO_NEW_ORDER'));
        initiator = true;
      } else if (side === a.scSide) {
        return refuse(apiError('ORDER_SIMPLE_COMPETITIVE_WRONG_SIDE', { way }));
      }
    }

    if (!rules.limitsFree) {
      const positionRefusal = this.checkPositionLimits(a, cas, side, qty);
      if (positionRefusal !== null) return positionRefusal;
    }
    if (cas.openCount[side === BID ? ASK : BID] !== 0) {
      const crossRefusal = this.checkCross(a, cas, side, price);
      if (crossRefusal !== null) return crossRefusal;
    }
    if (a.deltaT !== null) {
      const deltaRefusal = this.checkDeltaT(a, side, price, executionType);
      if (deltaRefusal !== null) return deltaRefusal;
    }

    // pre-trade clearing (a market order is valued at the worst price it would reach)
    const value = amountOf(a, isMarket ? this.reachPrice(a, side, qty) : price, qty);
    const margin = marginOf(a.marginBps, value);
    const contracts = contractsOf(a, qty);
    if (
      !(
        rules.clearingOk &&
        (client.maxContracts === NONE || client.openContracts + contracts <= client.maxContracts) &&
        (client.tradingLimit === NONE || client.openValue + client.tradedValue + value <= client.tradingLimit) &&
        (client.funds === NONE || margin === 0 || margin <= client.funds - client.reservedMargin - client.tradesMargin)
      )
    ) {
      const clearingRefusal = this.checkClearing(a, client, rules, value, margin, contracts);
      if (clearingRefusal !== null) return clearingRefusal;
    }
    // what the order reserves if it rests untouched (saves recomputing it in reserve())
    this.hintQty = isMarket ? -1 : qty;
    this.hintValue = value;
    this.hintMargin = margin;

    // immediate execution feasibility (nothing has changed yet)
    if (executionType === 'FOK') {
      if (this.executableQty(a, side, price, qty) < qty) return refuse(apiError('ORDER_FOK_NOT_FILLED'));
    } else if (executionType === 'IOC') {
      if (!this.crossesOpposite(a, side, price)) return refuse(apiError('ORDER_IOC_NOT_FILLED'));
    }

    // accepted
    const id = this.nextOrderId++;
    const o = (this.pool.pop() ?? new OrderState()).init(
      id,
      a.product,
      clientCode,
      c.actor?.brokerId ?? null,
      way,
      price,
      qty,
      executionType,
      validityType,
      validity,
      at,
      this.nextPriority++,
      c.balancingGroupId ?? null,
      initiator,
      isMarket,
      c.powerPerInterval ?? null,
      cas,
    );
    this.resultOrderId = id;
    this.orders.set(id, o);
    if (initiator) {
      a.initiatorOrderId = id;
      a.initiatorPlaced = true;
    }
    if (o.expiresAt !== null) this.expiries.push(o.expiresAt, id);
    this.orderEvent(a, o, 'created', at);
    this.place(a, o, at);
    return null;
  }

  /** A live order, or undefined when unknown, finished or past its expiry (not yet expired by a tick). */
  private liveOrder(orderId: number, at: number): OrderState | undefined {
    const o = this.orders.get(orderId);
    if (o === undefined || (o.expiresAt !== null && o.expiresAt <= at)) return undefined;
    return o;
  }

  private modifyOrder(c: ModifyOrderCommand): Refusal | null {
    const at = c.at;
    const o = this.liveOrder(c.orderId, at);
    if (o === undefined) return refuse(apiError('ORDER_NOT_FOUND', { orderId: c.orderId }));
    const a = o.cas.asset;
    const phase = a.phase;
    if (phase !== 'trading' && phase !== 'opening' && phase !== 'closing') return this.phaseRefusal(phase);
    if (!a.tradingActive) return refuse(apiError('ORDER_TRADING_DEACTIVATED', { assetId: a.assetId }));
    if (a.deltaT !== null) return refuse(apiError('ORDER_DELTA_T_LOCKED', { endsAt: iso(a.deltaT.endsAt) }));
    const client = o.cas.client;
    const agencyRefusal = this.checkAgency(client, c.actor?.agencyId);
    if (agencyRefusal !== null) return agencyRefusal;
    if (o.suspended) return refuse(apiError('ORDER_STATE_INVALID', { orderId: o.id, status: 'suspended' }));

    const newPrice = c.price ?? o.price;
    let newRemaining = o.remaining;
    if (c.qty !== undefined && c.qty !== null) {
      if (!isPositiveInt(c.qty)) return this.quantityInvalid(a);
      newRemaining = c.qty;
    } else if (c.noCnt !== undefined && c.noCnt !== null) {
      if (!isPositiveInt(c.noCnt)) return this.quantityInvalid(a);
      newRemaining = c.noCnt * a.contractQty;
    }
    const newValidityType: ValidityType = c.validityType ?? o.validityType;
    if (!validityTypeSet.has(newValidityType)) return refuse(apiError('ORDER_VALIDITY_TYPE_INVALID', { validityType: String(newValidityType) }));
    let newValidity: number | null = c.validity !== undefined ? c.validity : o.validity;
    if (newValidityType === 'day' || newValidityType === 'GTC') newValidity = null;
    const newExecutionType: ExecutionType = c.executionType ?? o.executionType;
    const priceChanged = newPrice !== o.price;
    const qtyChanged = newRemaining !== o.remaining;
    const attributesChanged = newValidityType !== o.validityType || newValidity !== o.validity || newExecutionType !== o.executionType;
    const side = o.side;
    const worse = side === BID ? newPrice < o.price : newPrice > o.price;

    if (phase === 'closing' && priceChanged) return refuse(apiError('SESSION_CLOSING_NO_PRICE_CHANGE'));
    if (a.noPriceChange && priceChanged) return refuse(apiError('ORDER_PRICE_NOT_CHANGEABLE'));
    if (a.priceMustImprove && worse) return refuse(apiError('ORDER_PRICE_CANNOT_WORSEN', { previous: this.fmtPrice(a, o.price) }));
    if (a.noQuantityDecrease && newRemaining < o.remaining) return refuse(apiError('ORDER_QUANTITY_CANNOT_DECREASE', { previous: this.fmtQty(a, o.remaining) }));
    if (a.noAttributeChange && attributesChanged) return refuse(apiError('ORDER_ATTRIBUTES_NOT_CHANGEABLE'));
    if (a.bgMaxDecreasePercent !== NONE && o.balancingGroupId !== null) {
      if (worse) return refuse(apiError('ORDER_BALANCING_GROUP_ONLY_IMPROVE'));
      if (newRemaining < o.remaining) {
        const cap = Math.floor((o.originalQty * a.bgMaxDecreasePercent) / 100);
        const alreadyDecreased = Math.max(0, o.originalQty - o.tradedQty - o.remaining);
        const decrease = o.originalQty - o.tradedQty - newRemaining;
        if (decrease > cap) return refuse(apiError('ORDER_BALANCING_GROUP_DECREASE_CAP', { maxDecrease: this.fmtQty(a, Math.max(0, cap - alreadyDecreased)) }));
      }
    }
    if (o.initiator && qtyChanged) return refuse(apiError('ORDER_INITIATOR_QUANTITY_LOCKED'));
    if (newExecutionType !== 'normal') return refuse(apiError('REQUEST_INVALID', { field: 'executionType', issue: 'restingOrderIsNormal' }));
    if (a.scInitiator !== null && newValidityType !== 'GTC') return refuse(apiError('ORDER_SIMPLE_COMPETITIVE_GTC_ONLY'));
    if ((newValidityType === 'GTD' || newValidityType === 'GTSV') && attributesChanged) {
      if (newValidity === null || newValidity === undefined) return refuse(apiError('ORDER_VALIDITY_TIMESTAMP_MISSING'));
      if (typeof newValidity !== 'number' || !Number.isFinite(newValidity)) return refuse(apiError('REQUEST_INVALID', { field: 'validity', issue: 'notANumber' }));
      if (newValidity <= at) return refuse(apiError('ORDER_VALIDITY_IN_PAST', { validity: iso(newValidity) }));
    }
    if (qtyChanged) {
      const r = this.checkQuantity(a, newRemaining);
      if (r !== null) return r;
    }
    if (priceChanged) {
      const r = this.checkPrice(a, newPrice);
      if (r !== null) return r;
    }
    const cas = o.cas;
    if (newRemaining > o.remaining) {
      const r = this.checkPositionLimits(a, cas, side, newRemaining - o.remaining);
      if (r !== null) return r;
    }
    if (priceChanged) {
      const r = this.checkCross(a, cas, side, newPrice);
      if (r !== null) return r;
    }
    const newValue = amountOf(a, newPrice, newRemaining);
    const newMargin = marginOf(a.marginBps, newValue);
    const newContracts = contractsOf(a, newRemaining);
    if (newValue > o.reservedValue || newMargin > o.reservedMargin || newContracts > o.reservedContracts) {
      const r = this.checkClearing(
        a,
        client,
        cas.rules,
        Math.max(0, newValue - o.reservedValue),
        Math.max(0, newMargin - o.reservedMargin),
        Math.max(0, newContracts - o.reservedContracts),
      );
      if (r !== null) return r;
    }

    // accepted
    this.resultOrderId = o.id;
    const keepsPriority = !priceChanged && newRemaining <= o.remaining;
    o.lastModifiedAt = at;
    o.status = 'modified';
    if (o.validityType !== newValidityType || o.validity !== newValidity) {
      o.validityType = newValidityType;
      o.validity = newValidity;
      o.expiresAt = newValidityType === 'GTD' || newValidityType === 'GTSV' ? newValidity : null;
      if (o.expiresAt !== null) this.expiries.push(o.expiresAt, o.id);
    }
    if (keepsPriority) {
      const delta = newRemaining - o.remaining;
      if (delta !== 0) {
        const level = o.level!;
        level.qty += delta;
        cas.openQty[side] += delta;
        o.remaining = newRemaining;
        this.reserve(a, o);
        this.orderEvent(a, o, 'modified', at);
        this.levelEvent(a, side, level);
      } else {
        this.orderEvent(a, o, 'modified', at);
      }
      return null;
    }
    // loses time priority: out of the book, back in at the tail (may trade)
    this.removeFromBook(a, o);
    o.price = newPrice;
    o.remaining = newRemaining;
    o.priority = this.nextPriority++;
    this.orderEvent(a, o, 'modified', at);
    this.place(a, o, at);
    return null;
  }

  private cancelOrder(c: OrderRefCommand): Refusal | null {
    const o = this.liveOrder(c.orderId, c.at);
    if (o === undefined) return refuse(apiError('ORDER_NOT_FOUND', { orderId: c.orderId }));
    const a = o.cas.asset;
    const r = this.checkRemoval(a, o, c.actor?.agencyId);
    if (r !== null) return r;
    this.resultOrderId = o.id;
    this.finish(a, o, 'cancelled', c.at, 'user');
    return null;
  }

  private suspendOrder(c: OrderRefCommand): Refusal | null {
    const o = this.liveOrder(c.orderId, c.at);
    if (o === undefined) return refuse(apiError('ORDER_NOT_FOUND', { orderId: c.orderId }));
    const a = o.cas.asset;
    const r = this.checkRemoval(a, o, c.actor?.agencyId);
    if (r !== null) return r;
    if (o.suspended) return refuse(apiError('ORDER_STATE_INVALID', { orderId: o.id, status: 'suspended' }));
    this.resultOrderId = o.id;
    this.removeFromBook(a, o);
    o.suspended = true;
    o.lastModifiedAt = c.at;
    this.orderEvent(a, o, 'suspended', c.at);
    return null;
  }

  private activateOrder(c: OrderRefCommand): Refusal | null {
    const at = c.at;
    const o = this.liveOrder(c.orderId, at);
    if (o === undefined) return refuse(apiError('ORDER_NOT_FOUND', { orderId: c.orderId }));
    const a = o.cas.asset;
    const phase = a.phase;
    if (phase !== 'trading' && phase !== 'opening') return this.phaseRefusal(phase);
    if (!a.tradingActive) return refuse(apiError('ORDER_TRADING_DEACTIVATED', { assetId: a.assetId }));
    if (a.deltaT !== null) return refuse(apiError('ORDER_DELTA_T_LOCKED', { endsAt: iso(a.deltaT.endsAt) }));
    const client = o.cas.client;
    const agencyRefusal = this.checkAgency(client, c.actor?.agencyId);
    if (agencyRefusal !== null) return agencyRefusal;
    if (!o.suspended) return refuse(apiError('ORDER_STATE_INVALID', { orderId: o.id, status: o.status }));
    const participant = this.checkParticipant(a, client, this.clientAsset(a, client).rules, null, o.side);
    if (participant !== null) return participant;
    const priceRefusal = this.checkPrice(a, o.price);
    if (priceRefusal !== null) return priceRefusal;
    const cas = o.cas;
    const positionRefusal = this.checkPositionLimits(a, cas, o.side, o.remaining);
    if (positionRefusal !== null) return positionRefusal;
    const crossRefusal = this.checkCross(a, cas, o.side, o.price);
    if (crossRefusal !== null) return crossRefusal;
    const value = amountOf(a, o.price, o.remaining);
    const clearingRefusal = this.checkClearing(a, client, cas.rules, value, marginOf(a.marginBps, value), contractsOf(a, o.remaining));
    if (clearingRefusal !== null) return clearingRefusal;

    this.resultOrderId = o.id;
    o.suspended = false;
    o.lastModifiedAt = at;
    o.priority = this.nextPriority++;
    this.orderEvent(a, o, 'activated', at);
    this.place(a, o, at);
    return null;
  }

  // =================================================================================================
  // Rule checks (each returns a refusal or null; none mutates state)
  // =================================================================================================

  private phaseRefusal(phase: SessionPhase): Refusal {
    return phase === 'suspended' ? refuse(apiError('SESSION_SUSPENDED')) : refuse(apiError('SESSION_PHASE_FORBIDS', { phase }));
  }

  private checkAgency(client: ClientState, agencyId: string | null | undefined): Refusal | null {
    if (agencyId && client.agencyId !== agencyId) return refuse(apiError('ORDER_AGENCY_CLIENT_FORBIDDEN', { clientCode: client.clientCode }));
    return null;
  }

  /** Client status, agency, rights, ask restriction, owner side, transmission side and gas release. */
  private checkParticipant(a: AssetState, client: ClientState, rules: ResolvedRules, agencyId: string | null | undefined, side: SideIndex): Refusal | null {
    const clientCode = client.clientCode;
    if (!client.active) return refuse(apiError('ORDER_CLIENT_NOT_ACTIVE', { clientCode }));
    if (agencyId && client.agencyId !== agencyId) return refuse(apiError('ORDER_AGENCY_CLIENT_FORBIDDEN', { clientCode }));
    if (!(side === BID ? rules.canBid : rules.canAsk)) return refuse(apiError('ORDER_NO_RIGHT', { clientCode, assetId: a.assetId, way: wayOf(side) }));
    if (side === ASK && client.restrictedAsk) return refuse(apiError('ORDER_CLIENT_RESTRICTED_ASK', { clientCode }));
    if (rules.ownerSide !== NONE && rules.ownerSide !== side) return refuse(apiError('ORDER_SIDE_RESTRICTED', { way: wayOf(side) }));
    if (a.transmissionSide !== NONE) {
      if (side === a.transmissionSide) {
        if (!client.transmissionActive) return refuse(apiError('ORDER_NOT_TRANSMISSION_PARTNER', { clientCode }));
      } else if (client.transmissionPartner) {
        return refuse(apiError('ORDER_TRANSMISSION_SIDE_RESTRICTED', { way: wayOf(side) }));
      }
    }
    if (a.gasRelease && !rules.gasReleaseOk) return refuse(apiError('ORDER_GAS_RELEASE_FORBIDDEN', { clientCode, assetId: a.assetId }));
    return null;
  }

  // Step and bound refusals carry the rule whole (step or bound with its unit or currency): the
  // trader reads what to enter, not only that it was wrong (issue 11).
  private quantityInvalid(a: AssetState): Refusal {
    return refuse(apiError('ORDER_QUANTITY_INVALID', { step: this.fmtQty(a, a.quantityStep), min: this.fmtQty(a, a.minQuantity), max: this.fmtQty(a, a.maxQuantity), unit: a.config.unit ?? '' }));
  }

  private checkQuantity(a: AssetState, qty: number): Refusal | null {
    const unit = a.config.unit ?? '';
    if (qty % a.quantityStep !== 0) return refuse(apiError('ORDER_QUANTITY_STEP', { step: this.fmtQty(a, a.quantityStep), unit }));
    if (qty < a.minQuantity) return refuse(apiError('ORDER_QUANTITY_BELOW_MINIMUM', { min: this.fmtQty(a, a.minQuantity), unit }));
    if (qty > a.maxQuantity) return refuse(apiError('ORDER_QUANTITY_TOO_LARGE', { max: this.fmtQty(a, a.maxQuantity), unit }));
    return null;
  }

  private checkPrice(a: AssetState, price: number): Refusal | null {
    if (typeof price !== 'number' || !Number.isSafeInteger(price)) {
      if (typeof price === 'number' && Number.isFinite(price) && Math.abs(price) >= a.priceDigitsLimit) return refuse(apiError('ORDER_PRICE_TOO_MANY_DIGITS', { maxDigits: 12 }));
      return refuse(apiError('REQUEST_INVALID', { field: 'price', issue: 'notAnInteger' }));
    }
    if (price < 0) return refuse(apiError('ORDER_PRICE_NEGATIVE'));
    if (price === 0) return refuse(apiError('ORDER_PRICE_ZERO'));
    if (price >= a.priceDigitsLimit) return refuse(apiError('ORDER_PRICE_TOO_MANY_DIGITS', { maxDigits: 12 }));
    const currency = a.market.config.currency;
    if (price % a.priceStep !== 0) return refuse(apiError('ORDER_PRICE_STEP', { step: this.fmtPrice(a, a.priceStep), currency }));
    if (price < a.minPrice || price > a.maxPrice) return refuse(apiError('ORDER_PRICE_OUTSIDE_LIMITS', { min: this.fmtPrice(a, a.minPrice), max: this.fmtPrice(a, a.maxPrice), currency }));
    if (a.hasSessionMin && price < a.sessionMinPrice) return refuse(apiError('ORDER_SESSION_MIN_PRICE', { bound: this.fmtPrice(a, a.sessionMinPrice), currency }));
    if (a.hasSessionMax && price > a.sessionMaxPrice) return refuse(apiError('ORDER_SESSION_MAX_PRICE', { bound: this.fmtPrice(a, a.sessionMaxPrice), currency }));
    if (a.hasRegulatorMax && price > a.regulatorMaxPrice) return refuse(apiError('ORDER_REGULATOR_MAX_PRICE', { bound: this.fmtPrice(a, a.regulatorMaxPrice), currency }));
    return null;
  }

  /** Imbalance (one way within a quantity) and tradeable quantity, for `addQty` more open on `side`. */
  private checkPositionLimits(a: AssetState, cas: ClientAssetState, side: SideIndex, addQty: number): Refusal | null {
    const rules = cas.rules;
    if (rules.imbalanceSide !== NONE) {
      if (side !== rules.imbalanceSide) {
        const quantity = this.fmtQty(a, rules.imbalanceQty);
        return rules.imbalanceSide === BID ? refuse(apiError('ORDER_IMBALANCE_BID_ONLY', { quantity })) : refuse(apiError('ORDER_IMBALANCE_ASK_ONLY', { quantity }));
      }
      if (cas.openQty[side] + addQty > rules.imbalanceQty) return refuse(apiError('ORDER_IMBALANCE_QUANTITY_LIMIT', { limit: this.fmtQty(a, rules.imbalanceQty) }));
    }
    const limit = side === BID ? rules.tradeableBid : rules.tradeableAsk;
    if (limit !== NONE) {
      const used = cas.openQty[side] + cas.tradedQty[side] + addQty;
      if (used > limit) return refuse(apiError('ORDER_TRADEABLE_QUANTITY_INSUFFICIENT', { excess: this.fmtQty(a, used - limit), limit: this.fmtQty(a, limit) }));
    }
    return null;
  }

  /** Cross orders: the client's own resting orders on the other side must not meet `price`. */
  private checkCross(a: AssetState, cas: ClientAssetState, side: SideIndex, price: number): Refusal | null {
    const other = side === BID ? ASK : BID;
    if (cas.openCount[other] === 0) return null;
    if (a.oneSidePerClient) return refuse(apiError('ORDER_CROSS_BID', { orderId: cas.heads[other]!.id }));
    for (let o = cas.heads[other]; o !== null; o = o.cNext) {
      if (side === BID ? o.price <= price : o.price >= price) return refuse(apiError('ORDER_CROSS', { orderId: o.id }));
    }
    return null;
  }

  /** During delta T: no immediate orders; a competing (crossing) order improves its side by the delta-T step. */
  private checkDeltaT(a: AssetState, side: SideIndex, price: number, executionType: ExecutionType): Refusal | null {
    const d = a.deltaT;
    if (d === null) return null;
    if (executionType !== 'normal') return refuse(apiError('ORDER_DELTA_T_LOCKED', { endsAt: iso(d.endsAt) }));
    if (!this.crossesOpposite(a, side, price)) return null;
    const own = a.book.sides[side].best();
    if (own !== undefined) {
      const step = a.deltaTPriceStep;
      const improves = side === BID ? price >= own.price + step : price <= own.price - step;
      if (!improves) return refuse(apiError('ORDER_DELTA_T_PRICE_STEP', { step: this.fmtPrice(a, step), currency: a.market.config.currency }));
    }
    return null;
  }

  /** Pre-trade clearing for an additional open value / margin / contract count. */
  private checkClearing(a: AssetState, client: ClientState, rules: ResolvedRules, value: number, margin: number, contracts: number): Refusal | null {
    const clientCode = client.clientCode;
    if (!client.clearingActive) return refuse(apiError('CLEARING_CLIENT_NOT_ACTIVE', { clientCode }));
    if (!rules.clearingAllowed) return refuse(apiError('CLEARING_CLIENT_NOT_ALLOWED', { clientCode, assetId: a.assetId }));
    if (client.maxContracts !== NONE && client.openContracts + contracts > client.maxContracts) return refuse(apiError('CLEARING_MAX_CONTRACTS', { max: client.maxContracts }));
    if (client.tradingLimit !== NONE) {
      const exposure = client.openValue + client.tradedValue + value;
      if (exposure > client.tradingLimit) return refuse(apiError('CLEARING_FINANCIAL_LIMIT', { limit: formatDecimal(client.tradingLimit, AMOUNT_DECIMALS), exposure: formatDecimal(exposure, AMOUNT_DECIMALS) }));
    }
    if (client.funds !== NONE && margin > 0) {
      const free = client.funds - client.reservedMargin - client.tradesMargin;
      if (margin > free) return refuse(apiError('ORDER_INSUFFICIENT_FUNDS', { amountToDeposit: formatDecimal(margin - Math.max(0, free), AMOUNT_DECIMALS), currency: a.market.config.currency }));
    }
    return null;
  }

  /** Cancel / suspend: phase, delta T, agency and the per-asset cancel restrictions. */
  private checkRemoval(a: AssetState, o: OrderState, agencyId: string | null | undefined): Refusal | null {
    const phase = a.phase;
    if (phase !== 'trading' && phase !== 'opening' && phase !== 'closing') return this.phaseRefusal(phase);
    if (a.deltaT !== null) return refuse(apiError('ORDER_DELTA_T_LOCKED', { endsAt: iso(a.deltaT.endsAt) }));
    const agencyRefusal = this.checkAgency(o.cas.client, agencyId);
    if (agencyRefusal !== null) return agencyRefusal;
    if (a.noCancel) return refuse(apiError('ORDER_NOT_CANCELLABLE'));
    if (a.bgMaxDecreasePercent !== NONE && o.balancingGroupId !== null) return refuse(apiError('ORDER_BALANCING_GROUP_NO_CANCEL'));
    return null;
  }

  private crossesOpposite(a: AssetState, side: SideIndex, price: number): boolean {
    const best = a.book.sides[side === BID ? ASK : BID].best();
    if (best === undefined) return false;
    return side === BID ? best.price <= price : best.price >= price;
  }

  /** Price of the farthest opposite level `qty` would reach (the best level when the side is short). */
  private reachPrice(a: AssetState, side: SideIndex, qty: number): number {
    const levels = a.book.sides[side === BID ? ASK : BID].levels;
    let total = 0;
    let price = 0;
    for (let i = levels.length - 1; i >= 0 && total < qty; i--) {
      price = levels[i]!.price;
      total += levels[i]!.qty;
    }
    return price;
  }

  /** Opposite quantity at prices `price` accepts, counted up to `want`. */
  private executableQty(a: AssetState, side: SideIndex, price: number, want: number): number {
    const levels = a.book.sides[side === BID ? ASK : BID].levels;
    let total = 0;
    for (let i = levels.length - 1; i >= 0 && total < want; i--) {
      const level = levels[i]!;
      if (side === BID ? level.price > price : level.price < price) break;
      total += level.qty;
    }
    return total;
  }

  // =================================================================================================
  // Book mutations
  // =================================================================================================

  /** Puts an accepted (or re-prioritised) order to work: match, start delta T, rest, or cancel an IOC rest. */
  private place(a: AssetState, o: OrderState, at: number): void {
    if (a.phase === 'trading' && this.crossesOpposite(a, o.side, o.price)) {
      if (a.hasDeltaT && o.executionType === 'normal') {
        this.rest(a, o);
        this.startDeltaT(a, o.side, at);
        return;
      }
      this.matchIncoming(a, o, at);
      if (o.tradedQty > 0) this.orderEvent(a, o, o.remaining === 0 ? 'traded' : 'tradedPartially', at);
    }
    if (o.remaining === 0) {
      this.retire(a, o);
    } else if (o.executionType === 'normal') {
      this.rest(a, o);
    } else {
      o.status = 'cancelled';
      this.retire(a, o);
      this.orderEvent(a, o, 'cancelled', at, 'ioc');
    }
  }

  private rest(a: AssetState, o: OrderState): void {
    const level = a.book.sides[o.side].append(o);
    clientLink(o);
    o.resting = true;
    this.reserve(a, o);
    this.levelEvent(a, o.side, level);
  }

  /** Takes a resting order out of its level and releases its reservations (it stays live). */
  private removeFromBook(a: AssetState, o: OrderState): void {
    if (!o.resting) return;
    const level = a.book.sides[o.side].unlink(o);
    clientUnlink(o);
    o.resting = false;
    this.release(o);
    this.levelEvent(a, o.side, level);
  }

  /** Ends an order's life: cancelled (user, IOC rest) or expired. */
  private finish(a: AssetState, o: OrderState, kind: 'cancelled' | 'expired', at: number, reason: CancelReason): void {
    this.removeFromBook(a, o);
    o.status = 'cancelled';
    o.lastModifiedAt = at;
    this.retire(a, o);
    this.orderEvent(a, o, kind, at, reason);
  }

  /** Drops a finished order from the live map; its object goes back to the pool. */
  private retire(a: AssetState, o: OrderState): void {
    o.live = false;
    o.suspended = false;
    this.orders.delete(o.id);
    if (a.initiatorOrderId === o.id) a.initiatorOrderId = null;
    if (this.pool.length < 1_000_000) this.pool.push(o);
  }

  private reserve(a: AssetState, o: OrderState): void {
    const client = o.cas.client;
    let value: number;
    let margin: number;
    if (o.remaining === this.hintQty && o.tradedQty === 0 && o.status === 'created') {
      value = this.hintValue;
      margin = this.hintMargin;
    } else {
      value = amountOf(a, o.price, o.remaining);
      margin = marginOf(a.marginBps, value);
    }
    this.hintQty = -1;
    const contracts = contractsOf(a, o.remaining);
    client.openValue += value - o.reservedValue;
    client.reservedMargin += margin - o.reservedMargin;
    client.openContracts += contracts - o.reservedContracts;
    o.reservedValue = value;
    o.reservedMargin = margin;
    o.reservedContracts = contracts;
  }

  private release(o: OrderState): void {
    const client = o.cas.client;
    client.openValue -= o.reservedValue;
    client.reservedMargin -= o.reservedMargin;
    client.openContracts -= o.reservedContracts;
    o.reservedValue = 0;
    o.reservedMargin = 0;
    o.reservedContracts = 0;
  }

  /** Continuous matching of an incoming order against the opposite side, at the resting prices. */
  private matchIncoming(a: AssetState, taker: OrderState, at: number): void {
    const oppSide: SideIndex = taker.side === BID ? ASK : BID;
    const opp = a.book.sides[oppSide];
    const isBid = taker.side === BID;
    const limit = taker.price;
    while (taker.remaining > 0) {
      const level = opp.best();
      if (level === undefined) break;
      const price = level.price;
      if (isBid ? price > limit : price < limit) break;
      let maker = level.head;
      while (maker !== null && taker.remaining > 0) {
        const next = maker.next;
        const q = maker.remaining < taker.remaining ? maker.remaining : taker.remaining;
        taker.remaining -= q;
        taker.tradedQty += q;
        taker.tradedValue += q * price;
        if (isBid) this.trade(a, taker, maker, q, price, 'bid', at);
        else this.trade(a, maker, taker, q, price, 'ask', at);
        this.fillResting(a, maker, q, price, at);
        maker = next;
      }
      this.levelEvent(a, oppSide, level);
    }
    taker.status = taker.remaining === 0 ? 'traded' : 'tradedPartially';
    taker.lastModifiedAt = at;
  }

  /** A resting order gives `q` at `price`. */
  private fillResting(a: AssetState, o: OrderState, q: number, price: number, at: number): void {
    const level = o.level!;
    o.remaining -= q;
    level.qty -= q;
    o.cas.openQty[o.side] -= q;
    o.tradedQty += q;
    o.tradedValue += q * price;
    o.lastModifiedAt = at;
    if (o.remaining === 0) {
      o.status = 'traded';
      a.book.sides[o.side].unlink(o);
      clientUnlink(o);
      o.resting = false;
      this.release(o);
      this.retire(a, o);
      this.orderEvent(a, o, 'traded', at);
    } else {
      o.status = 'tradedPartially';
      this.reserve(a, o);
      this.orderEvent(a, o, 'tradedPartially', at);
    }
  }

  private trade(a: AssetState, buy: OrderState, sell: OrderState, q: number, price: number, aggressor: Way, at: number): void {
    this.emit({ type: 'trade', transaction: buildTransactionView(this.nextTransactionId++, a.product, buy, sell, aggressor, q, price, at) });
    const s = a.stats;
    if (s.minPrice === null || price < s.minPrice) s.minPrice = price;
    if (s.maxPrice === null || price > s.maxPrice) s.maxPrice = price;
    s.lastPrice = price;
    s.volume += q;
    s.transactions++;
    if (!a.statsDirty) {
      a.statsDirty = true;
      this.dirtyAssets.push(a);
    }
    const bc = buy.cas;
    const sc = sell.cas;
    bc.tradedQty[BID] += q;
    bc.tradedTotalQty += q;
    bc.tradedValue += q * price;
    sc.tradedQty[ASK] += q;
    sc.tradedTotalQty += q;
    sc.tradedValue += q * price;
    const value = amountOf(a, price, q);
    const margin = marginOf(a.marginBps, value);
    bc.tradedAmount += value;
    bc.tradesMargin += margin;
    bc.client.tradedValue += value;
    bc.client.tradesMargin += margin;
    sc.tradedAmount += value;
    sc.tradesMargin += margin;
    sc.client.tradedValue += value;
    sc.client.tradesMargin += margin;
  }

  private startDeltaT(a: AssetState, side: SideIndex, at: number): void {
    const endsAt = at + a.deltaTDurationMs;
    if (a.deltaT === null) a.deltaT = { endsAt, side, startedAt: at };
    else a.deltaT.endsAt = endsAt;
    this.deltaTAssets.add(a);
    const opposite = a.book.sides[side === BID ? ASK : BID].best();
    this.emit({ type: 'deltaT', kind: 'start', assetId: a.assetId, endsAt, price: opposite ? opposite.price : 0, at });
  }

  private endDeltaT(a: AssetState, at: number): void {
    const d = a.deltaT;
    if (d === null) return;
    a.deltaT = null;
    this.deltaTAssets.delete(a);
    const price = this.uncross(a, 'deltaT', d.side, at);
    this.emit({ type: 'deltaT', kind: 'end', assetId: a.assetId, endsAt: d.endsAt, price, at });
  }

  /**
   * Executes a crossed book at one price (opening auction, end of delta T): the bids and asks that
   * price-time priority matches until the book no longer crosses, all at the uncross price. Returns
   * the price (0 when nothing crossed).
   */
  private uncross(a: AssetState, mode: 'auction' | 'deltaT', competingSide: SideIndex, at: number): number {
    const bids = a.book.sides[BID].levels;
    const asks = a.book.sides[ASK].levels;
    // 1. simulate on level aggregates: volume and the marginal bid / ask prices
    let bi = bids.length - 1;
    let ai = asks.length - 1;
    if (bi < 0 || ai < 0 || bids[bi]!.price < asks[ai]!.price) return 0;
    let bq = bids[bi]!.qty;
    let aq = asks[ai]!.qty;
    let volume = 0;
    let lastBid = 0;
    let lastAsk = 0;
    while (bi >= 0 && ai >= 0 && bids[bi]!.price >= asks[ai]!.price) {
      const q = bq < aq ? bq : aq;
      volume += q;
      lastBid = bids[bi]!.price;
      lastAsk = asks[ai]!.price;
      bq -= q;
      aq -= q;
      if (bq === 0 && --bi >= 0) bq = bids[bi]!.qty;
      if (aq === 0 && --ai >= 0) aq = asks[ai]!.qty;
    }
    // 2. the price
    let price: number;
    if (mode === 'deltaT') {
      price = competingSide === BID ? lastBid : lastAsk;
    } else {
      const ref = a.stats.lastPrice ?? a.settlementPrice;
      if (ref !== null) price = ref < lastAsk ? lastAsk : ref > lastBid ? lastBid : ref;
      else price = lastAsk + Math.floor((lastBid - lastAsk) / 2 / a.priceStep) * a.priceStep;
    }
    // 3. execute in price-time priority
    const bidSide = a.book.sides[BID];
    const askSide = a.book.sides[ASK];
    for (;;) {
      const bl = bidSide.best();
      const al = askSide.best();
      if (bl === undefined || al === undefined || bl.price < al.price) break;
      const b = bl.head!;
      const s = al.head!;
      const q = b.remaining < s.remaining ? b.remaining : s.remaining;
      this.trade(a, b, s, q, price, b.priority > s.priority ? 'bid' : 'ask', at);
      this.fillResting(a, b, q, price, at);
      this.fillResting(a, s, q, price, at);
      this.levelEvent(a, BID, bl);
      this.levelEvent(a, ASK, al);
    }
    // 4. statistics of the uncross: executed volume and what is left at the price
    let bidLeft = 0;
    for (let i = bids.length - 1; i >= 0 && bids[i]!.price >= price; i--) bidLeft += bids[i]!.qty;
    let askLeft = 0;
    for (let i = asks.length - 1; i >= 0 && asks[i]!.price <= price; i--) askLeft += asks[i]!.qty;
    a.stats.tradeableQty = volume;
    a.stats.surplusQty = bidLeft - askLeft;
    if (!a.statsDirty) {
      a.statsDirty = true;
      this.dirtyAssets.push(a);
    }
    return price;
  }

  // =================================================================================================
  // Sessions, time and configuration
  // =================================================================================================

  private setPhase(c: SetPhaseCommand): Refusal | null {
    const m = this.markets.get(c.marketId);
    if (m === undefined) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'unknown' }));
    if (!phaseSet.has(c.phase)) return refuse(apiError('REQUEST_INVALID', { field: 'phase', issue: 'invalid' }));
    if (c.assetId) {
      const a = this.assets.get(c.assetId);
      if (a === undefined || a.market !== m) return refuse(apiError('ORDER_ASSET_ID_INVALID', { assetId: c.assetId }));
      this.applyAssetPhase(a, c.phase, c.sessionDate, c.at);
      return null;
    }
    this.applyMarketPhase(m, c.phase, c.sessionDate, c.at);
    return null;
  }

  private applyMarketPhase(m: MarketState, phase: SessionPhase, sessionDate: string | undefined, at: number): void {
    const previous = m.phase;
    if (phase === 'suspended' && previous !== 'suspended') m.phaseBeforeSuspend = previous;
    m.phase = phase;
    if (sessionDate) m.sessionDate = sessionDate;
    this.emit({ type: 'phase', marketId: m.config.marketId, assetId: null, phase, previous, sessionDate: m.sessionDate, at });
    for (const a of m.assets) this.applyAssetPhase(a, phase, sessionDate, at);
  }

  private applyAssetPhase(a: AssetState, phase: SessionPhase, sessionDate: string | undefined, at: number): void {
    const previous = a.phase;
    if (sessionDate && sessionDate !== a.sessionDate) this.newSession(a, sessionDate);
    if (previous === phase) return;
    if (phase === 'suspended') a.phaseBeforeSuspend = previous;
    // leaving trading with a delta T running: its match executes now
    if (a.deltaT !== null && (phase === 'closing' || phase === 'closed')) {
      a.phase = 'trading';
      this.endDeltaT(a, at);
    }
    a.phase = phase;
    this.emit({ type: 'phase', marketId: a.marketId, assetId: a.assetId, phase, previous, sessionDate: a.sessionDate, at });
    if (phase === 'closed') {
      // end of session: day orders expire, the closing price is the session's last price
      const expiring: OrderState[] = [];
      for (const o of this.orders.values()) if (o.assetId === a.assetId && o.validityType === 'day') expiring.push(o);
      for (const o of expiring) this.finish(a, o, 'expired', at, 'expired');
      a.stats.closingPrice = a.stats.lastPrice;
      if (!a.statsDirty) {
        a.statsDirty = true;
        this.dirtyAssets.push(a);
      }
    } else if (phase === 'trading' && a.deltaT === null && a.book.crossed()) {
      // opening auction
      this.uncross(a, 'auction', BID, at);
    }
  }

  private newSession(a: AssetState, sessionDate: string): void {
    a.sessionDate = sessionDate;
    a.refreshProduct();
    a.stats = emptyStats();
    a.initiatorPlaced = a.initiatorOrderId !== null;
    for (const cas of a.clients.values()) {
      cas.tradedQty[BID] = 0;
      cas.tradedQty[ASK] = 0;
      cas.tradedValue = 0;
      cas.tradedTotalQty = 0;
      // the traded exposure and trade margins of a session leave with it (clearing settles them)
      cas.client.tradedValue -= cas.tradedAmount;
      cas.client.tradesMargin -= cas.tradesMargin;
      cas.tradedAmount = 0;
      cas.tradesMargin = 0;
    }
    a.statsDirty = false;
  }

  private operatorSession(c: OperatorSessionCommand): Refusal | null {
    const m = this.markets.get(c.marketId);
    if (m === undefined) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'unknown' }));
    let targets: AssetState[];
    if (c.assetId) {
      const a = this.assets.get(c.assetId);
      if (a === undefined || a.market !== m) return refuse(apiError('ORDER_ASSET_ID_INVALID', { assetId: c.assetId }));
      targets = [a];
    } else targets = m.assets;
    if (c.type === 'operatorSuspend') {
      if (c.assetId) {
        if (targets[0]!.phase === 'suspended') return refuse(apiError('SESSION_SUSPENDED'));
        this.applyAssetPhase(targets[0]!, 'suspended', undefined, c.at);
      } else {
        if (m.phase === 'suspended') return refuse(apiError('SESSION_SUSPENDED'));
        this.applyMarketPhase(m, 'suspended', undefined, c.at);
      }
      return null;
    }
    // resume
    if (c.assetId) {
      const a = targets[0]!;
      if (a.phase !== 'suspended') return refuse(apiError('SESSION_PHASE_FORBIDS', { phase: a.phase }));
      this.applyAssetPhase(a, a.phaseBeforeSuspend ?? 'trading', undefined, c.at);
      return null;
    }
    if (m.phase !== 'suspended') return refuse(apiError('SESSION_PHASE_FORBIDS', { phase: m.phase }));
    const back = m.phaseBeforeSuspend ?? 'trading';
    const previous = m.phase;
    m.phase = back;
    this.emit({ type: 'phase', marketId: m.config.marketId, assetId: null, phase: back, previous, sessionDate: m.sessionDate, at: c.at });
    for (const a of m.assets) if (a.phase === 'suspended') this.applyAssetPhase(a, a.phaseBeforeSuspend ?? back, undefined, c.at);
    return null;
  }

  /** Time passes: expiries, ends of delta T and scheduled phases that are due, oldest first. */
  private tick(now: number): Refusal | null {
    for (;;) {
      let kind = 0;
      let when = Infinity;
      const t = this.expiries.peekTime();
      if (t !== undefined && t <= now) {
        kind = 1;
        when = t;
      }
      let dueAsset: AssetState | null = null;
      for (const a of this.deltaTAssets) {
        const d = a.deltaT!;
        if (a.phase === 'trading' && d.endsAt <= now && d.endsAt < when) {
          when = d.endsAt;
          dueAsset = a;
          kind = 2;
        }
      }
      let dueMarket: MarketState | null = null;
      for (const m of this.markets.values()) {
        const entry = m.schedule[m.scheduleIndex];
        if (entry !== undefined && entry.at <= now && entry.at < when) {
          when = entry.at;
          dueMarket = m;
          kind = 3;
        }
      }
      if (kind === 0) break;
      if (kind === 1) {
        const id = this.expiries.peekId()!;
        this.expiries.pop();
        const o = this.orders.get(id);
        if (o !== undefined && o.expiresAt === t) this.finish(o.cas.asset, o, 'expired', t, 'expired');
      } else if (kind === 2) {
        this.endDeltaT(dueAsset!, dueAsset!.deltaT!.endsAt);
      } else {
        const m = dueMarket!;
        const entry = m.schedule[m.scheduleIndex++]!;
        this.applyMarketPhase(m, entry.phase, entry.sessionDate, entry.at);
      }
    }
    return null;
  }

  private upsertMarket(config: { marketId: string; currency: string; schedule?: Array<{ at: number; phase: SessionPhase; sessionDate?: string }> }, at: number): Refusal | null {
    if (!config || !config.marketId) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'missing' }));
    let m = this.markets.get(config.marketId);
    if (m === undefined) {
      m = new MarketState(config);
      this.markets.set(config.marketId, m);
    }
    m.config = config;
    m.schedule = [...(config.schedule ?? [])].sort((x, y) => x.at - y.at);
    let i = 0;
    while (i < m.schedule.length && m.schedule[i]!.at <= at) i++;
    m.scheduleIndex = i;
    this.epoch++;
    this.emit({ type: 'config', kind: 'market', id: config.marketId, at });
    return null;
  }

  private upsertAsset(config: Parameters<AssetState['apply']>[0], at: number): Refusal | null {
    if (!config || !config.assetId) return refuse(apiError('REQUEST_INVALID', { field: 'assetId', issue: 'missing' }));
    const m = this.markets.get(config.marketId);
    if (m === undefined) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'unknown' }));
    for (const [field, v] of [
      ['priceStep', config.priceStep],
      ['quantityStep', config.quantityStep],
      ['minQuantity', config.minQuantity],
      ['maxQuantity', config.maxQuantity],
    ] as const) {
      if (!isPositiveInt(v)) return refuse(apiError('REQUEST_INVALID', { field, issue: 'notAPositiveInteger' }));
    }
    if (config.contractQty !== undefined && !isPositiveInt(config.contractQty)) return refuse(apiError('REQUEST_INVALID', { field: 'contractQty', issue: 'notAPositiveInteger' }));
    let a = this.assets.get(config.assetId);
    if (a === undefined) {
      a = new AssetState(config.assetId);
      this.assets.set(config.assetId, a);
      a.phase = m.phase;
      a.sessionDate = m.sessionDate;
      m.assets.push(a);
    } else if (a.market !== m) {
      if (a.book.sides[BID].levels.length > 0 || a.book.sides[ASK].levels.length > 0) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'assetHasOrders' }));
      const old = a.market.assets;
      old.splice(old.indexOf(a), 1);
      m.assets.push(a);
    }
    a.apply(config, m);
    this.epoch++;
    this.emit({ type: 'config', kind: 'asset', id: config.assetId, at });
    return null;
  }

  private upsertClient(config: Parameters<ClientState['apply']>[0], at: number): Refusal | null {
    if (!config || !config.clientCode) return refuse(apiError('REQUEST_INVALID', { field: 'clientCode', issue: 'missing' }));
    let c = this.clients.get(config.clientCode);
    if (c === undefined) {
      c = new ClientState(config.clientCode);
      this.clients.set(config.clientCode, c);
    }
    c.apply(config);
    this.epoch++;
    this.emit({ type: 'config', kind: 'client', id: config.clientCode, at });
    return null;
  }

  private setSettlementPrice(assetId: string, price: number | null, at: number): Refusal | null {
    const a = this.assets.get(assetId);
    if (a === undefined) return refuse(apiError('ORDER_ASSET_ID_INVALID', { assetId }));
    if (price !== null && !Number.isSafeInteger(price)) return refuse(apiError('REQUEST_INVALID', { field: 'price', issue: 'notAnInteger' }));
    a.settlementPrice = price;
    this.emit({ type: 'config', kind: 'settlementPrice', id: assetId, at });
    if (!a.statsDirty) {
      a.statsDirty = true;
      this.dirtyAssets.push(a);
    }
    return null;
  }

  // =================================================================================================
  // Helpers
  // =================================================================================================

  private clientAsset(a: AssetState, client: ClientState): ClientAssetState {
    let cas = client.lastAsset === a ? client.lastCas : a.clients.get(client.clientCode);
    if (cas === undefined || cas === null) {
      cas = new ClientAssetState(client, a, new ResolvedRules());
      a.clients.set(client.clientCode, cas);
    }
    client.lastAsset = a;
    client.lastCas = cas;
    if (cas.rules.epoch !== this.epoch) resolveRules(cas.rules, client, a, this.epoch);
    return cas;
  }

  private fmtPrice(a: AssetState, p: number): string {
    return formatDecimal(p, a.priceDecimals);
  }
  private fmtQty(a: AssetState, q: number): string {
    return formatDecimal(q, a.quantityDecimals);
  }

  private orderEvent(a: AssetState, o: OrderState, kind: OrderEventKind, at: number, reason?: CancelReason): void {
    o.lastModifiedAt = at;
    const order = buildOrderView(o, null);
    this.emit(reason === undefined ? { type: 'order', kind, order, at } : { type: 'order', kind, order, at, reason });
  }

  private emit(event: EngineEvent): void {
    this.events.push(event);
  }

  /** The command's events (the array itself: no copy). */
  private takeEvents(): EngineEvent[] {
    const events = this.events;
    this.events = NO_EVENTS;
    return events;
  }

  private levelEvent(a: AssetState, side: number, level: Level): void {
    this.emit({ type: 'level', assetId: a.assetId, way: side === BID ? 'bid' : 'ask', price: level.price, qty: level.qty, orders: level.count });
  }

  private flushStats(): void {
    const dirty = this.dirtyAssets;
    for (let i = 0; i < dirty.length; i++) {
      const a = dirty[i]!;
      a.statsDirty = false;
      this.emit({ type: 'stats', stats: this.statsOf(a) });
    }
    while (dirty.length > 0) dirty.pop();
  }

  private statsOf(a: AssetState): SessionStats {
    const s = a.stats;
    return {
      assetId: a.assetId,
      sessionDate: a.sessionDate,
      minPrice: s.minPrice,
      maxPrice: s.maxPrice,
      lastPrice: s.lastPrice,
      volume: s.volume,
      transactions: s.transactions,
      closingPrice: s.closingPrice,
      tradeableQty: s.tradeableQty,
      surplusQty: s.surplusQty,
      settlementPrice: a.settlementPrice,
    };
  }

  // =================================================================================================
  // Queries (read-only; for the HTTP layer, the gateway and tests)
  // =================================================================================================

  /** Last command time seen. */
  get clock(): number {
    return this.now;
  }
  get executedCommands(): number {
    return this.commandCount;
  }

  /**
   * A live order. Its queue `position` costs a walk to the head of its level; callers that only need
   * the order's data (ownership checks) pass `{ position: false }` and get `position: null`.
   */
  getOrder(orderId: number, options?: { position?: boolean }): OrderView | undefined {
    const o = this.orders.get(orderId);
    if (o === undefined) return undefined;
    return options?.position === false ? buildOrderView(o, null) : this.viewWithPosition(o);
  }

  private viewWithPosition(o: OrderState): OrderView {
    let position: number | null = null;
    if (o.resting) {
      position = 1;
      for (let p = o.prev; p !== null; p = p.prev) position++;
    }
    return buildOrderView(o, position);
  }

  /** Live orders (resting or suspended), in id order, optionally of one client and/or asset. */
  listOrders(filter: { clientCode?: string; assetId?: string } = {}): OrderView[] {
    const out: OrderView[] = [];
    for (const o of this.orders.values()) {
      if (filter.clientCode !== undefined && o.clientCode !== filter.clientCode) continue;
      if (filter.assetId !== undefined && o.assetId !== filter.assetId) continue;
      out.push(this.viewWithPosition(o));
    }
    return out.sort((x, y) => x.orderId - y.orderId);
  }

  /** Aggregated depth, best first. */
  getBook(assetId: string, depth = Infinity): BookView | undefined {
    const a = this.assets.get(assetId);
    if (a === undefined) return undefined;
    const side = (s: SideIndex) => {
      const levels = a.book.sides[s].levels;
      const out = [];
      for (let i = levels.length - 1; i >= 0 && out.length < depth; i--) out.push({ price: levels[i]!.price, qty: levels[i]!.qty, orders: levels[i]!.count });
      return out;
    };
    return { assetId, bids: side(BID), asks: side(ASK) };
  }

  /** Resting order ids of one level side in FIFO order, best level first. */
  getQueue(assetId: string, way: Way): Array<{ price: number; orderIds: number[] }> {
    const a = this.assets.get(assetId);
    if (a === undefined) return [];
    const levels = a.book.sides[way === 'bid' ? BID : ASK].levels;
    const out = [];
    for (let i = levels.length - 1; i >= 0; i--) {
      const ids: number[] = [];
      for (let o = levels[i]!.head; o !== null; o = o.next) ids.push(o.id);
      out.push({ price: levels[i]!.price, orderIds: ids });
    }
    return out;
  }

  getStats(assetId: string): SessionStats | undefined {
    const a = this.assets.get(assetId);
    return a === undefined ? undefined : this.statsOf(a);
  }

  /** Client traded quantity and weighted average price on an asset this session. */
  getClientStats(assetId: string, clientCode: string): ClientTradeStats | undefined {
    const a = this.assets.get(assetId);
    if (a === undefined) return undefined;
    const cas = a.clients.get(clientCode);
    const qty = cas?.tradedTotalQty ?? 0;
    return { clientCode, tradedQty: qty, averagePrice: qty === 0 ? null : Math.round(cas!.tradedValue / qty) };
  }

  getPhase(assetId: string): SessionPhase | undefined {
    return this.assets.get(assetId)?.phase;
  }
  getMarketPhase(marketId: string): { phase: SessionPhase; sessionDate: string } | undefined {
    const m = this.markets.get(marketId);
    return m === undefined ? undefined : { phase: m.phase, sessionDate: m.sessionDate };
  }
  getDeltaT(assetId: string): { endsAt: number; way: Way } | null {
    const d = this.assets.get(assetId)?.deltaT;
    return d ? { endsAt: d.endsAt, way: wayOf(d.side) } : null;
  }

  /** Funds and exposure of a client, in amount units. */
  getClientFinancials(clientCode: string):
    | { reservedMargin: number; tradesMargin: number; openValue: number; tradedValue: number; openContracts: number; funds: number | null; tradingLimit: number | null }
    | undefined {
    const c = this.clients.get(clientCode);
    if (c === undefined) return undefined;
    return {
      reservedMargin: c.reservedMargin,
      tradesMargin: c.tradesMargin,
      openValue: c.openValue,
      tradedValue: c.tradedValue,
      openContracts: c.openContracts,
      funds: c.funds === NONE ? null : c.funds,
      tradingLimit: c.tradingLimit === NONE ? null : c.tradingLimit,
    };
  }

  /** Opening-auction preview: the volume that would execute now and its surplus (no state change). */
  indicativeUncross(assetId: string): { volume: number; bidPrice: number; askPrice: number } | undefined {
    const a = this.assets.get(assetId);
    if (a === undefined) return undefined;
    const bids = a.book.sides[BID].levels;
    const asks = a.book.sides[ASK].levels;
    let bi = bids.length - 1;
    let ai = asks.length - 1;
    let bq = bi >= 0 ? bids[bi]!.qty : 0;
    let aq = ai >= 0 ? asks[ai]!.qty : 0;
    let volume = 0;
    let bidPrice = 0;
    let askPrice = 0;
    while (bi >= 0 && ai >= 0 && bids[bi]!.price >= asks[ai]!.price) {
      const q = bq < aq ? bq : aq;
      volume += q;
      bidPrice = bids[bi]!.price;
      askPrice = asks[ai]!.price;
      bq -= q;
      aq -= q;
      if (bq === 0 && --bi >= 0) bq = bids[bi]!.qty;
      if (aq === 0 && --ai >= 0) aq = asks[ai]!.qty;
    }
    return { volume, bidPrice, askPrice };
  }

  /** Deterministic sha256 of every book, order and aggregate (see hash.ts). */
  stateHash(): string {
    return computeStateHash(this.internals());
  }

  /** Consistency problems of the books and aggregates; empty when all is well (see validate.ts). */
  validateInternalState(): string[] {
    return validateInternalState(this);
  }

  /** The whole state as plain JSON data (see snapshot.ts); the engine may go on while it is written. */
  exportState(): EngineSnapshot {
    return exportEngineState(this.snapshotAccess());
  }

  /** Loads a snapshot into this engine, which must be new (nothing executed). */
  importState(snapshot: EngineSnapshot): void {
    if (this.commandCount !== 0) throw new Error('importState() needs a new engine');
    importEngineState(this.snapshotAccess(), snapshot);
  }

  /** A new engine in the state of `snapshot`: same stateHash(), same behaviour for every further command. */
  static fromSnapshot(snapshot: EngineSnapshot): Engine {
    const engine = new Engine();
    engine.importState(snapshot);
    return engine;
  }

  private snapshotAccess(): SnapshotAccess {
    return {
      markets: this.markets,
      assets: this.assets,
      clients: this.clients,
      orders: this.orders,
      expiries: this.expiries,
      deltaTAssets: this.deltaTAssets,
      getCounters: () => ({ nextOrderId: this.nextOrderId, nextTransactionId: this.nextTransactionId, nextPriority: this.nextPriority, epoch: this.epoch, now: this.now, commandCount: this.commandCount }),
      setCounters: (c) => {
        this.nextOrderId = c.nextOrderId;
        this.nextTransactionId = c.nextTransactionId;
        this.nextPriority = c.nextPriority;
        this.epoch = c.epoch;
        this.now = c.now;
        this.commandCount = c.commandCount;
      },
    };
  }

  /** Internal state for validateInternalState() and stateHash() (read-only by convention). */
  internals(): EngineInternals {
    return {
      markets: this.markets,
      assets: this.assets,
      clients: this.clients,
      orders: this.orders,
      counters: { nextOrderId: this.nextOrderId, nextTransactionId: this.nextTransactionId, nextPriority: this.nextPriority, now: this.now },
      deltaTAssets: this.deltaTAssets,
    };
  }

  /** When the market's schedule ends (its last entry, ms), or null without one. */
  getScheduleEnd(marketId: string): number | null {
    const schedule = this.markets.get(marketId)?.schedule;
    return schedule === undefined || schedule.length === 0 ? null : schedule[schedule.length - 1]!.at;
  }

  /** The market's first scheduled phase still to apply that starts after `after` (ms), or null. */
  getNextScheduledPhase(marketId: string, after: number): { at: number; phase: SessionPhase; sessionDate?: string } | null {
    const m = this.markets.get(marketId);
    if (m === undefined) return null;
    for (let i = m.scheduleIndex; i < m.schedule.length; i++) if (m.schedule[i]!.at > after) return { ...m.schedule[i]! };
    return null;
  }
}

export interface EngineInternals {
  markets: ReadonlyMap<string, MarketState>;
  assets: ReadonlyMap<string, AssetState>;
  clients: ReadonlyMap<string, ClientState>;
  orders: OrderIndex;
  counters: { nextOrderId: number; nextTransactionId: number; nextPriority: number; now: number };
  deltaTAssets: ReadonlySet<AssetState>;
}
