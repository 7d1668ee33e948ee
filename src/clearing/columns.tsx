/**
 * Column makers of the clearing tables: each shows the value in the user's language (amounts in the
 * row's currency, times in exchange time, EET) and exports it plain (decimals, ISO dates) to CSV.
 */
import type { IntlShape } from 'react-intl';
import { formatDecimal } from '../../protocol/decimal.ts';
import { CodeCell, type DataTableColumn } from '../components/DataTable.tsx';
import { formatCalendarDate, formatExchangeDateTime, formatMinor } from '../i18n/format.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { formatAmount } from '../trading/account/amounts.ts';

type Header = { id: string; intl: IntlShape; label: MessageKey; priority?: DataTableColumn<unknown>['priority'] };

function base<T>({ id, intl, label, priority }: Header): Pick<DataTableColumn<T>, 'id' | 'header' | 'priority'> {
  return { id, header: intl.formatMessage({ id: label }), ...(priority ? { priority } : {}) };
}

/** A text or code column. */
export function textColumn<T>(header: Header, value: (row: T) => string | null, options: { code?: boolean } = {}): DataTableColumn<T> {
  return {
    ...base<T>(header),
    sortValue: value,
    cell: (row) => {
      const text = value(row);
      if (text === null || text === '') return '—';
      return options.code ? <CodeCell value={text} /> : text;
    },
    csv: value,
  };
}

/** A money amount in minor units, in the row's currency. */
export function amountColumn<T>(header: Header, value: (row: T) => number | null, currency: (row: T) => string, decimals: number): DataTableColumn<T> {
  return {
    ...base<T>(header),
    align: 'end',
    sortValue: value,
    cell: (row) => {
      const minor = value(row);
      return <span className="mono">{minor === null ? '—' : formatAmount(header.intl, minor, decimals, currency(row))}</span>;
    },
    csv: (row) => {
      const minor = value(row);
      return minor === null ? null : formatDecimal(minor, decimals);
    },
  };
}

/** A price or quantity in the asset's minor units. */
export function minorColumn<T>(header: Header, value: (row: T) => number | null, decimals: (row: T) => number): DataTableColumn<T> {
  return {
    ...base<T>(header),
    align: 'end',
    sortValue: value,
    cell: (row) => {
      const minor = value(row);
      return <span className="mono">{minor === null ? '—' : formatMinor(header.intl, minor, decimals(row))}</span>;
    },
    csv: (row) => {
      const minor = value(row);
      return minor === null ? null : formatDecimal(minor, decimals(row));
    },
  };
}

/** A whole number (days, counts). */
export function countColumn<T>(header: Header, value: (row: T) => number): DataTableColumn<T> {
  return { ...base<T>(header), align: 'end', sortValue: value, cell: (row) => <span className="mono">{header.intl.formatNumber(value(row))}</span>, csv: value };
}

/** A calendar date (YYYY-MM-DD): shown in the locale, exported as it is. */
export function dateColumn<T>(header: Header, value: (row: T) => string | null): DataTableColumn<T> {
  return {
    ...base<T>(header),
    sortValue: value,
    cell: (row) => {
      const date = value(row);
      return date === null ? '—' : <time dateTime={date}>{formatCalendarDate(header.intl, date)}</time>;
    },
    csv: value,
  };
}

/** An instant: shown in exchange time (EET), exported as its ISO UTC text. */
export function instantColumn<T>(header: Header, value: (row: T) => string | null): DataTableColumn<T> {
  return {
    ...base<T>(header),
    sortValue: value,
    cell: (row) => {
      const instant = value(row);
      return instant === null ? '—' : <time dateTime={instant} className="small">{formatExchangeDateTime(header.intl, instant)}</time>;
    },
    csv: value,
  };
}

/** A value from a fixed set, shown by its message and exported as its code. */
export function enumColumn<T>(header: Header, value: (row: T) => string, label: (value: string) => MessageKey): DataTableColumn<T> {
  return {
    ...base<T>(header),
    sortValue: (row) => header.intl.formatMessage({ id: label(value(row)) }),
    cell: (row) => header.intl.formatMessage({ id: label(value(row)) }),
    csv: value,
  };
}
