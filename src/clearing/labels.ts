/** The message of each clearing status and kind, spelled out so every key is checked by the compiler and the messages test. */
import type { ObligationStatus, PaymentObligation, SettlementPriceSource, WarrantyKind, WarrantyStatus } from '../../protocol/clearing.ts';
import type { MessageKey } from '../i18n/messages/index.ts';

export const warrantyKindLabels: Record<WarrantyKind, MessageKey> = {
  bank_guarantee: 'clearing.warrantyKind.bank_guarantee',
  cash_deposit: 'clearing.warrantyKind.cash_deposit',
  insurance_policy: 'clearing.warrantyKind.insurance_policy',
  other: 'clearing.warrantyKind.other',
};

export const warrantyStatusLabels: Record<WarrantyStatus, MessageKey> = {
  pending: 'clearing.warrantyStatus.pending',
  active: 'clearing.warrantyStatus.active',
  expired: 'clearing.warrantyStatus.expired',
  released: 'clearing.warrantyStatus.released',
};

export const obligationKindLabels: Record<PaymentObligation['kind'], MessageKey> = {
  transaction: 'clearing.obligationKind.transaction',
  variation_margin: 'clearing.obligationKind.variation_margin',
  fees: 'clearing.obligationKind.fees',
};

export const obligationStatusLabels: Record<ObligationStatus, MessageKey> = {
  unpaid: 'clearing.obligationStatus.unpaid',
  paid: 'clearing.obligationStatus.paid',
  cashed: 'clearing.obligationStatus.cashed',
};

export const priceSourceLabels: Record<SettlementPriceSource, MessageKey> = {
  transactions: 'clearing.priceSource.transactions',
  orders: 'clearing.priceSource.orders',
  previous: 'clearing.priceSource.previous',
  override: 'clearing.priceSource.override',
};
