import { useMachine } from '@xstate/react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AUDIT_PAGE_SIZES, auditRange, auditTrailMachineWith, type AuditFilters } from '../../machines/audit-trail.machine.ts';
import { auditActions, auditCategories, type AuditAction, type AuditCategory, type AuditEntry } from '../../protocol/audit.ts';
import { toApiError } from '../api/errors.ts';
import { csvFileName, saveFile } from '../components/csv.ts';
import { CodeCell, DataTable, type DataTableColumn } from '../components/DataTable.tsx';
import { formatApiError } from '../i18n/format-error.ts';
import { formatExchangeDateTime } from '../i18n/format.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { downloadAuditCsv, fetchAudit } from './operator-api.ts';
import { DateField } from '../components/date-field/DateField.tsx';

const categoryLabels: Record<AuditCategory, MessageKey> = {
  operator: 'operator.audit.category.operator',
  workflow: 'operator.audit.category.workflow',
  security: 'operator.audit.category.security',
};
const actionLabels: Record<AuditAction, MessageKey> = {
  'market.phase': 'operator.audit.action.market.phase',
  'market.suspend': 'operator.audit.action.market.suspend',
  'market.resume': 'operator.audit.action.market.resume',
  'participant.suspend': 'operator.audit.action.participant.suspend',
  'participant.reinstate': 'operator.audit.action.participant.reinstate',
  'settlement.run': 'operator.audit.action.settlement.run',
  'settlement.priceOverride': 'operator.audit.action.settlement.priceOverride',
  'obligation.settle': 'operator.audit.action.obligation.settle',
  'warranty.record': 'operator.audit.action.warranty.record',
  'warranty.edit': 'operator.audit.action.warranty.edit',
  'warranty.release': 'operator.audit.action.warranty.release',
  'financialInfo.set': 'operator.audit.action.financialInfo.set',
  'workflow.action': 'operator.audit.action.workflow.action',
  'signIn.failed': 'operator.audit.action.signIn.failed',
  'signIn.lockedOut': 'operator.audit.action.signIn.lockedOut',
  'access.forbidden': 'operator.audit.action.access.forbidden',
  'password.changed': 'operator.audit.action.password.changed',
  'password.reset': 'operator.audit.action.password.reset',
};
const categoryLabel = (category: AuditCategory): MessageKey => categoryLabels[category];
const actionLabel = (action: AuditAction): MessageKey => actionLabels[action];

/** The details as 'name: value' pairs in one line (empty ones left out); the whole text on hover. */
function detailsText(details: AuditEntry['details']): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== '')
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join(', ');
}

/**
 * The audit trail (issue 16): every operator action, workflow action and security event, newest first,
 * a page at a time from GET /admin/audit (machines/audit-trail.machine.ts holds the filters, the page
 * and its load), and the CSV of every matching entry (GET /admin/audit.csv with the same filters,
 * fetched with the bearer token).
 */
export function AuditPanel() {
  const intl = useIntl();
  const id = useId();
  const machine = useMemo(() => auditTrailMachineWith((query) => fetchAudit(query)), []);
  const [snapshot, send] = useMachine(machine, { input: {} });
  const { filters, items, offset, limit, total, error } = snapshot.context;
  const [text, setText] = useState('');
  const [download, setDownload] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const loading = snapshot.hasTag('busy');
  const range = auditRange(snapshot.context);
  const number = (value: number) => intl.formatNumber(value);

  const apply = (changes: Partial<AuditFilters>) => send({ type: 'FILTER', filters: { ...filters, ...changes } });
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    apply({ q: text.trim() });
  };

  async function exportCsv() {
    setDownload({ busy: true, error: null });
    try {
      const file = await downloadAuditCsv(filters);
      saveFile(file.fileName ?? csvFileName('audit'), file.body);
      setDownload({ busy: false, error: null });
    } catch (cause) {
      setDownload({ busy: false, error: formatApiError(intl, toApiError(cause)) });
    }
  }

  const columns: DataTableColumn<AuditEntry>[] = [
    { id: 'at', header: intl.formatMessage({ id: 'operator.col.at' }), cell: (row) => <time dateTime={row.at} className="small">{formatExchangeDateTime(intl, row.at)}</time> },
    { id: 'category', header: intl.formatMessage({ id: 'operator.col.category' }), priority: 2, cell: (row) => intl.formatMessage({ id: categoryLabel(row.category) }) },
    { id: 'action', header: intl.formatMessage({ id: 'operator.col.action' }), cell: (row) => intl.formatMessage({ id: actionLabel(row.action) }) },
    {
      id: 'actor',
      header: intl.formatMessage({ id: 'operator.col.actor' }),
      // The user; the role on hover (the CSV has both).
      cell: (row) =>
        row.actorUserId === null ? (
          <span className="muted">{intl.formatMessage({ id: 'operator.audit.system' })}</span>
        ) : (
          <span className="cell-code" title={row.actorRole ? `${row.actorUserId} (${row.actorRole})` : row.actorUserId}>
            {row.actorUserId}
          </span>
        ),
    },
    { id: 'subject', header: intl.formatMessage({ id: 'operator.col.subject' }), cell: (row) => <CodeCell value={row.subject} /> },
    {
      id: 'outcome',
      header: intl.formatMessage({ id: 'operator.col.outcome' }),
      cell: (row) => (
        <span className={row.outcome === 'ok' ? 'badge badge-phase-trading' : 'badge badge-phase-suspended'} title={row.code ?? undefined}>
          <FormattedMessage id={row.outcome === 'ok' ? 'operator.audit.outcome.ok' : 'operator.audit.outcome.refused'} />
        </span>
      ),
    },
    {
      id: 'details',
      header: intl.formatMessage({ id: 'operator.col.details' }),
      priority: 2,
      cell: (row) => {
        const text = [row.code, detailsText(row.details)].filter(Boolean).join(' · ') || '—';
        return (
          <span className="operator-details small" title={text}>
            {text}
          </span>
        );
      },
    },
    { id: 'address', header: intl.formatMessage({ id: 'operator.col.address' }), priority: 3, cell: (row) => <span className="mono small">{row.remoteAddress ?? '—'}</span> },
  ];

  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  return (
    <section className="card operator-section" aria-labelledby="operator-audit-title">
      <div className="card-header">
        <h2 id="operator-audit-title">
          <FormattedMessage id="operator.tab.audit" />
        </h2>
        <span className="workflow-command">
          <button type="button" className="button button-secondary button-small" onClick={() => send({ type: 'REFRESH' })} disabled={loading}>
            <FormattedMessage id="operator.audit.refresh" />
          </button>{' '}
          <button type="button" className="button button-secondary button-small" onClick={() => void exportCsv()} disabled={download.busy} aria-busy={download.busy}>
            <FormattedMessage id="operator.audit.exportCsv" />
          </button>
        </span>
      </div>
      <form className="operator-filters" role="search" aria-label={intl.formatMessage({ id: 'operator.filters' })} onSubmit={onSearch}>
        <span className="operator-filter">
          <label htmlFor={`${id}-category`}>
            <FormattedMessage id="operator.filter.category" />
          </label>
          <select id={`${id}-category`} value={filters.category ?? ''} onChange={(event) => apply({ category: (event.target.value || undefined) as AuditCategory | undefined })}>
            <option value="">{intl.formatMessage({ id: 'operator.filter.all' })}</option>
            {auditCategories.map((category) => (
              <option key={category} value={category}>
                {intl.formatMessage({ id: categoryLabel(category) })}
              </option>
            ))}
          </select>
        </span>
        <span className="operator-filter">
          <label htmlFor={`${id}-action`}>
            <FormattedMessage id="operator.filter.action" />
          </label>
          <select id={`${id}-action`} value={filters.action ?? ''} onChange={(event) => apply({ action: (event.target.value || undefined) as AuditAction | undefined })}>
            <option value="">{intl.formatMessage({ id: 'operator.filter.all' })}</option>
            {auditActions.map((action) => (
              <option key={action} value={action}>
                {intl.formatMessage({ id: actionLabel(action) })}
              </option>
            ))}
          </select>
        </span>
        <span className="operator-filter">
          <label htmlFor={`${id}-outcome`}>
            <FormattedMessage id="operator.filter.outcome" />
          </label>
          <select id={`${id}-outcome`} value={filters.outcome ?? ''} onChange={(event) => apply({ outcome: (event.target.value || undefined) as 'ok' | 'refused' | undefined })}>
            <option value="">{intl.formatMessage({ id: 'operator.filter.all' })}</option>
            <option value="ok">{intl.formatMessage({ id: 'operator.audit.outcome.ok' })}</option>
            <option value="refused">{intl.formatMessage({ id: 'operator.audit.outcome.refused' })}</option>
          </select>
        </span>
        <span className="operator-filter">
          <label htmlFor={`${id}-from`}>
            <FormattedMessage id="table.dateFrom" />
          </label>
          <DateField id={`${id}-from`} compact label={intl.formatMessage({ id: 'table.dateFrom' })} value={filters.from ?? ''} max={filters.to || undefined} onChange={(iso) => apply({ from: iso || undefined })} />
        </span>
        <span className="operator-filter">
          <label htmlFor={`${id}-to`}>
            <FormattedMessage id="table.dateTo" />
          </label>
          <DateField id={`${id}-to`} compact label={intl.formatMessage({ id: 'table.dateTo' })} value={filters.to ?? ''} min={filters.from || undefined} onChange={(iso) => apply({ to: iso || undefined })} />
        </span>
        <span className="operator-filter">
          <label htmlFor={`${id}-text`}>
            <FormattedMessage id="operator.filter.text" />
          </label>
          <input id={`${id}-text`} type="search" value={text} maxLength={100} onChange={(event) => setText(event.target.value)} />
        </span>
        <button type="submit" className="button button-primary button-small">
          <FormattedMessage id="operator.filter.apply" />
        </button>
      </form>
      {error && (
        <div className="alert alert-error" role="alert">
          {formatApiError(intl, error)}{' '}
          <button type="button" className="button button-secondary button-small" onClick={() => send({ type: 'REFRESH' })}>
            <FormattedMessage id="clearing.retry" />
          </button>
        </div>
      )}
      {download.error && (
        <div className="alert alert-error" role="alert">
          {download.error}
        </div>
      )}
      <DataTable label={intl.formatMessage({ id: 'operator.tab.audit' })} columns={columns} rows={items} rowKey={(row) => String(row.id)} loading={loading} hideFooter emptyMessage={<FormattedMessage id="operator.audit.empty" />} />
      <div className="data-table-footer">
        <label htmlFor={`${id}-size`}>
          <FormattedMessage id="table.rowsPerPage" />
        </label>
        <select id={`${id}-size`} value={String(limit)} onChange={(event) => send({ type: 'PAGE_SIZE', limit: Number(event.target.value) })}>
          {AUDIT_PAGE_SIZES.map((size) => (
            <option key={size} value={String(size)}>
              {number(size)}
            </option>
          ))}
        </select>
        <span className="data-table-range" aria-live="polite">
          <FormattedMessage id="table.range" values={{ from: number(range.from), to: number(range.to), count: number(range.count) }} />
        </span>
        <span className="data-table-pager">
          <button type="button" className="icon-button" onClick={() => send({ type: 'PAGE', offset: 0 })} disabled={offset === 0 || loading} aria-label={intl.formatMessage({ id: 'table.firstPage' })}>
            «
          </button>
          <button type="button" className="icon-button" onClick={() => send({ type: 'PAGE', offset: Math.max(0, offset - limit) })} disabled={offset === 0 || loading} aria-label={intl.formatMessage({ id: 'table.previousPage' })}>
            ‹
          </button>
          <button type="button" className="icon-button" onClick={() => send({ type: 'PAGE', offset: offset + limit })} disabled={offset + limit >= total || loading} aria-label={intl.formatMessage({ id: 'table.nextPage' })}>
            ›
          </button>
          <button type="button" className="icon-button" onClick={() => send({ type: 'PAGE', offset: lastOffset })} disabled={offset >= lastOffset || loading} aria-label={intl.formatMessage({ id: 'table.lastPage' })}>
            »
          </button>
        </span>
      </div>
    </section>
  );
}
