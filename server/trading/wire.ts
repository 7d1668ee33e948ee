import type { Order, SessionStats as WireStats, Trade, Transaction } from '../../protocol/index.ts';
import type { OrderView, SessionStats, TransactionView } from '../engine/types.ts';

/** Engine views (numeric ids, epoch ms) to wire payloads (string ids, ISO UTC). */

/**
 * Recently converted instants (direct-mapped on the low bits of the ms): an order's times repeat
 * across its events and the three conversions of each (reply, market data, read models), and one
 * toISOString costs about half a microsecond.
 */
const ISO_SLOTS = 64;
const isoMs = new Float64Array(ISO_SLOTS).fill(Number.NaN);
const isoText: string[] = new Array<string>(ISO_SLOTS).fill('');

export function iso(ms: number): string {
  const slot = ms & (ISO_SLOTS - 1);
  if (isoMs[slot] === ms) return isoText[slot]!;
  const text = new Date(ms).toISOString();
  isoMs[slot] = ms;
  isoText[slot] = text;
  return text;
}
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export function orderToWire(order: OrderView): Order {
  return {
    orderId: String(order.orderId),
    assetId: order.assetId,
    status: order.status,
    suspended: order.suspended,
    clientCode: order.clientCode,
    brokerId: order.brokerId,
    way: order.way,
    price: order.price,
    qty: order.qty,
    noCnt: order.noCnt,
    totalQty: order.totalQty,
    powerPerInterval: order.powerPerInterval,
    tradedQty: order.tradedQty,
    tradedPrice: order.tradedPrice,
    offeredQty: order.offeredQty,
    offeredPrice: order.offeredPrice,
    executionType: order.executionType,
    validityType: order.validityType,
    validity: isoOrNull(order.validity),
    sessionDate: order.sessionDate,
    createdAt: iso(order.createdAt),
    lastModifiedAt: iso(order.lastModifiedAt),
    expiresAt: isoOrNull(order.expiresAt),
    position: order.position,
  };
}

export function tradeToWire(transaction: TransactionView): Trade {
  return {
    transactionId: String(transaction.transactionId),
    assetId: transaction.assetId,
    price: transaction.price,
    qty: transaction.qty,
    noCnt: transaction.noCnt,
    aggressor: transaction.aggressor,
    txDate: transaction.txDate,
    timestamp: iso(transaction.timestamp),
  };
}

export function transactionToWire(transaction: TransactionView): Transaction {
  return {
    ...tradeToWire(transaction),
    buyer: transaction.buyer,
    seller: transaction.seller,
    buyOrderId: String(transaction.buyOrderId),
    sellOrderId: String(transaction.sellOrderId),
    marginsExposureActive: transaction.marginsExposureActive,
    externalTransactionId: transaction.externalTransactionId,
    gasfwTransactionId: transaction.gasfwTransactionId,
    transferTimestamp: isoOrNull(transaction.transferTimestamp),
    parentTransactionId: transaction.parentTransactionId === null ? null : String(transaction.parentTransactionId),
    grandParentTransactionId: transaction.grandParentTransactionId === null ? null : String(transaction.grandParentTransactionId),
    splitTimestamp: isoOrNull(transaction.splitTimestamp),
  };
}

export function statsToWire(stats: SessionStats, at: number): WireStats {
  return {
    assetId: stats.assetId,
    sessionDate: stats.sessionDate,
    minPrice: stats.minPrice,
    maxPrice: stats.maxPrice,
    lastPrice: stats.lastPrice,
    volume: stats.volume,
    transactions: stats.transactions,
    closingPrice: stats.closingPrice,
    tradeableQty: stats.tradeableQty,
    surplusQty: stats.surplusQty,
    settlementPrice: stats.settlementPrice,
    at: iso(at),
  };
}
