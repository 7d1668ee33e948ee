import type { Notification, Transaction } from '../../../../protocol/market-data.ts';
import { transaction as sharedTransaction } from '../fixtures.ts';

export const transaction: Transaction = sharedTransaction();

/** A server notification on /user/queue/notifications. */
export function serverNotification(partial: Partial<Notification> & Pick<Notification, 'kind' | 'values'>): Notification {
  return { id: `n-${partial.kind}`, messageKey: `notifications.${partial.kind}`, at: '2026-11-22T10:00:01.000Z', ...partial };
}
