import { Link, Outlet, useParams, useRouterState } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/use-page-title.ts';
import { PlaceholderPanel } from '../../components/PlaceholderPanel.tsx';
import { localePath } from '../../i18n/locale.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import { useUser } from '../../auth/use-auth.ts';
import { AccountSettingsTab } from './AccountSettingsTab.tsx';
import { ApprovalsTab, mayApprove } from './ApprovalsTab.tsx';
import { BankCommissionsTab } from './BankCommissionsTab.tsx';
import { DailySettlementNotesTab } from './DailySettlementNotesTab.tsx';
import { DailySettlementPriceTab } from './DailySettlementPriceTab.tsx';
import { FinalSettlementPriceTab } from './FinalSettlementPriceTab.tsx';
import { LoginHistoryTab } from './LoginHistoryTab.tsx';
import { MonthlySettlementSummaryTab } from './MonthlySettlementSummaryTab.tsx';
import { NominationsTab } from './NominationsTab.tsx';
import { OtcTransactionsTab } from './OtcTransactionsTab.tsx';
import { OrdersTab } from './OrdersTab.tsx';
import { PaidCashedTransactionsTab } from './PaidCashedTransactionsTab.tsx';
import { ProfileTab } from './ProfileTab.tsx';
import { TransactionContractsTab } from './TransactionContractsTab.tsx';
import { TransactionReportsTab } from './TransactionReportsTab.tsx';
import { TransactionsTab } from './TransactionsTab.tsx';
import { UnpaidTransactionsTab } from './UnpaidTransactionsTab.tsx';
import { WarrantiesTab } from './WarrantiesTab.tsx';
import { WhitelistPartnersTab } from './WhitelistPartnersTab.tsx';
import { WhitelistRequestsTab } from './WhitelistRequestsTab.tsx';
import { accountTabPath, accountTabs, isAccountTab, listedAccountTabs, type AccountTabSlug } from './tabs.ts';

/** The account area: the tab list and the open tab. */
export function MyAccountPage() {
  const intl = useIntl();
  const locale = useLocale();
  // The open tab is a parameter of the child route, so it is read from the deepest match.
  const tabParam = useRouterState({
    select: (state) => (state.matches[state.matches.length - 1]?.params as { tab?: string } | undefined)?.tab,
  });
  const active: AccountTabSlug = isAccountTab(tabParam) ? tabParam : 'profile';
  const activeTab = accountTabs.find((tab) => tab.slug === active)!;
  const listed = listedAccountTabs(mayApprove(useUser()));
  usePageTitle(`${intl.formatMessage({ id: activeTab.label })} · ${intl.formatMessage({ id: 'nav.myAccount' })}`);

  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <FormattedMessage id="nav.myAccount" />
        </h1>
      </div>
      <div className="account-layout">
        <nav className="side-nav" aria-label={intl.formatMessage({ id: 'account.tabs' })}>
          <ul role="list">
            {listed.map((tab) => (
              <li key={tab.slug}>
                <Link
                  to={localePath(locale, accountTabPath(tab.slug))}
                  className={tab.slug === active ? 'side-nav-link active' : 'side-nav-link'}
                  aria-current={tab.slug === active ? 'page' : undefined}
                  // Marked by hand above; exact so the router does not also mark Profile (/my-account) as current.
                  activeOptions={{ exact: true }}
                  activeProps={{}}
                >
                  <FormattedMessage id={tab.label} />
                  {!tab.ready && <span className="side-nav-soon" aria-hidden="true" />}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="account-panel">
          <Outlet />
        </div>
      </div>
    </div>
  );
}

/** /my-account/<tab>: the tab's panel. */
export function AccountTabPanel() {
  const params = useParams({ strict: false }) as { tab?: string };
  const slug: AccountTabSlug = isAccountTab(params.tab) ? params.tab : 'profile';
  switch (slug) {
    case 'profile':
      return <ProfileTab />;
    case 'login-history':
      return <LoginHistoryTab />;
    case 'orders':
      return <OrdersTab />;
    case 'account-settings':
      return <AccountSettingsTab />;
    case 'transactions':
      return <TransactionsTab />;
    case 'bank-commissions':
      return <BankCommissionsTab />;
    case 'warranties':
      return <WarrantiesTab />;
    case 'unpaid-transactions':
      return <UnpaidTransactionsTab />;
    case 'paid-cashed-transactions':
      return <PaidCashedTransactionsTab />;
    case 'daily-settlement-price':
      return <DailySettlementPriceTab />;
    case 'final-settlement-price':
      return <FinalSettlementPriceTab />;
    case 'transaction-reports':
      return <TransactionReportsTab />;
    case 'daily-settlement-notes':
      return <DailySettlementNotesTab />;
    case 'monthly-settlement-summary':
      return <MonthlySettlementSummaryTab />;
    case 'nominations':
      return <NominationsTab />;
    case 'otc-transactions':
      return <OtcTransactionsTab />;
    case 'transaction-contracts':
      return <TransactionContractsTab />;
    case 'whitelist-requests':
      return <WhitelistRequestsTab />;
    case 'whitelist-partners':
      return <WhitelistPartnersTab />;
    case 'approvals':
      return <ApprovalsTab />;
    default: {
      const tab = accountTabs.find((candidate) => candidate.slug === slug)!;
      return <PlaceholderPanel title={<FormattedMessage id={tab.label} />} />;
    }
  }
}

/** /my-account: the profile. */
export function AccountIndexPanel() {
  return <ProfileTab />;
}
