/**
 * Order commands: add, modify, cancel, suspend, activate. Each runs its rules in a fixed order (the
 * order decides which refusal a command breaking several rules gets: tests/server/engine/rules.test.ts),
 * every check before the first change. On the add path each rule's fast check (a boolean test on
 * precomputed fields) runs inline; its refusal function only when the fast check says "maybe not".
 */
import { apiError } from '../../protocol/error-codes.ts';
import type { ExecutionType, ValidityType } from '../../protocol/enums.ts';
import { amountOf, marginOf } from './amounts.ts';
import { clearingOk, clearingRefusal, contractsOf, reserve } from './clearing.ts';
import type { EngineState } from './engine-state.ts';
import { crossesPartner, matchIncoming, matchIncomingBilateral, partnerQty } from './matching.ts';
import { refuse, type Refusal } from './refusal.ts';
import { finish, removeFromBook, rest, retire } from './resting.ts';
import { cancelFlagsRefusal, modifyFlagsRefusal, tradingActiveRefusal } from './rules/asset-flags.ts';
import { crossFree, crossRefusal } from './rules/cross.ts';
import { deltaTLockRefusal, deltaTOrderRefusal } from './rules/delta-t.ts';
import { executionTypeRefusal, immediateFillRefusal, partnerFillRefusal, restingExecutionRefusal } from './rules/execution.ts';
import { positionLimitsRefusal } from './rules/position-limits.ts';
import { marketOrderRefusal, priceOk, priceRefusal } from './rules/price.ts';
import { contractsMismatchRefusal, isPositiveInt, quantityInputRefusal, quantityInvalid, quantityOk, quantityRefusal } from './rules/quantity.ts';
import { resolveRules } from './rules/resolve.ts';
import { agencyRefusal, participantOk, participantRefusal } from './rules/rights.ts';
import { suspensionFree, suspensionRefusal } from './rules/participant-suspension.ts';
import { phaseRefusal } from './rules/session-phase.ts';
import { initiatorQuantityRefusal, isInitiator, scRoleRefusal, scValidityRefusal } from './rules/simple-competitive.ts';
import { expiryRefusal, hasExpiry, isValidityType, newValidityTypeRefusal, validityTypeRefusal } from './rules/validity.ts';
import { startDeltaT } from './session.ts';
import { ASK, BID, type SideIndex } from './sides.ts';
import { ClientAssetState, OrderState, ResolvedRules, type AssetState, type ClientState } from './state.ts';
import type { AddOrderCommand, ModifyOrderCommand, OrderRefCommand } from './types.ts';

/** The client's record on the asset (created on first contact), with its rules resolved for the current configuration. */
export function clientAsset(s: EngineState, a: AssetState, client: ClientState): ClientAssetState {
  let cas = client.lastAsset === a ? client.lastCas : a.clients.get(client.clientCode);
  if (cas === undefined || cas === null) {
    cas = new ClientAssetState(client, a, new ResolvedRules());
    a.clients.set(client.clientCode, cas);
  }
  client.lastAsset = a;
  client.lastCas = cas;
  if (cas.rules.epoch !== s.epoch) resolveRules(cas.rules, client, a, s.epoch);
  return cas;
}

export function addOrder(s: EngineState, c: AddOrderCommand): Refusal | null {
  const at = c.at;
  const assetId = c.assetId;
  if (!assetId) return refuse(apiError('ORDER_ASSET_ID_MISSING'));
  const last = s.lastAsset;
  const a = last !== null && last.assetId === assetId ? last : s.assets.get(assetId);
  if (a === undefined) return refuse(apiError('ORDER_ASSET_ID_INVALID', { assetId }));
  s.lastAsset = a;
  const phase = a.phase;
  if (!a.allows.place) return phaseRefusal(phase, 'place');
  if (!a.tradingActive) return tradingActiveRefusal(a);
  const way = c.way;
  if (!way) return refuse(apiError('ORDER_DIRECTION_MISSING'));
  if (way !== 'bid' && way !== 'ask') return refuse(apiError('ORDER_DIRECTION_INVALID', { way: String(way) }));
  const side: SideIndex = way === 'bid' ? BID : ASK;
  const clientCode = c.clientCode;
  if (!clientCode) return refuse(apiError('ORDER_CLIENT_CODE_MISSING'));
  const client = s.clients.get(clientCode);
  if (client === undefined) return refuse(apiError('ORDER_CLIENT_CODE_INVALID', { clientCode }));
  if (!suspensionFree(s.suspensions)) {
    const r = suspensionRefusal(s.suspensions, clientCode, c.actor?.userId);
    if (r !== null) return r;
  }
  const cas = clientAsset(s, a, client);
  const rules = cas.rules;
  const agencyId = c.actor?.agencyId;
  if (!participantOk(rules, client, side, agencyId)) {
    const r = participantRefusal(a, client, rules, agencyId, side);
    if (r !== null) return r;
  }

  // validity and execution
  const validityType = c.validityType;
  if (!isValidityType(validityType)) return newValidityTypeRefusal(validityType);
  let validity: number | null = null;
  if (hasExpiry(validityType)) {
    const r = expiryRefusal(c.validity, at);
    if (r !== null) return r;
    validity = c.validity!;
  }
  if (a.scInitiator !== null) {
    const r = scValidityRefusal(a, validityType);
    if (r !== null) return r;
  }
  const executionType: ExecutionType = c.executionType ?? 'normal';
  if (executionType !== 'normal') {
    const r = executionTypeRefusal(executionType) ?? phaseRefusal(phase, 'placeImmediate');
    if (r !== null) return r;
  }

  // quantity (qty, or noCnt on contract assets)
  const entered = a.inputNoCnt ? c.noCnt : c.qty;
  if (!isPositiveInt(entered)) return quantityInputRefusal(a, entered);
  const qty = a.inputNoCnt ? entered * a.contractQty : entered;
  if (!quantityOk(a, qty)) {
    const r = quantityRefusal(a, qty);
    if (r !== null) return r;
  }
  if ((a.inputNoCnt ? c.qty : c.noCnt) != null) {
    const r = contractsMismatchRefusal(a, qty, c.qty, c.noCnt);
    if (r !== null) return r;
  }

  // price (a market order has none: it must be IOC or FOK and takes any price)
  let price: number;
  const isMarket = c.price === undefined || c.price === null;
  if (isMarket) {
    const r = marketOrderRefusal(executionType);
    if (r !== null) return r;
    price = side === BID ? Number.MAX_SAFE_INTEGER : 0;
  } else {
    price = c.price!;
    if (!priceOk(a, price)) {
      const r = priceRefusal(a, price);
      if (r !== null) return r;
    }
  }

  if (a.scInitiator !== null) {
    const r = scRoleRefusal(a, clientCode, side, way);
    if (r !== null) return r;
  }
  if (!rules.limitsFree) {
    const r = positionLimitsRefusal(a, cas, side, qty);
    if (r !== null) return r;
  }
  if (!crossFree(cas, side)) {
    const r = crossRefusal(a, cas, side, price);
    if (r !== null) return r;
  }
  if (a.deltaT !== null) {
    const r = deltaTOrderRefusal(a, side, price, executionType);
    if (r !== null) return r;
  }

  // pre-trade clearing (a market order is valued at the worst price it would reach)
  const value = amountOf(a, isMarket ? a.book.reachPrice(side, qty) : price, qty);
  const margin = marginOf(a.marginBps, value);
  const contracts = contractsOf(a, qty);
  if (!clearingOk(client, rules, value, margin, contracts)) {
    const r = clearingRefusal(a, client, rules, value, margin, contracts);
    if (r !== null) return r;
  }
  // what the order reserves if it rests untouched (saves recomputing it in reserve())
  s.hintQty = isMarket ? -1 : qty;
  s.hintValue = value;
  s.hintMargin = margin;

  if (executionType !== 'normal') {
    const r = a.bilateral
      ? partnerFillRefusal(partnerQty(s, a, side, price, client.clientCode, qty), qty, executionType)
      : immediateFillRefusal(a, side, price, qty, executionType);
    if (r !== null) return r;
  }

  // accepted
  const id = s.nextOrderId++;
  const initiator = isInitiator(a, clientCode);
  const o = (s.pool.pop() ?? new OrderState()).init(
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
    s.nextPriority++,
    c.balancingGroupId ?? null,
    initiator,
    isMarket,
    c.powerPerInterval ?? null,
    cas,
  );
  o.enteredBy = c.actor?.userId ?? null;
  s.resultOrderId = id;
  s.orders.set(id, o);
  if (initiator) {
    a.initiatorOrderId = id;
    a.initiatorPlaced = true;
  }
  if (o.expiresAt !== null) s.expiries.push(o.expiresAt, id);
  s.orderEvent(a, o, 'created', at);
  place(s, a, o, at);
  return null;
}

/** Puts an accepted (or re-prioritised) order to work: match, start delta T, rest, or cancel an IOC rest. */
function place(s: EngineState, a: AssetState, o: OrderState, at: number): void {
  if (a.allows.matching && (a.bilateral ? crossesPartner(s, a, o.side, o.price, o.clientCode) : a.book.crosses(o.side, o.price))) {
    if (a.hasDeltaT && o.executionType === 'normal') {
      rest(s, a, o);
      startDeltaT(s, a, o.side, at);
      return;
    }
    if (a.bilateral) matchIncomingBilateral(s, a, o, at);
    else matchIncoming(s, a, o, at);
    if (o.tradedQty > 0) s.orderEvent(a, o, o.remaining === 0 ? 'traded' : 'tradedPartially', at);
  }
  if (o.remaining === 0) {
    retire(s, a, o);
  } else if (o.executionType === 'normal') {
    rest(s, a, o);
  } else {
    o.status = 'cancelled';
    retire(s, a, o);
    s.orderEvent(a, o, 'cancelled', at, 'ioc');
  }
}

/** A live order, or undefined when unknown, finished or past its expiry (not yet expired by a tick). */
export function liveOrder(s: EngineState, orderId: number, at: number): OrderState | undefined {
  const o = s.orders.get(orderId);
  if (o === undefined || (o.expiresAt !== null && o.expiresAt <= at)) return undefined;
  return o;
}

function notFound(orderId: number): Refusal {
  return refuse(apiError('ORDER_NOT_FOUND', { orderId }));
}

function stateInvalid(o: OrderState, status: string): Refusal {
  return refuse(apiError('ORDER_STATE_INVALID', { orderId: o.id, status }));
}

export function modifyOrder(s: EngineState, c: ModifyOrderCommand): Refusal | null {
  const at = c.at;
  const o = liveOrder(s, c.orderId, at);
  if (o === undefined) return notFound(c.orderId);
  if (!suspensionFree(s.suspensions)) {
    const r = suspensionRefusal(s.suspensions, o.clientCode, c.actor?.userId);
    if (r !== null) return r;
  }
  const a = o.cas.asset;
  const phase = a.phase;
  const client = o.cas.client;
  const refused = (a.allows.modify ? null : phaseRefusal(phase, 'modify')) ?? tradingActiveRefusal(a) ?? deltaTLockRefusal(a) ?? agencyRefusal(client, c.actor?.agencyId);
  if (refused !== null) return refused;
  if (o.suspended) return stateInvalid(o, 'suspended');

  const newPrice = c.price ?? o.price;
  let newRemaining = o.remaining;
  if (c.qty !== undefined && c.qty !== null) {
    if (!isPositiveInt(c.qty)) return quantityInvalid(a);
    newRemaining = c.qty;
  } else if (c.noCnt !== undefined && c.noCnt !== null) {
    if (!isPositiveInt(c.noCnt)) return quantityInvalid(a);
    newRemaining = c.noCnt * a.contractQty;
  }
  const newValidityType: ValidityType = c.validityType ?? o.validityType;
  const validityTypeRefused = validityTypeRefusal(newValidityType);
  if (validityTypeRefused !== null) return validityTypeRefused;
  let newValidity: number | null = c.validity !== undefined ? c.validity : o.validity;
  if (!hasExpiry(newValidityType)) newValidity = null;
  const newExecutionType: ExecutionType = c.executionType ?? o.executionType;
  const priceChanged = newPrice !== o.price;
  const qtyChanged = newRemaining !== o.remaining;
  const attributesChanged = newValidityType !== o.validityType || newValidity !== o.validity || newExecutionType !== o.executionType;
  const side = o.side;
  const worse = side === BID ? newPrice < o.price : newPrice > o.price;

  const cas = o.cas;
  const rules =
    (priceChanged ? phaseRefusal(phase, 'changePrice') : null) ??
    modifyFlagsRefusal(a, o, newRemaining, priceChanged, worse, attributesChanged) ??
    initiatorQuantityRefusal(o, qtyChanged) ??
    restingExecutionRefusal(newExecutionType) ??
    scValidityRefusal(a, newValidityType) ??
    (hasExpiry(newValidityType) && attributesChanged ? expiryRefusal(newValidity, at) : null) ??
    (qtyChanged ? quantityRefusal(a, newRemaining) : null) ??
    (priceChanged ? priceRefusal(a, newPrice) : null) ??
    (newRemaining > o.remaining ? positionLimitsRefusal(a, cas, side, newRemaining - o.remaining) : null) ??
    (priceChanged ? crossRefusal(a, cas, side, newPrice) : null);
  if (rules !== null) return rules;
  const newValue = amountOf(a, newPrice, newRemaining);
  const newMargin = marginOf(a.marginBps, newValue);
  const newContracts = contractsOf(a, newRemaining);
  if (newValue > o.reservedValue || newMargin > o.reservedMargin || newContracts > o.reservedContracts) {
    const r = clearingRefusal(a, client, cas.rules, Math.max(0, newValue - o.reservedValue), Math.max(0, newMargin - o.reservedMargin), Math.max(0, newContracts - o.reservedContracts));
    if (r !== null) return r;
  }

  // accepted
  s.resultOrderId = o.id;
  const keepsPriority = !priceChanged && newRemaining <= o.remaining;
  o.lastModifiedAt = at;
  o.status = 'modified';
  if (o.validityType !== newValidityType || o.validity !== newValidity) {
    o.setValidity(newValidityType, newValidity);
    if (o.expiresAt !== null) s.expiries.push(o.expiresAt, o.id);
  }
  if (keepsPriority) {
    const delta = newRemaining - o.remaining;
    if (delta !== 0) {
      const level = o.level!;
      level.qty += delta;
      cas.openQty[side] += delta;
      o.remaining = newRemaining;
      reserve(s, a, o);
      s.orderEvent(a, o, 'modified', at);
      s.levelEvent(a, side, level);
    } else {
      s.orderEvent(a, o, 'modified', at);
    }
    return null;
  }
  // loses time priority: out of the book, back in at the tail (may trade)
  removeFromBook(s, a, o);
  o.price = newPrice;
  o.remaining = newRemaining;
  o.priority = s.nextPriority++;
  s.orderEvent(a, o, 'modified', at);
  place(s, a, o, at);
  return null;
}

/** Cancel and suspend: phase, delta T, agency, then the asset's cancel restrictions. */
export function removalRefusal(a: AssetState, o: OrderState, action: 'cancel' | 'suspend', agencyId: string | null | undefined): Refusal | null {
  return (a.allows[action] ? null : phaseRefusal(a.phase, action)) ?? deltaTLockRefusal(a) ?? agencyRefusal(o.cas.client, agencyId) ?? cancelFlagsRefusal(a, o);
}

export function cancelOrder(s: EngineState, c: OrderRefCommand): Refusal | null {
  const o = liveOrder(s, c.orderId, c.at);
  if (o === undefined) return notFound(c.orderId);
  const a = o.cas.asset;
  const r = removalRefusal(a, o, 'cancel', c.actor?.agencyId);
  if (r !== null) return r;
  s.resultOrderId = o.id;
  finish(s, a, o, 'cancelled', c.at, 'user');
  return null;
}

export function suspendOrder(s: EngineState, c: OrderRefCommand): Refusal | null {
  const o = liveOrder(s, c.orderId, c.at);
  if (o === undefined) return notFound(c.orderId);
  const a = o.cas.asset;
  const r = removalRefusal(a, o, 'suspend', c.actor?.agencyId);
  if (r !== null) return r;
  if (o.suspended) return stateInvalid(o, 'suspended');
  s.resultOrderId = o.id;
  removeFromBook(s, a, o);
  o.suspended = true;
  o.lastModifiedAt = c.at;
  s.orderEvent(a, o, 'suspended', c.at);
  return null;
}

export function activateOrder(s: EngineState, c: OrderRefCommand): Refusal | null {
  const at = c.at;
  const o = liveOrder(s, c.orderId, at);
  if (o === undefined) return notFound(c.orderId);
  if (!suspensionFree(s.suspensions)) {
    const r = suspensionRefusal(s.suspensions, o.clientCode, c.actor?.userId);
    if (r !== null) return r;
  }
  const a = o.cas.asset;
  const client = o.cas.client;
  const refused = phaseRefusal(a.phase, 'activate') ?? tradingActiveRefusal(a) ?? deltaTLockRefusal(a) ?? agencyRefusal(client, c.actor?.agencyId);
  if (refused !== null) return refused;
  if (!o.suspended) return stateInvalid(o, o.status);
  const cas = o.cas;
  const rules =
    participantRefusal(a, client, clientAsset(s, a, client).rules, null, o.side) ??
    priceRefusal(a, o.price) ??
    positionLimitsRefusal(a, cas, o.side, o.remaining) ??
    crossRefusal(a, cas, o.side, o.price);
  if (rules !== null) return rules;
  const value = amountOf(a, o.price, o.remaining);
  const clearing = clearingRefusal(a, client, cas.rules, value, marginOf(a.marginBps, value), contractsOf(a, o.remaining));
  if (clearing !== null) return clearing;

  s.resultOrderId = o.id;
  o.suspended = false;
  o.lastModifiedAt = at;
  o.priority = s.nextPriority++;
  s.orderEvent(a, o, 'activated', at);
  place(s, a, o, at);
  return null;
}
