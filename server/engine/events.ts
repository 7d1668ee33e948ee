/**
 * The public copies of orders (OrderView) and transactions (TransactionView) that events and queries
 * carry. They are plain data built when the event happens: events never refer to the engine's
 * (pooled, reused) order objects.
 */
import type { ExecutionType, OrderStatus, ValidityType, Way } from '../../protocol/enums.ts';
import type { OrderView, TransactionView } from './types.ts';

/** Per-asset constants an order or transaction needs; replaced (never mutated) on config or session change. */
export class ProductInfo {
  constructor(
    readonly assetId: string,
    readonly marketId: string,
    readonly sessionDate: string,
    readonly contractQty: number,
    readonly intervalsPerDay: number,
    readonly deliveryDays: number,
    readonly marginsExposureActive: boolean,
  ) {}
}

/** Everything an OrderView is built from (implemented by the engine's OrderState). */
export interface OrderFields {
  readonly id: number;
  readonly product: ProductInfo;
  readonly clientCode: string;
  readonly brokerId: string | null;
  readonly way: Way;
  readonly executionType: ExecutionType;
  readonly createdAt: number;
  readonly balancingGroupId: string | null;
  readonly initiator: boolean;
  readonly market: boolean;
  readonly powerPerInterval: number | null;
  readonly status: OrderStatus;
  readonly suspended: boolean;
  readonly price: number;
  readonly remaining: number;
  readonly tradedQty: number;
  readonly tradedValue: number;
  readonly validityType: ValidityType;
  readonly validity: number | null;
  readonly expiresAt: number | null;
  readonly lastModifiedAt: number;
  readonly priority: number;
}

export function buildOrderView(f: OrderFields, position: number | null): OrderView {
  const p = f.product;
  const qty = f.tradedQty + f.remaining;
  return {
    orderId: f.id,
    assetId: p.assetId,
    marketId: p.marketId,
    status: f.status,
    suspended: f.suspended,
    clientCode: f.clientCode,
    brokerId: f.brokerId,
    way: f.way,
    qty,
    noCnt: p.contractQty === 1 ? qty : Math.ceil(qty / p.contractQty),
    price: f.market ? null : f.price,
    sessionDate: p.sessionDate,
    tradedQty: f.tradedQty,
    tradedPrice: f.tradedQty === 0 ? null : Math.round(f.tradedValue / f.tradedQty),
    offeredQty: f.remaining,
    offeredPrice: f.market ? null : f.price,
    executionType: f.executionType,
    validityType: f.validityType,
    validity: f.validity,
    expiresAt: f.expiresAt,
    createdAt: f.createdAt,
    lastModifiedAt: f.lastModifiedAt,
    priority: f.priority,
    position,
    powerPerInterval: f.powerPerInterval ?? Math.floor(qty / p.intervalsPerDay),
    totalQty: qty * p.deliveryDays,
    balancingGroupId: f.balancingGroupId,
    initiator: f.initiator,
  };
}

/** An order changed. `order` is the order as it was at that moment. */
/** The SPEC §3 Transaction of a match between two orders. */
export function buildTransactionView(
  transactionId: number,
  p: ProductInfo,
  buy: OrderFields,
  sell: OrderFields,
  aggressor: Way,
  qty: number,
  price: number,
  timestamp: number,
): TransactionView {
  return {
    transactionId,
    assetId: p.assetId,
    marketId: p.marketId,
    buyer: buy.clientCode,
    seller: sell.clientCode,
    buyOrderId: buy.id,
    sellOrderId: sell.id,
    buyerBrokerId: buy.brokerId,
    sellerBrokerId: sell.brokerId,
    aggressor,
    qty,
    price,
    noCnt: p.contractQty === 1 ? qty : Math.ceil(qty / p.contractQty),
    txDate: p.sessionDate,
    timestamp,
    marginsExposureActive: p.marginsExposureActive,
    externalTransactionId: null,
    gasfwTransactionId: null,
    transferTimestamp: null,
    parentTransactionId: null,
    grandParentTransactionId: null,
    splitTimestamp: null,
  };
}
