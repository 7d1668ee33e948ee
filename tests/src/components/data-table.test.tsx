// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CodeCell, DataTable, filterByDate, pageOf, sortRows, tableCsv, type DataTableColumn } from '../../../src/components/DataTable.tsx';
import { WithIntl } from './intl.tsx';

interface Row {
  id: string;
  name: string;
  qty: number;
}

const columns: DataTableColumn<Row>[] = [
  { id: 'name', header: 'Name', sortValue: (row) => row.name, cell: (row) => row.name },
  { id: 'qty', header: 'Quantity', align: 'end', sortValue: (row) => row.qty, cell: (row) => row.qty },
  { id: 'note', header: 'Note', cell: () => '-' },
];

const rows = (count: number): Row[] =>
  Array.from({ length: count }, (_, index) => ({ id: `r${index + 1}`, name: `Item ${index + 1}`, qty: (index * 7) % 13 }));

function renderTable(props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}, locale: 'en' | 'ro' = 'en') {
  return render(
    <WithIntl locale={locale}>
      <DataTable<Row> label="Items" columns={columns} rows={rows(23)} rowKey={(row) => row.id} {...props} />
    </WithIntl>,
  );
}

function bodyRows(): HTMLElement[] {
  const table = screen.getByRole('table', { name: 'Items' });
  return within(table).getAllByRole('row').slice(1);
}

function firstCells(): string[] {
  return bodyRows().map((row) => within(row).getAllByRole('cell')[0]?.textContent ?? '');
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('DataTable', () => {
  it("pages the rows and says 'a-b of c' in the footer", () => {
    renderTable();
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText('1-10 of 23')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('11-20 of 23')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Last page' }));
    expect(screen.getByText('21-23 of 23')).toBeTruthy();
    expect(bodyRows()).toHaveLength(3);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'First page' }));
    expect(screen.getByText('1-10 of 23')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('changes the rows per page from its options and goes back to the first page', () => {
    renderTable();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    const select = screen.getByLabelText('Rows per page') as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent)).toEqual(['10', '25', '50', '100', 'All']);
    fireEvent.change(select, { target: { value: '25' } });
    expect(screen.getByText('1-23 of 23')).toBeTruthy();
    expect(bodyRows()).toHaveLength(23);
  });

  it('writes the footer in Romanian', () => {
    renderTable({}, 'ro');
    expect(screen.getByText('1-10 din 23')).toBeTruthy();
    expect(screen.getByLabelText('Rânduri pe pagină')).toBeTruthy();
  });

  it('sorts by a column, ascending then descending, and marks it with aria-sort', () => {
    renderTable({ rows: rows(5) });
    const qtyHeader = screen.getByRole('columnheader', { name: /Quantity/ });
    expect(qtyHeader.getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: 'Note' }).getAttribute('aria-sort')).toBeNull();

    fireEvent.click(within(qtyHeader).getByRole('button'));
    expect(qtyHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(bodyRows().map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual(['0', '1', '2', '7', '8']);

    fireEvent.click(within(qtyHeader).getByRole('button'));
    expect(qtyHeader.getAttribute('aria-sort')).toBe('descending');
    expect(bodyRows().map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual(['8', '7', '2', '1', '0']);
  });

  it('sorts text the way people read numbers in it (Item 2 before Item 10)', () => {
    renderTable({ rows: rows(12), initialSort: { columnId: 'name', direction: 'asc' }, initialRowsPerPage: 'all' });
    expect(firstCells().slice(0, 3)).toEqual(['Item 1', 'Item 2', 'Item 3']);
    expect(firstCells().at(-1)).toBe('Item 12');
  });

  it('shows its empty state, the default or a given message', () => {
    renderTable({ rows: [] });
    expect(screen.getByText('No data to show')).toBeTruthy();
    expect(screen.getByText('0-0 of 0')).toBeTruthy();
    cleanup();
    renderTable({ rows: [], emptyMessage: 'You have no active orders.' });
    expect(screen.getByText('You have no active orders.')).toBeTruthy();
  });

  it('shows its loading state while there are no rows yet', () => {
    renderTable({ rows: [], loading: true });
    expect(screen.getByText('Loading data…')).toBeTruthy();
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
  });

  it('renders only the rows in view of a long page (virtualised)', () => {
    // jsdom has no layout: give the scrolling body the height a browser would.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('data-table-virtual') ? 400 : 0;
    });
    renderTable({ rows: rows(2000), initialRowsPerPage: 'all', rowHeight: 40, maxBodyHeight: 400 });
    expect(screen.getByText('1-2,000 of 2,000')).toBeTruthy();
    const rendered = bodyRows().filter((row) => !row.classList.contains('data-table-spacer'));
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(60);
    expect(screen.getByRole('table').getAttribute('aria-rowcount')).toBe('2001');
  });
});

describe('dense tables', () => {
  const dense: DataTableColumn<Row>[] = [
    { id: 'code', header: 'Code', cell: (row) => <CodeCell value={`CODE-${row.id}`} /> },
    { id: 'name', header: 'Name', priority: 2, cell: (row) => row.name },
    { id: 'qty', header: 'Quantity', align: 'end', priority: 3, cell: (row) => row.qty },
    { id: 'note', header: 'Note', cell: () => 'a note long enough to be cut' },
  ];

  it('marks the columns that give way in a narrow box, header and cells alike', () => {
    renderTable({ columns: dense, rows: rows(2), hideFooter: true });
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((th) => th.className)).toEqual(['', 'col-priority-2', 'align-end col-priority-3', '']);
    const cells = within(bodyRows()[0]!).getAllByRole('cell');
    expect(cells.map((td) => td.className)).toEqual(['', 'col-priority-2', 'align-end col-priority-3', '']);
  });

  it('gives a code its whole text as a title', () => {
    renderTable({ columns: dense, rows: rows(2), hideFooter: true });
    const code = screen.getByText('CODE-r2');
    expect(code.className).toBe('cell-code');
    expect(code.getAttribute('title')).toBe('CODE-r2');
  });

  it('titles a cell cut by its ellipsis when hovered, and only then', () => {
    renderTable({ columns: dense, rows: rows(2), hideFooter: true });
    const note = within(bodyRows()[0]!).getAllByRole('cell')[3]!;
    // jsdom lays nothing out: the cell says how wide its text is and how wide it is drawn.
    Object.defineProperty(note, 'clientWidth', { configurable: true, value: 80 });
    Object.defineProperty(note, 'scrollWidth', { configurable: true, value: 80 });
    fireEvent.pointerOver(note);
    expect(note.hasAttribute('title')).toBe(false);
    Object.defineProperty(note, 'scrollWidth', { configurable: true, value: 190 });
    fireEvent.pointerOver(note);
    expect(note.getAttribute('title')).toBe('a note long enough to be cut');
    // A cell whose content has its own title (a code) is left alone.
    const codeCell = within(bodyRows()[0]!).getAllByRole('cell')[0]!;
    Object.defineProperty(codeCell, 'scrollWidth', { configurable: true, value: 500 });
    fireEvent.pointerOver(codeCell);
    expect(codeCell.hasAttribute('title')).toBe(false);
  });
});

describe('table helpers', () => {
  it('computes pages and the a-b of c numbers', () => {
    const items = Array.from({ length: 23 }, (_, index) => index);
    expect(pageOf(items, 0, 10)).toMatchObject({ from: 1, to: 10, count: 23, pageCount: 3 });
    expect(pageOf(items, 2, 10)).toMatchObject({ from: 21, to: 23, page: 2 });
    expect(pageOf(items, 9, 10)).toMatchObject({ from: 21, to: 23, page: 2 }); // clamped
    expect(pageOf([], 0, 10)).toMatchObject({ from: 0, to: 0, count: 0 });
    expect(pageOf(items, 0, 'all')).toMatchObject({ from: 1, to: 23, pageCount: 1 });
  });

  it('sorts stably and keeps empty values last', () => {
    const data = [
      { k: 'b', v: 2 },
      { k: 'a', v: null },
      { k: 'c', v: 1 },
      { k: 'd', v: 2 },
    ];
    expect(sortRows(data, (row) => row.v, 'asc').map((row) => row.k)).toEqual(['c', 'b', 'd', 'a']);
    expect(sortRows(data, (row) => row.v, 'desc').map((row) => row.k)).toEqual(['b', 'd', 'c', 'a']);
  });
});

describe('DataTable date range and CSV export', () => {
  interface Dated {
    id: string;
    day: string;
    amount: number;
  }
  const dated: Dated[] = Array.from({ length: 12 }, (_, index) => ({ id: `d${index + 1}`, day: `2026-11-${String(index + 1).padStart(2, '0')}`, amount: (index + 1) * 150 }));
  const datedColumns: DataTableColumn<Dated>[] = [
    { id: 'day', header: 'Day', sortValue: (row) => row.day, cell: (row) => row.day, csv: (row) => row.day },
    { id: 'amount', header: <b>Amount</b>, csvHeader: 'Amount', sortValue: (row) => row.amount, cell: (row) => row.amount, csv: (row) => (row.amount / 100).toFixed(2) },
    { id: 'action', header: 'Action', cell: () => 'open' },
  ];

  function renderDated(props: Partial<Parameters<typeof DataTable<Dated>>[0]> = {}) {
    return render(
      <WithIntl>
        <DataTable<Dated> label="Dated" columns={datedColumns} rows={dated} rowKey={(row) => row.id} dateOf={(row) => row.day} exportName="dated" {...props} />
      </WithIntl>,
    );
  }

  it('filters by a From/To range, back to the first page, with the footer counting what is left', () => {
    renderDated();
    expect(screen.getByText('1-10 of 12')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('11-12 of 12')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '03/11/2026' } });
    expect(screen.getByText('1-10 of 10')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '05/11/2026' } });
    expect(screen.getByText('1-3 of 3')).toBeTruthy();
    // The From calendar (the browser's picker behind the button) offers no day after To.
    const pickers = [...document.querySelectorAll<HTMLInputElement>('.data-table-dates input[type="date"]')];
    expect(pickers.map((picker) => [picker.min, picker.max])).toEqual([
      ['', '2026-11-05'],
      ['2026-11-03', ''],
    ]);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '' } });
    expect(screen.getByText('1-5 of 5')).toBeTruthy();
  });

  it('has no toolbar unless asked for one; the export is off while nothing is left', () => {
    renderTable();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    expect(screen.queryByLabelText('From')).toBeNull();
    cleanup();
    renderDated({ rows: [] });
    expect((screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('exports every page of the filtered, sorted rows, with the columns that have a CSV value', async () => {
    let saved: Blob | null = null;
    let fileName = '';
    URL.createObjectURL = (value: Blob | MediaSource) => {
      saved = value as Blob;
      return 'blob:x';
    };
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      fileName = this.download;
    });
    renderDated();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-02' } });
    fireEvent.click(within(screen.getByRole('table', { name: 'Dated' })).getByRole('button', { name: 'Amount' }));
    fireEvent.click(within(screen.getByRole('table', { name: 'Dated' })).getByRole('button', { name: 'Amount' }));
    // 11 rows left, 10 on the page shown: the file has all 11, largest amount first.
    expect(screen.getByText('1-10 of 11')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(fileName).toMatch(/^dated-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await (saved as unknown as Blob).arrayBuffer());
    const lines = text.split('\r\n');
    expect(lines.slice(0, 3)).toEqual(['\uFEFFDay,Amount', '2026-11-12,18.00', '2026-11-11,16.50']);
    expect(lines.slice(-3)).toEqual(['2026-11-03,4.50', '2026-11-02,3.00', '']);
    expect(lines).toHaveLength(13);
  });

  it('keeps a row whose period meets the range, and drops undated rows once a range is set', () => {
    const rows = [{ period: ['2026-10-01', '2026-10-31'] as const }, { period: null }, { period: '2026-11-02' }];
    const dateOf = (row: (typeof rows)[number]) => row.period;
    expect(filterByDate(rows, dateOf, '', '')).toHaveLength(3);
    expect(filterByDate(rows, dateOf, '2026-10-15', '')).toEqual([rows[0], rows[2]]);
    expect(filterByDate(rows, dateOf, '', '2026-10-31')).toEqual([rows[0]]);
    expect(filterByDate(rows, dateOf, '2026-11-01', '2026-11-01')).toEqual([]);
    expect(tableCsv(datedColumns, [])).toBe('\uFEFFDay,Amount\r\n');
  });
});
