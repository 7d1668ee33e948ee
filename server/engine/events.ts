/**
 * What events carry and how consumers turn them into the public views. An order event is compact: the
 * order's changing fields as primitives plus a reference to its immutable header (made once per
 * order, shared by the order's state and all its events), so emitting one allocates a single small
 * object. `orderViewOf` / `transactionViewOf` build the full SPEC views only for the consumers that
 * need them (header.ts holds the header and product classes). Nothing here refers to the engine's
 * pooled OrderState objects.
 */
import type { OrderStatus } from '../../protocol/enums.ts';
import type { OrderHeader, ProductInfo } from './header.ts';
import type { OrderEvent, OrderView, TradeEvent, TransactionRecord, TransactionView } from './types.ts';

/** An order at one moment: its header and changing fields (the engine's OrderState, or an order event). */
export interface OrderMoment {
  readonly header: OrderHeader;
  readonly status: OrderStatus;
  readonly suspended: boolean;
  /** Limit price (a market order's internal limit: read it through limitPriceOf). */
  readonly price: number;
  readonly remaining: number;
  readonly tradedQty: number;
  readonly tradedValue: number;
  readonly priority: number;
}

/** The limit price as the views show it: null for a market order. */
export function limitPriceOf(order: OrderMoment): number | null {
  return order.header.market ? null : order.price;
}

/** noCnt of a quantity (no division for the common contract size 1). */
export function contractsOf(product: ProductInfo, qty: number): number {
  return product.contractQty === 1 ? qty : Math.ceil(qty / product.contractQty);
}

function viewOf(orderId: number, o: OrderMoment, lastModifiedAt: number, position: number | null): OrderView {
  const h = o.header;
  const p = h.product;
  const qty = o.tradedQty + o.remaining;
  const price = h.market ? null : o.price;
  return {
    orderId,
    assetId: p.assetId,
    marketId: p.marketId,
    status: o.status,
    suspended: o.suspended,
    clientCode: h.clientCode,
    brokerId: h.brokerId,
    way: h.way,
    qty,
    noCnt: contractsOf(p, qty),
    price,
    sessionDate: p.sessionDate,
    tradedQty: o.tradedQty,
    tradedPrice: o.tradedQty === 0 ? null : Math.round(o.tradedValue / o.tradedQty),
    offeredQty: o.remaining,
    offeredPrice: price,
    executionType: h.executionType,
    validityType: h.validityType,
    validity: h.validity,
    expiresAt: h.expiresAt,
    createdAt: h.createdAt,
    lastModifiedAt,
    priority: o.priority,
    position,
    powerPerInterval: h.powerPerInterval ?? Math.floor(qty / p.intervalsPerDay),
    totalQty: qty * p.deliveryDays,
    balancingGroupId: h.balancingGroupId,
    initiator: h.initiator,
  };
}

/** The view of a live order (the engine's queries). */
export function buildOrderView(order: OrderMoment & { readonly id: number; readonly lastModifiedAt: number }, position: number | null): OrderView {
  return viewOf(order.id, order, order.lastModifiedAt, position);
}

/** The full view of the order as the event left it; `position` is not in events (queries compute it). */
export function orderViewOf(event: OrderEvent, position: number | null = null): OrderView {
  // An event's order was last modified by the event itself: its time is `at` (one number less per event).
  return viewOf(event.orderId, event, event.at, position);
}

/** The SPEC §3 Transaction of a trade event. */
export function transactionViewOf(event: TradeEvent): TransactionView {
  const p = event.product;
  return {
    transactionId: event.transactionId,
    assetId: p.assetId,
    marketId: p.marketId,
    buyer: event.buyer,
    seller: event.seller,
    buyOrderId: event.buyOrderId,
    sellOrderId: event.sellOrderId,
    buyerBrokerId: event.buyerBrokerId,
    sellerBrokerId: event.sellerBrokerId,
    aggressor: event.aggressor,
    qty: event.qty,
    price: event.price,
    noCnt: contractsOf(p, event.qty),
    txDate: p.sessionDate,
    timestamp: event.at,
    origin: 'book',
    status: 'active',
    marginsExposureActive: event.marginsExposureActive,
    externalTransactionId: null,
    gasfwTransactionId: null,
    transferTimestamp: null,
    parentTransactionId: null,
    grandParentTransactionId: null,
    splitTimestamp: null,
  };
}

/** The SPEC §3 Transaction of a transaction the engine holds (off the book: no orders, brokers or aggressor). */
export function transactionViewOfRecord(r: TransactionRecord): TransactionView {
  return {
    transactionId: r.transactionId,
    assetId: r.assetId,
    marketId: r.marketId,
    buyer: r.buyer,
    seller: r.seller,
    buyOrderId: r.buyOrderId ?? null,
    sellOrderId: r.sellOrderId ?? null,
    buyerBrokerId: null,
    sellerBrokerId: null,
    aggressor: r.aggressor ?? null,
    origin: r.origin,
    status: r.status,
    qty: r.qty,
    price: r.price,
    noCnt: r.noCnt,
    txDate: r.txDate,
    timestamp: r.timestamp,
    marginsExposureActive: r.marginsExposureActive,
    externalTransactionId: r.externalTransactionId,
    gasfwTransactionId: null,
    transferTimestamp: r.transferTimestamp,
    parentTransactionId: r.parentTransactionId,
    grandParentTransactionId: r.grandParentTransactionId,
    splitTimestamp: r.splitTimestamp,
  };
}
