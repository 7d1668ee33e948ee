import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useMemo, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { csvFileName, saveCsv, toCsv, type CsvValue } from './csv.ts';
import './DataTable.css';
import { DateField } from './date-field/DateField.tsx';

export type SortDirection = 'asc' | 'desc';

export interface DataTableColumn<T> {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable by this value. */
  sortValue?: (row: T) => string | number | null | undefined;
  align?: 'start' | 'end' | 'center';
  /** CSS width, e.g. '12rem'. */
  width?: string;
  /**
   * 1 (default) always shows; 2 hides when the table's box is narrower than 760 px, 3 narrower than
   * 1000 px, 4 narrower than 1600 px (container queries in styles.css), so a table in a narrow box
   * keeps one line a row without scrolling sideways. Put what the row's dialogs show anyway at 2, 3 or 4.
   */
  priority?: 1 | 2 | 3 | 4;
  /** The column's value in a CSV export (plain decimals, ISO dates); columns without one are left out. */
  csv?: (row: T) => CsvValue;
  /** The CSV header when `header` is not plain text; defaults to `header`, else the column's id. */
  csvHeader?: string;
}

/** The class of a column's header and cells: alignment and hiding priority. */
function columnClass(column: { align?: string; priority?: number }): string | undefined {
  const classes = [column.align ? `align-${column.align}` : '', column.priority && column.priority > 1 ? `col-priority-${column.priority}` : ''].filter(Boolean);
  return classes.length > 0 ? classes.join(' ') : undefined;
}

/** A cell cut with an ellipsis says its whole text on hover (set when hovered: nothing to measure until then). */
function titleCutCell(event: PointerEvent<HTMLTableSectionElement>) {
  const cell = (event.target as Element).closest?.('td');
  if (!cell || cell.querySelector('[title]')) return;
  if (cell.scrollWidth > cell.clientWidth) cell.title = cell.textContent ?? '';
  else cell.removeAttribute('title');
}

/**
 * A code in a cell (asset, order, client, transaction): never wraps; cut with an ellipsis when longer
 * than the column allows, with the full code on hover (title) and for screen readers (the text is whole).
 */
export function CodeCell({ value, className }: { value: string; className?: string }) {
  return (
    <span className={className ? `cell-code ${className}` : 'cell-code'} title={value}>
      {value}
    </span>
  );
}

export interface DataTableSort {
  columnId: string;
  direction: SortDirection;
}

/** 'all' shows every row on one page (virtualised when long). */
export type RowsPerPage = number | 'all';
export const DEFAULT_ROWS_PER_PAGE_OPTIONS: readonly RowsPerPage[] = [10, 25, 50, 100, 'all'];

export interface DataTableProps<T> {
  /** Accessible name of the table (shown as its caption when `showCaption`). */
  label: string;
  showCaption?: boolean;
  columns: ReadonlyArray<DataTableColumn<T>>;
  rows: readonly T[];
  rowKey: (row: T) => string;
  loading?: boolean;
  /** What an empty table says; defaults to 'No data to show'. */
  emptyMessage?: ReactNode;
  initialSort?: DataTableSort;
  rowsPerPageOptions?: readonly RowsPerPage[];
  initialRowsPerPage?: RowsPerPage;
  /** Hides the footer (for short fixed lists). */
  hideFooter?: boolean;
  /** Pages with more rows than this render only the rows in view (@tanstack/react-virtual). */
  virtualizeAbove?: number;
  /** Height of the scrolling body of a virtualised page, in px. */
  maxBodyHeight?: number;
  /** Row height of a virtualised page, in px. */
  rowHeight?: number;
  /** The row's exchange calendar date (YYYY-MM-DD) or period: shows a From/To filter over it. */
  dateOf?: (row: T) => RowDate;
  /** Shows 'Export CSV' of the filtered, sorted rows (every page), to `<exportName>-<date>.csv`. */
  exportName?: string;
}

/** A row's exchange calendar date (YYYY-MM-DD), or the first and last day of the period it covers (a month). */
export type RowDate = string | readonly [string, string] | null;

/** Rows whose date (or period) meets [from, to], either end open when empty; rows without a date only pass an open range. */
export function filterByDate<T>(rows: readonly T[], dateOf: (row: T) => RowDate, from: string, to: string): readonly T[] {
  if (from === '' && to === '') return rows;
  return rows.filter((row) => {
    const date = dateOf(row);
    if (date === null) return false;
    const [start, end] = typeof date === 'string' ? [date, date] : date;
    return (from === '' || end >= from) && (to === '' || start <= to);
  });
}

/** The CSV text of rows, with the columns that have a `csv` value. */
export function tableCsv<T>(columns: ReadonlyArray<DataTableColumn<T>>, rows: readonly T[]): string {
  const exported = columns.filter((column) => column.csv);
  const headers = exported.map((column) => column.csvHeader ?? (typeof column.header === 'string' ? column.header : column.id));
  return toCsv(
    headers,
    rows.map((row) => exported.map((column) => column.csv!(row))),
  );
}

const collators = new Map<string, Intl.Collator>();
function collator(locale: string): Intl.Collator {
  let found = collators.get(locale);
  if (!found) {
    found = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
    collators.set(locale, found);
  }
  return found;
}

/** Stable sort; empty values go last whatever the direction. */
export function sortRows<T>(
  rows: readonly T[],
  value: (row: T) => string | number | null | undefined,
  direction: SortDirection,
  locale = 'en',
): T[] {
  const compare = collator(locale).compare;
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, key: value(row) }))
    .sort((a, b) => {
      const aEmpty = a.key === null || a.key === undefined || a.key === '';
      const bEmpty = b.key === null || b.key === undefined || b.key === '';
      if (aEmpty || bEmpty) return aEmpty === bEmpty ? a.index - b.index : aEmpty ? 1 : -1;
      const order =
        typeof a.key === 'number' && typeof b.key === 'number' ? a.key - b.key : compare(String(a.key), String(b.key));
      return order === 0 ? a.index - b.index : sign * order;
    })
    .map((entry) => entry.row);
}

/** The rows of one page and the numbers of the footer 'a-b of c' (1-based, inclusive). */
export function pageOf<T>(rows: readonly T[], page: number, rowsPerPage: RowsPerPage) {
  const count = rows.length;
  if (rowsPerPage === 'all' || count === 0) {
    return { rows: rows.slice(), from: count === 0 ? 0 : 1, to: count, count, pageCount: 1, page: 0 };
  }
  const pageCount = Math.max(1, Math.ceil(count / rowsPerPage));
  const current = Math.min(Math.max(0, page), pageCount - 1);
  const start = current * rowsPerPage;
  const slice = rows.slice(start, start + rowsPerPage);
  return { rows: slice, from: start + 1, to: start + slice.length, count, pageCount, page: current };
}

/**
 * The generic data table (SPEC §2): sortable columns, paging with rows-per-page options and the
 * footer 'a-b of c', empty and loading states, and virtualised rows for long pages.
 */
export function DataTable<T>({
  label,
  showCaption = false,
  columns,
  rows,
  rowKey,
  loading = false,
  emptyMessage,
  initialSort,
  rowsPerPageOptions = DEFAULT_ROWS_PER_PAGE_OPTIONS,
  initialRowsPerPage,
  hideFooter = false,
  virtualizeAbove = 50,
  maxBodyHeight = 480,
  rowHeight = 41,
  dateOf,
  exportName,
}: DataTableProps<T>) {
  const intl = useIntl();
  const selectId = useId();
  const fromId = useId();
  const toId = useId();
  const [sort, setSort] = useState<DataTableSort | null>(initialSort ?? null);
  const [rowsPerPage, setRowsPerPage] = useState<RowsPerPage>(initialRowsPerPage ?? rowsPerPageOptions[0] ?? 10);
  const [page, setPage] = useState(0);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');

  const filtered = useMemo(() => (dateOf ? filterByDate(rows, dateOf, from, to) : rows), [rows, dateOf, from, to]);
  const sorted = useMemo(() => {
    const column = sort ? columns.find((candidate) => candidate.id === sort.columnId) : undefined;
    return column?.sortValue && sort ? sortRows(filtered, column.sortValue, sort.direction, intl.locale) : filtered;
  }, [filtered, columns, sort, intl.locale]);

  const current = pageOf(sorted, hideFooter ? 0 : page, hideFooter ? 'all' : rowsPerPage);
  useEffect(() => {
    if (current.page !== page) setPage(current.page);
  }, [current.page, page]);

  const virtual = current.rows.length > virtualizeAbove;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: virtual ? current.rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    initialRect: { width: 0, height: maxBodyHeight },
  });

  function toggleSort(columnId: string) {
    setSort((previous) =>
      previous?.columnId === columnId
        ? { columnId, direction: previous.direction === 'asc' ? 'desc' : 'asc' }
        : { columnId, direction: 'asc' },
    );
    setPage(0);
  }

  const number = (value: number) => intl.formatNumber(value);
  // Virtualised rows have a fixed height (no per-row measuring), so the scroll size is exact.
  const renderRow = (row: T, index?: number) => (
    <tr key={rowKey(row)} data-row-key={rowKey(row)} data-index={index} style={index === undefined ? undefined : { height: rowHeight }}>
      {columns.map((column) => (
        <td key={column.id} className={columnClass(column)}>
          {column.cell(row)}
        </td>
      ))}
    </tr>
  );

  let body: ReactNode;
  if (current.rows.length === 0) {
    body = (
      <tr className="data-table-state">
        <td colSpan={columns.length}>
          {loading ? (
            <span className="spinner-line">
              <span className="spinner" aria-hidden="true" />
              <FormattedMessage id="table.loading" />
            </span>
          ) : (
            (emptyMessage ?? <FormattedMessage id="table.empty" />)
          )}
        </td>
      </tr>
    );
  } else if (virtual) {
    const items = virtualizer.getVirtualItems();
    const before = items[0]?.start ?? 0;
    const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
    body = (
      <>
        {before > 0 && (
          <tr aria-hidden="true" className="data-table-spacer">
            <td colSpan={columns.length} style={{ height: before }} />
          </tr>
        )}
        {items.map((item) => {
          const row = current.rows[item.index];
          return row === undefined ? null : renderRow(row, item.index);
        })}
        {after > 0 && (
          <tr aria-hidden="true" className="data-table-spacer">
            <td colSpan={columns.length} style={{ height: after }} />
          </tr>
        )}
      </>
    );
  } else {
    body = current.rows.map((row) => renderRow(row));
  }

  const lastPage = current.pageCount - 1;
  const toolbar = (dateOf || exportName) && (
    <div className="data-table-toolbar">
      {dateOf && (
        <span className="data-table-dates" role="group" aria-label={intl.formatMessage({ id: 'table.dateRange' })}>
          <label htmlFor={fromId}>
            <FormattedMessage id="table.dateFrom" />
          </label>
          <DateField
            id={fromId}
            compact
            label={intl.formatMessage({ id: 'table.dateFrom' })}
            value={from}
            max={to || undefined}
            onChange={(iso) => {
              setFrom(iso);
              setPage(0);
            }}
          />
          <label htmlFor={toId}>
            <FormattedMessage id="table.dateTo" />
          </label>
          <DateField
            id={toId}
            compact
            label={intl.formatMessage({ id: 'table.dateTo' })}
            value={to}
            min={from || undefined}
            onChange={(iso) => {
              setTo(iso);
              setPage(0);
            }}
          />
        </span>
      )}
      {exportName && (
        <button type="button" className="button button-secondary button-small" disabled={sorted.length === 0} onClick={() => saveCsv(csvFileName(exportName), tableCsv(columns, sorted))}>
          <FormattedMessage id="table.exportCsv" />
        </button>
      )}
    </div>
  );
  return (
    <div className="data-table">
      {toolbar}
      <div
        ref={scrollRef}
        className={virtual ? 'data-table-scroll data-table-virtual' : 'data-table-scroll'}
        style={virtual ? { maxHeight: maxBodyHeight } : undefined}
      >
        <table aria-label={label} aria-busy={loading} aria-rowcount={virtual ? current.rows.length + 1 : undefined}>
          {showCaption && <caption>{label}</caption>}
          <thead>
            <tr>
              {columns.map((column) => {
                const sorted = sort?.columnId === column.id ? sort.direction : null;
                return (
                  <th
                    key={column.id}
                    scope="col"
                    style={column.width ? { width: column.width } : undefined}
                    className={columnClass(column)}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : column.sortValue ? 'none' : undefined}
                  >
                    {column.sortValue ? (
                      <button type="button" className="sort-button" onClick={() => toggleSort(column.id)}>
                        {column.header}
                        <span className={`sort-icon${sorted ? ' sort-active' : ''}`} aria-hidden="true">
                          {sorted === 'desc' ? '▼' : '▲'}
                        </span>
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody onPointerOver={titleCutCell}>{body}</tbody>
        </table>
      </div>
      {!hideFooter && (
        <div className="data-table-footer">
          <label htmlFor={selectId}>
            <FormattedMessage id="table.rowsPerPage" />
          </label>
          <select
            id={selectId}
            value={String(rowsPerPage)}
            onChange={(event) => {
              const value = event.target.value;
              setRowsPerPage(value === 'all' ? 'all' : Number(value));
              setPage(0);
            }}
          >
            {rowsPerPageOptions.map((option) => (
              <option key={String(option)} value={String(option)}>
                {option === 'all' ? intl.formatMessage({ id: 'table.all' }) : number(option)}
              </option>
            ))}
          </select>
          <span className="data-table-range" aria-live="polite">
            <FormattedMessage
              id="table.range"
              values={{ from: number(current.from), to: number(current.to), count: number(current.count) }}
            />
          </span>
          <span className="data-table-pager">
            <button
              type="button"
              className="icon-button"
              onClick={() => setPage(0)}
              disabled={current.page === 0}
              aria-label={intl.formatMessage({ id: 'table.firstPage' })}
            >
              «
            </button>
            <button
              type="button"
              className="icon-button"
              onClick={() => setPage(current.page - 1)}
              disabled={current.page === 0}
              aria-label={intl.formatMessage({ id: 'table.previousPage' })}
            >
              ‹
            </button>
            <button
              type="button"
              className="icon-button"
              onClick={() => setPage(current.page + 1)}
              disabled={current.page >= lastPage}
              aria-label={intl.formatMessage({ id: 'table.nextPage' })}
            >
              ›
            </button>
            <button
              type="button"
              className="icon-button"
              onClick={() => setPage(lastPage)}
              disabled={current.page >= lastPage}
              aria-label={intl.formatMessage({ id: 'table.lastPage' })}
            >
              »
            </button>
          </span>
        </div>
      )}
    </div>
  );
}
