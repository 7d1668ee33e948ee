import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { toApiError } from '../../api/errors.ts';
import type { ClearingList } from '../../clearing/clearing-api.ts';
import { DataTable, type DataTableColumn, type DataTableSort, type RowDate } from '../../components/DataTable.tsx';
import { formatApiError } from '../../i18n/format-error.ts';
import type { MessageKey } from '../../i18n/messages/index.ts';
import type { FiguresState } from '../../trading/account/account-figures.ts';
import { accountTabs, type AccountTabSlug } from './tabs.ts';
import './clearing-tabs.css';

export interface ClearingListCardProps<T> {
  slug: AccountTabSlug;
  state: FiguresState<ClearingList<T>> & { reload: () => void };
  /** The rows to show (the list's items by default; a tab may narrow them). */
  rows?: readonly T[];
  columns: ReadonlyArray<DataTableColumn<T>>;
  rowKey: (row: T) => string;
  dateOf: (row: T) => RowDate;
  initialSort: DataTableSort;
  empty: MessageKey;
  /** Under the title: what the tab shows. */
  note?: ReactNode;
  /** Between the header and the table (the price chart). */
  children?: ReactNode;
}

/** One account tab on a clearing list: its title, the error with a retry, and the table (sort, dates, paging, CSV). */
export function ClearingListCard<T>({ slug, state, rows, columns, rowKey, dateOf, initialSort, empty, note, children }: ClearingListCardProps<T>) {
  const intl = useIntl();
  const tab = accountTabs.find((candidate) => candidate.slug === slug)!;
  const title = intl.formatMessage({ id: tab.label });
  const titleId = `${slug}-title`;
  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="card-header">
        <h2 id={titleId}>{title}</h2>
        {note && <span className="muted small">{note}</span>}
      </div>
      {state.status === 'error' && (
        <div className="alert alert-error" role="alert">
          {formatApiError(intl, toApiError(state.error))}{' '}
          <button type="button" className="button button-secondary button-small" onClick={state.reload}>
            <FormattedMessage id="clearing.retry" />
          </button>
        </div>
      )}
      {children}
      <DataTable
        label={title}
        columns={columns}
        rows={rows ?? state.data?.items ?? []}
        rowKey={rowKey}
        loading={state.status === 'loading'}
        initialSort={initialSort}
        emptyMessage={<FormattedMessage id={empty} />}
        dateOf={dateOf}
        exportName={slug}
      />
    </section>
  );
}
