/**
 * Order and trade events, and the public copies of orders (OrderView) and transactions.
 *
 * An OrderEvent captures, when it is emitted, every field of the order (the per-asset constants via
 * the asset's immutable ProductInfo); the full OrderView is built on first read of `event.order` and
 * cached. A TradeEvent does the same for its TransactionView. Events hold no reference to the
 * engine's (pooled, reused) order objects, and the sequencer does not pay for building 28-field
 * copies: whoever publishes or stores an event pays for the copy when it reads it.
 */
import type { ExecutionType, OrderStatus, ValidityType, Way } from '../../protocol/enums.ts';
import type { CancelReason, OrderEventKind, OrderView, TransactionView } from './types.ts';

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

/** Everything an OrderView is built from (an OrderState or an OrderEvent). */
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
    noCnt: Math.ceil(qty / p.contractQty),
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
export class OrderEvent implements OrderFields {
  readonly type = 'order' as const;
  readonly kind: OrderEventKind;
  /** Why it was cancelled or expired. */
  readonly reason: CancelReason | undefined;
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
  private cached: OrderView | null = null;

  /** The order's lastModifiedAt is the event's time (the engine stamps it before every event). */
  constructor(kind: OrderEventKind, reason: CancelReason | undefined, f: OrderFields) {
    this.kind = kind;
    this.reason = reason;
    this.id = f.id;
    this.product = f.product;
    this.clientCode = f.clientCode;
    this.brokerId = f.brokerId;
    this.way = f.way;
    this.executionType = f.executionType;
    this.createdAt = f.createdAt;
    this.balancingGroupId = f.balancingGroupId;
    this.initiator = f.initiator;
    this.market = f.market;
    this.powerPerInterval = f.powerPerInterval;
    this.status = f.status;
    this.suspended = f.suspended;
    this.price = f.price;
    this.remaining = f.remaining;
    this.tradedQty = f.tradedQty;
    this.tradedValue = f.tradedValue;
    this.validityType = f.validityType;
    this.validity = f.validity;
    this.expiresAt = f.expiresAt;
    this.lastModifiedAt = f.lastModifiedAt;
    this.priority = f.priority;
  }

  /** When it happened (the command's time, or the expiry instant). */
  get at(): number {
    return this.lastModifiedAt;
  }
  get orderId(): number {
    return this.id;
  }
  get assetId(): string {
    return this.product.assetId;
  }

  get order(): OrderView {
    return (this.cached ??= buildOrderView(this, null));
  }

  toJSON(): { type: 'order'; kind: OrderEventKind; order: OrderView; at: number; reason?: CancelReason } {
    const base = { type: 'order' as const, kind: this.kind, order: this.order, at: this.at };
    return this.reason === undefined ? base : { ...base, reason: this.reason };
  }
}

/** A match: `transaction` is the SPEC §3 Transaction. */
export class TradeEvent {
  readonly type = 'trade' as const;
  private cached: TransactionView | null = null;
  constructor(
    readonly transactionId: number,
    readonly product: ProductInfo,
    readonly buyOrderId: number,
    readonly sellOrderId: number,
    readonly buyer: string,
    readonly seller: string,
    readonly buyerBrokerId: string | null,
    readonly sellerBrokerId: string | null,
    readonly aggressor: Way,
    readonly qty: number,
    readonly price: number,
    readonly timestamp: number,
  ) {}

  get assetId(): string {
    return this.product.assetId;
  }

  get transaction(): TransactionView {
    if (this.cached !== null) return this.cached;
    const p = this.product;
    return (this.cached = {
      transactionId: this.transactionId,
      assetId: p.assetId,
      marketId: p.marketId,
      buyer: this.buyer,
      seller: this.seller,
      buyOrderId: this.buyOrderId,
      sellOrderId: this.sellOrderId,
      buyerBrokerId: this.buyerBrokerId,
      sellerBrokerId: this.sellerBrokerId,
      aggressor: this.aggressor,
      qty: this.qty,
      price: this.price,
      noCnt: Math.ceil(this.qty / p.contractQty),
      txDate: p.sessionDate,
      timestamp: this.timestamp,
      marginsExposureActive: p.marginsExposureActive,
      externalTransactionId: null,
      gasfwTransactionId: null,
      transferTimestamp: null,
      parentTransactionId: null,
      grandParentTransactionId: null,
      splitTimestamp: null,
    });
  }

  toJSON(): { type: 'trade'; transaction: TransactionView } {
    return { type: 'trade', transaction: this.transaction };
  }
}
