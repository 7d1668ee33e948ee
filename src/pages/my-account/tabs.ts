import type { MessageKey } from '../../i18n/messages/index.ts';

/**
 * The tabs of the account area (SPEC §2), each at /my-account/<slug> so it has its own URL.
 * `profile` (user, broker, agency, terminal, change password) opens at /my-account itself.
 * A slug not in this list is a 404 (route parameter validation).
 */
export const accountTabs = [
  { slug: 'profile', label: 'account.tab.profile', ready: true },
  { slug: 'orders', label: 'account.tab.orders', ready: true },
  { slug: 'transactions', label: 'account.tab.transactions', ready: true },
  { slug: 'otc-transactions', label: 'account.tab.otcTransactions', ready: true },
  { slug: 'bank-commissions', label: 'account.tab.bankCommissions', ready: true },
  { slug: 'transaction-contracts', label: 'account.tab.transactionContracts', ready: true },
  { slug: 'warranties', label: 'account.tab.warranties', ready: true },
  { slug: 'unpaid-transactions', label: 'account.tab.unpaidTransactions', ready: true },
  { slug: 'login-history', label: 'account.tab.loginHistory', ready: true },
  { slug: 'account-settings', label: 'account.tab.accountSettings', ready: true },
  { slug: 'daily-settlement-price', label: 'account.tab.dailySettlementPrice', ready: true },
  { slug: 'final-settlement-price', label: 'account.tab.finalSettlementPrice', ready: true },
  { slug: 'whitelist-requests', label: 'account.tab.whitelistRequests', ready: true },
  { slug: 'whitelist-partners', label: 'account.tab.whitelistPartners', ready: true },
  { slug: 'paid-cashed-transactions', label: 'account.tab.paidCashedTransactions', ready: true },
  { slug: 'transaction-reports', label: 'account.tab.transactionReports', ready: true },
  { slug: 'daily-settlement-notes', label: 'account.tab.dailySettlementNotes', ready: true },
  { slug: 'monthly-settlement-summary', label: 'account.tab.monthlySettlementSummary', ready: true },
  { slug: 'nominations', label: 'account.tab.nominations', ready: true },
  // The operator's approval queues (issue 15): listed only for administrators; others opening it are told they may not.
  { slug: 'approvals', label: 'account.tab.approvals', ready: true, adminOnly: true },
] as const satisfies ReadonlyArray<{ slug: string; label: MessageKey; ready: boolean; adminOnly?: boolean }>;

export type AccountTabSlug = (typeof accountTabs)[number]['slug'];

/** The tabs listed for a user: the administrator's own only to one who may approve. */
export function listedAccountTabs(mayApprove: boolean) {
  return accountTabs.filter((tab) => mayApprove || !('adminOnly' in tab && tab.adminOnly));
}

export function isAccountTab(slug: unknown): slug is AccountTabSlug {
  return typeof slug === 'string' && accountTabs.some((tab) => tab.slug === slug);
}

export function accountTabPath(slug: AccountTabSlug): string {
  return slug === 'profile' ? '/my-account' : `/my-account/${slug}`;
}
