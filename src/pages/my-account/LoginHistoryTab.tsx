import { FormattedMessage, useIntl } from 'react-intl';
import type { LoginHistoryEntry } from '../../../protocol/auth.ts';
import { fetchLoginHistory } from '../../api/auth.ts';
import { toApiError } from '../../api/errors.ts';
import { useAsync } from '../../app/use-async.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { formatApiError } from '../../i18n/format-error.ts';
import { formatUtcDateTime } from '../../i18n/format.ts';

/** Login history (SPEC §3: id, ip, timestamp in UTC), newest first. */
export function LoginHistoryTab() {
  const intl = useIntl();
  const history = useAsync((signal) => fetchLoginHistory(signal), []);
  const columns: DataTableColumn<LoginHistoryEntry>[] = [
    {
      id: 'timestamp',
      header: intl.formatMessage({ id: 'loginHistory.timestamp' }),
      sortValue: (entry) => entry.timestamp,
      cell: (entry) => <time dateTime={entry.timestamp}>{formatUtcDateTime(intl, entry.timestamp)}</time>,
    },
    {
      id: 'ip',
      header: intl.formatMessage({ id: 'loginHistory.ip' }),
      sortValue: (entry) => entry.ip,
      cell: (entry) => <span className="mono">{entry.ip}</span>,
    },
  ];
  return (
    <section className="card" aria-labelledby="login-history-title">
      <div className="card-header">
        <h2 id="login-history-title">
          <FormattedMessage id="account.tab.loginHistory" />
        </h2>
        <span className="muted small">
          <FormattedMessage id="loginHistory.utcNote" />
        </span>
      </div>
      {history.status === 'error' ? (
        <p className="alert alert-error" role="alert">
          {formatApiError(intl, toApiError(history.error))}
        </p>
      ) : (
        <DataTable
          label={intl.formatMessage({ id: 'account.tab.loginHistory' })}
          columns={columns}
          rows={history.data ?? []}
          rowKey={(entry) => entry.id}
          loading={history.status === 'loading'}
          initialSort={{ columnId: 'timestamp', direction: 'desc' }}
          emptyMessage={<FormattedMessage id="loginHistory.empty" />}
        />
      )}
    </section>
  );
}
