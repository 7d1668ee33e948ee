import { useState, type KeyboardEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../app/use-page-title.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { AuditPanel } from './AuditPanel.tsx';
import { useExchangeTime } from './format.ts';
import { HealthPanel } from './HealthPanel.tsx';
import { MarketsPanel } from './MarketsPanel.tsx';
import { ParticipantsPanel } from './ParticipantsPanel.tsx';
import { useOperatorSnapshot } from './use-operator.ts';
import { WorkflowsPanel } from './WorkflowsPanel.tsx';
import './operator.css';

const tabs = ['markets', 'workflows', 'participants', 'health', 'audit'] as const;
type Tab = (typeof tabs)[number];
const tabLabels: Record<Tab, MessageKey> = {
  markets: 'operator.tab.markets',
  workflows: 'operator.tab.workflows',
  participants: 'operator.tab.participants',
  health: 'operator.tab.health',
  audit: 'operator.tab.audit',
};

/**
 * The operator console (issue 16), for the administrator (the route's middleware lets no one else in):
 * markets, workflows, participants, connections and health, and the audit trail, as tabs. Markets,
 * participants and health follow the operator feed (streams/operator.ts), workflows the approvals
 * queue; nothing polls.
 */
export function OperatorPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'operator.title' }));
  const snapshot = useOperatorSnapshot();
  const time = useExchangeTime();
  const [tab, setTab] = useState<Tab>('markets');

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.indexOf(tab);
    const next = event.key === 'ArrowRight' ? tabs[(index + 1) % tabs.length] : event.key === 'ArrowLeft' ? tabs[(index + tabs.length - 1) % tabs.length] : undefined;
    if (!next) return;
    event.preventDefault();
    setTab(next);
    document.getElementById(`operator-tab-${next}`)?.focus();
  };

  const waiting = (
    <p className="muted operator-waiting" role="status">
      <span className="spinner" aria-hidden="true" /> <FormattedMessage id="operator.waiting" />
    </p>
  );
  return (
    <div className="operator-console">
      <div className="operator-head">
        <h1>
          <FormattedMessage id="operator.title" />
        </h1>
        <span className="muted small" aria-live="off">
          {snapshot ? <FormattedMessage id="operator.updatedAt" values={{ at: time(snapshot.at) }} /> : null}
        </span>
      </div>
      <div className="tabs" role="tablist" aria-label={intl.formatMessage({ id: 'operator.title' })} onKeyDown={onKeyDown}>
        {tabs.map((name) => (
          <button
            key={name}
            id={`operator-tab-${name}`}
            type="button"
            role="tab"
            className={name === tab ? 'tab active' : 'tab'}
            aria-selected={name === tab}
            aria-controls={`operator-panel-${name}`}
            tabIndex={name === tab ? 0 : -1}
            onClick={() => setTab(name)}
          >
            <FormattedMessage id={tabLabels[name]} />
          </button>
        ))}
      </div>
      <div id={`operator-panel-${tab}`} role="tabpanel" aria-labelledby={`operator-tab-${tab}`} className="operator-panel">
        {tab === 'markets' && (snapshot ? <MarketsPanel markets={snapshot.markets} /> : waiting)}
        {tab === 'workflows' && <WorkflowsPanel />}
        {tab === 'participants' && (snapshot ? <ParticipantsPanel participants={snapshot.participants} /> : waiting)}
        {tab === 'health' && (snapshot ? <HealthPanel snapshot={snapshot} /> : waiting)}
        {tab === 'audit' && <AuditPanel />}
      </div>
    </div>
  );
}
