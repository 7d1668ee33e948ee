import { FormattedMessage, useIntl } from 'react-intl';
import type { ConnectedUser, OperatorSnapshot } from '../../protocol/operator.ts';
import { CodeCell, DataTable, type DataTableColumn } from '../components/DataTable.tsx';
import { DescriptionList } from '../components/DescriptionList.tsx';
import { formatMinor } from '../i18n/format.ts';
import { useExchangeTime } from './format.ts';

type LastRun = OperatorSnapshot['clearing']['lastRuns'][number];
type MarginCall = OperatorSnapshot['clearing']['openMarginCalls'][number];

/** Currency amounts travel in minor units with two decimals (RON, EUR). */
const CURRENCY_DECIMALS = 2;

/**
 * Connected users, the gateway's and the engine's figures and the clearing status (issue 16), as the
 * operator feed last told them; numbers in the locale's format.
 */
export function HealthPanel({ snapshot }: { snapshot: OperatorSnapshot }) {
  const intl = useIntl();
  const time = useExchangeTime();
  const count = (value: number) => intl.formatNumber(value);
  const rate = (value: number) => intl.formatNumber(value, { maximumFractionDigits: 1 });
  const { gateway, engine, clearing } = snapshot;

  const userColumns: DataTableColumn<ConnectedUser>[] = [
    { id: 'name', header: intl.formatMessage({ id: 'operator.col.name' }), sortValue: (row) => row.name, cell: (row) => row.name },
    { id: 'user', header: intl.formatMessage({ id: 'operator.col.userId' }), priority: 3, sortValue: (row) => row.userId, cell: (row) => <CodeCell value={row.userId} /> },
    { id: 'roles', header: intl.formatMessage({ id: 'operator.col.roles' }), priority: 2, cell: (row) => row.roles.join(', ') },
    { id: 'sessions', header: intl.formatMessage({ id: 'operator.col.sessions' }), align: 'end', sortValue: (row) => row.sessions, cell: (row) => count(row.sessions) },
    { id: 'subscriptions', header: intl.formatMessage({ id: 'operator.col.subscriptions' }), align: 'end', sortValue: (row) => row.subscriptions, cell: (row) => count(row.subscriptions) },
    { id: 'since', header: intl.formatMessage({ id: 'operator.col.connectedSince' }), priority: 2, sortValue: (row) => row.since, cell: (row) => <span className="small">{time(row.since)}</span> },
  ];
  const runColumns: DataTableColumn<LastRun>[] = [
    { id: 'market', header: intl.formatMessage({ id: 'operator.col.market' }), cell: (row) => <CodeCell value={row.marketId} /> },
    { id: 'date', header: intl.formatMessage({ id: 'operator.col.sessionDate' }), cell: (row) => <span className="mono">{row.sessionDate}</span> },
    { id: 'status', header: intl.formatMessage({ id: 'operator.col.state' }), cell: (row) => row.status },
    { id: 'finished', header: intl.formatMessage({ id: 'operator.col.finishedAt' }), cell: (row) => <span className="small">{time(row.finishedAt)}</span> },
  ];
  const callColumns: DataTableColumn<MarginCall>[] = [
    { id: 'client', header: intl.formatMessage({ id: 'operator.col.client' }), sortValue: (row) => row.clientCode, cell: (row) => <CodeCell value={row.clientCode} /> },
    {
      id: 'amount',
      header: intl.formatMessage({ id: 'operator.col.amount' }),
      align: 'end',
      sortValue: (row) => row.amount,
      cell: (row) => (
        <span className="mono">
          {formatMinor(intl, row.amount, CURRENCY_DECIMALS)} {row.currency}
        </span>
      ),
    },
  ];

  return (
    <div className="operator-health">
      <section className="card operator-section" aria-labelledby="operator-gateway-title">
        <div className="card-header">
          <h2 id="operator-gateway-title">
            <FormattedMessage id="operator.health.gateway" />
          </h2>
        </div>
        <DescriptionList
          valueClassName="mono"
          rows={[
            [intl.formatMessage({ id: 'operator.health.connections' }), count(gateway.connections)],
            [intl.formatMessage({ id: 'operator.health.subscriptions' }), count(gateway.subscriptions)],
            [intl.formatMessage({ id: 'operator.health.slowConsumersDropped' }), count(gateway.slowConsumersDropped)],
            [intl.formatMessage({ id: 'operator.health.messagesPerSecond' }), rate(gateway.messagesPerSecond)],
          ]}
        />
      </section>
      <section className="card operator-section" aria-labelledby="operator-engine-title">
        <div className="card-header">
          <h2 id="operator-engine-title">
            <FormattedMessage id="operator.health.engine" />
          </h2>
        </div>
        <DescriptionList
          valueClassName="mono"
          rows={[
            [intl.formatMessage({ id: 'operator.health.ordersPerSecond' }), rate(engine.ordersPerSecond)],
            [
              intl.formatMessage({ id: 'operator.health.journalSyncP99' }),
              engine.journalSyncP99Ms === null ? '—' : intl.formatMessage({ id: 'operator.health.ms' }, { value: intl.formatNumber(engine.journalSyncP99Ms, { maximumFractionDigits: 1 }) }),
            ],
            [intl.formatMessage({ id: 'operator.health.journalLastSeq' }), count(engine.journalLastSeq)],
            [intl.formatMessage({ id: 'operator.health.readModelBehindBy' }), count(engine.readModelBehindBy)],
            [
              intl.formatMessage({ id: 'operator.health.lastSnapshot' }),
              engine.lastSnapshotAt === null ? '—' : intl.formatMessage({ id: 'operator.health.snapshotAt' }, { at: time(engine.lastSnapshotAt), seq: count(engine.lastSnapshotSeq ?? 0) }),
            ],
          ]}
        />
      </section>
      <section className="card operator-section operator-wide" aria-labelledby="operator-users-title">
        <div className="card-header">
          <h2 id="operator-users-title">
            <FormattedMessage id="operator.health.users" values={{ count: snapshot.connectedUsers.length }} />
          </h2>
        </div>
        <DataTable
          label={intl.formatMessage({ id: 'operator.health.usersTable' })}
          columns={userColumns}
          rows={snapshot.connectedUsers}
          rowKey={(row) => row.userId}
          initialSort={{ columnId: 'name', direction: 'asc' }}
          emptyMessage={<FormattedMessage id="operator.health.noUsers" />}
        />
      </section>
      <section className="card operator-section" aria-labelledby="operator-runs-title">
        <div className="card-header">
          <h2 id="operator-runs-title">
            <FormattedMessage id="operator.health.lastRuns" />
          </h2>
        </div>
        <DataTable
          label={intl.formatMessage({ id: 'operator.health.lastRuns' })}
          columns={runColumns}
          rows={clearing.lastRuns}
          rowKey={(row) => `${row.marketId}:${row.sessionDate}`}
          hideFooter
          emptyMessage={<FormattedMessage id="operator.health.noRuns" />}
        />
      </section>
      <section className="card operator-section" aria-labelledby="operator-calls-title">
        <div className="card-header">
          <h2 id="operator-calls-title">
            <FormattedMessage id="operator.health.marginCalls" values={{ count: clearing.openMarginCalls.length }} />
          </h2>
        </div>
        <DataTable
          label={intl.formatMessage({ id: 'operator.health.marginCallsTable' })}
          columns={callColumns}
          rows={clearing.openMarginCalls}
          rowKey={(row) => `${row.clientCode}:${row.currency}`}
          hideFooter
          emptyMessage={<FormattedMessage id="operator.health.noMarginCalls" />}
        />
      </section>
    </div>
  );
}
