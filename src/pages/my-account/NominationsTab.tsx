import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Nomination } from '../../../protocol/clearing.ts';
import { formatDecimal, parseDecimal } from '../../../protocol/decimal.ts';
import { toApiError } from '../../api/errors.ts';
import { fetchNominations, updateNomination } from '../../clearing/clearing-api.ts';
import { useClearingData } from '../../clearing/clearing-live.ts';
import { dateColumn, enumColumn, instantColumn, minorColumn, textColumn } from '../../clearing/columns.tsx';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import { formatMinor } from '../../i18n/format.ts';
import { useNow } from '../../trading/live.ts';
import { ClearingListCard } from './ClearingListCard.tsx';

/** Editable while the server has not locked it and its deadline has not passed on this clock. */
export function isNominationOpen(row: Nomination, now: number): boolean {
  return !row.locked && now < Date.parse(row.deadline);
}

/** The quantity as the reader writes it, without grouping ('240,000' in Romanian, '240.000' in English). */
function editableQuantity(locale: string, minor: number, decimals: number): string {
  const plain = formatDecimal(minor, decimals);
  return locale === 'ro' ? plain.replace('.', ',') : plain;
}

/** The nominated quantity of one row: an input and Save while open, the figure once locked. */
function NominatedQtyCell({ row, open, onSaved }: { row: Nomination; open: boolean; onSaved: (row: Nomination) => void }) {
  const intl = useIntl();
  const [text, setText] = useState(() => editableQuantity(intl.locale, row.nominatedQty, row.quantityDecimals));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!open) return <span className="mono">{formatMinor(intl, row.nominatedQty, row.quantityDecimals)}</span>;
  // Either mark is the decimal one (the input shows no grouping).
  const parsed = parseDecimal(text.trim().replace(',', '.'), row.quantityDecimals);
  const valid = parsed.ok && parsed.value >= 0;
  async function save() {
    if (!parsed.ok) return;
    setBusy(true);
    setError(null);
    try {
      const saved = await updateNomination(row.nominationId, parsed.value);
      setText(editableQuantity(intl.locale, saved.nominatedQty, saved.quantityDecimals));
      onSaved(saved);
    } catch (cause) {
      setError(formatApiError(intl, toApiError(cause)));
    } finally {
      setBusy(false);
    }
  }
  const label = intl.formatMessage({ id: 'clearing.nomination.quantityFor' }, { asset: row.assetName, day: row.deliveryDay });
  return (
    <form
      className="nomination-edit"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <input
        className="mono"
        inputMode="decimal"
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-label={label}
        aria-invalid={!valid}
        size={10}
      />
      <button type="submit" className="button button-secondary button-small" disabled={busy || !valid || (parsed.ok && parsed.value === row.nominatedQty)} aria-busy={busy}>
        <FormattedMessage id="clearing.nomination.save" />
      </button>
      {error && (
        <span className="field-error small" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

/** Nominations: the quantity per delivery day each physical transaction nominates to the transmission operator. */
export function NominationsTab() {
  const intl = useIntl();
  const state = useClearingData(fetchNominations, ['nomination', 'settlement']);
  const now = useNow(true, 15_000);
  const [saved, setSaved] = useState<ReadonlyMap<string, Nomination>>(new Map());
  // A saved row shows at once; the list's own copy wins once it is as new.
  const rows = useMemo(
    () =>
      (state.data?.items ?? []).map((row) => {
        const mine = saved.get(row.nominationId);
        return mine && mine.updatedAt > row.updatedAt ? mine : row;
      }),
    [state.data, saved],
  );
  const onSaved = (row: Nomination) => setSaved((previous) => new Map(previous).set(row.nominationId, row));
  const qtyDecimals = (row: Nomination) => row.quantityDecimals;
  const columns: DataTableColumn<Nomination>[] = [
    dateColumn({ id: 'day', intl, label: 'clearing.col.deliveryDay' }, (row) => row.deliveryDay),
    textColumn({ id: 'transaction', intl, label: 'clearing.col.transactionId', priority: 2 }, (row) => row.transactionId, { code: true }),
    textColumn({ id: 'client', intl, label: 'clearing.col.client', priority: 3 }, (row) => row.clientCode, { code: true }),
    textColumn({ id: 'asset', intl, label: 'clearing.col.asset' }, (row) => row.assetName, { code: true }),
    enumColumn({ id: 'way', intl, label: 'clearing.col.way', priority: 3 }, (row) => row.way, (way) => enumLabelKey('way', way as Nomination['way'])),
    minorColumn({ id: 'contracted', intl, label: 'clearing.col.contractedQty' }, (row) => row.contractedQty, qtyDecimals),
    {
      ...minorColumn({ id: 'nominated', intl, label: 'clearing.col.nominatedQty' }, (row) => row.nominatedQty, qtyDecimals),
      cell: (row) => <NominatedQtyCell key={`${row.nominationId}:${row.updatedAt}`} row={row} open={isNominationOpen(row, now)} onSaved={onSaved} />,
    },
    textColumn({ id: 'unit', intl, label: 'clearing.col.unit', priority: 3 }, (row) => row.unit),
    instantColumn({ id: 'deadline', intl, label: 'clearing.col.deadline' }, (row) => row.deadline),
    {
      id: 'state',
      header: intl.formatMessage({ id: 'clearing.col.status' }),
      sortValue: (row) => (isNominationOpen(row, now) ? 0 : 1),
      cell: (row) =>
        isNominationOpen(row, now) ? (
          <span className="chip chip-warning">
            <FormattedMessage id="clearing.nomination.open" />
          </span>
        ) : (
          <span className="chip">
            <FormattedMessage id="clearing.nomination.locked" />
          </span>
        ),
      csv: (row) => (isNominationOpen(row, now) ? 'open' : 'locked'),
    },
    instantColumn({ id: 'updated', intl, label: 'clearing.col.updatedAt', priority: 3 }, (row) => row.updatedAt),
  ];
  return (
    <ClearingListCard
      slug="nominations"
      state={state}
      rows={rows}
      columns={columns}
      rowKey={(row) => row.nominationId}
      dateOf={(row) => row.deliveryDay}
      initialSort={{ columnId: 'day', direction: 'asc' }}
      empty="clearing.empty.nominations"
      note={intl.formatMessage({ id: 'clearing.note.nominations' })}
    />
  );
}
