/**
 * The immutable parts events share by reference: an asset's product constants and an order's header.
 * Plain classes with no engine imports, so the event types (types.ts) can name them without a cycle.
 */
import type { ExecutionType, ValidityType, Way } from '../../protocol/enums.ts';

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

/**
 * The part of an order no later command changes. Immutable: events keep a reference to it, so a
 * modify of the validity (the only attributes a resting order may change here) makes a new header.
 */
export class OrderHeader {
  /** When a GTD / GTSV order expires; null for day and GTC. */
  readonly expiresAt: number | null;
  constructor(
    readonly product: ProductInfo,
    readonly clientCode: string,
    readonly brokerId: string | null,
    readonly way: Way,
    readonly executionType: ExecutionType,
    readonly createdAt: number,
    readonly balancingGroupId: string | null,
    readonly initiator: boolean,
    /** A market order (IOC / FOK without a limit): its price is an internal limit, shown as null. */
    readonly market: boolean,
    /** As entered, or null (then derived from the quantity). */
    readonly powerPerInterval: number | null,
    readonly validityType: ValidityType,
    readonly validity: number | null,
  ) {
    this.expiresAt = validityType === 'GTD' || validityType === 'GTSV' ? validity : null;
  }

  withValidity(validityType: ValidityType, validity: number | null): OrderHeader {
    return new OrderHeader(
      this.product,
      this.clientCode,
      this.brokerId,
      this.way,
      this.executionType,
      this.createdAt,
      this.balancingGroupId,
      this.initiator,
      this.market,
      this.powerPerInterval,
      validityType,
      validity,
    );
  }
}
