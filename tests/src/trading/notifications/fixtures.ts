import type { Notification, Transaction } from '../../../../protocol/market-data.ts';

export const transaction: Transaction = {
  transactionId: 'T-1',
  assetId: 'GSPOT-DA',
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
};

/** A server notification on /user/queue/notifications. */
export function serverNotification(partial: Partial<Notification> & Pick<Notification, 'kind' | 'values'>): Notification {
  return { id: `n-${partial.kind}`, messageKey: `notifications.${partial.kind}`, at: '2026-11-22T10:00:01.000Z', ...partial };
}
