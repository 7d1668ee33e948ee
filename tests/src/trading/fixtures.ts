import type { Order, Transaction } from '../../../protocol/market-data.ts';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import { emptyBook, type BookView } from '../../../streams/book.ts';

/** GSPOT-DA as the demo exchange defines it: prices in bani (2 decimals), quantities in 0.1 MWh. */
export const asset: AssetSpecification = {
  id: 'GSPOT-DA',
  marketId: 'GAS-SPOT',
  ringId: 'R-GAS-DAY',
  code: 'GSPOT-DA',
  name: 'Gas day-ahead', names: { ro: 'Gaze naturale ziua următoare', en: 'Gas day-ahead' },
  type: 'day',
  unit: 'MWh',
  currency: 'RON',
  priceDecimals: 2,
  quantityDecimals: 1,
  priceStep: 1,
  quantityStep: 10,
  minQuantity: 10,
  maxQuantity: 100000,
  minPrice: 1,
  maxPrice: 500000,
  deliveryStart: '2026-11-23',
  deliveryEnd: '2026-11-23',
  tradingStart: '2026-11-22',
  tradingEnd: '2026-11-22',
  documents: [],
  marginBps: 1000,
};

export function book(partial: Partial<BookView> = {}): BookView {
  return { ...emptyBook(asset.id), seq: 5, stale: false, staleReason: null, at: '2026-11-22T10:00:00.000Z', snapshots: 1, ...partial };
}

export function order(partial: Partial<Order> = {}): Order {
  return {
    orderId: 'O-1',
    assetId: asset.id,
    status: 'created',
    suspended: false,
    clientCode: 'RO-HIDRO',
    brokerId: 'B1',
    way: 'bid',
    price: 15000,
    qty: 100,
    noCnt: 100,
    totalQty: 100,
    powerPerInterval: null,
    tradedQty: 0,
    tradedPrice: null,
    offeredQty: 100,
    offeredPrice: 15000,
    executionType: 'normal',
    validityType: 'day',
    validity: null,
    sessionDate: '2026-11-22',
    createdAt: '2026-11-22T10:00:00.000Z',
    lastModifiedAt: '2026-11-22T10:00:00.000Z',
    expiresAt: null,
    position: 1,
    ...partial,
  };
}

/** RO-TERMO bought 5.0 MWh of GSPOT-DA from RO-HIDRO at 151.00 (order O-2 hit O-1). */
export function transaction(partial: Partial<Transaction> = {}): Transaction {
  return {
    transactionId: 'T-1',
    assetId: asset.id,
    price: 15100,
    qty: 50,
    noCnt: 50,
    aggressor: 'bid',
    txDate: '2026-11-22',
    timestamp: '2026-11-22T10:00:00.000Z',
    buyer: 'RO-TERMO',
    seller: 'RO-HIDRO',
    buyOrderId: 'O-2',
    sellOrderId: 'O-1',
    marginsExposureActive: false,
    externalTransactionId: null,
    gasfwTransactionId: null,
    transferTimestamp: null,
    parentTransactionId: null,
    grandParentTransactionId: null,
    splitTimestamp: null,
    ...partial,
  };
}
