import { useIntl } from 'react-intl';
import { CLEARING_AMOUNT_DECIMALS, type Warranty, type WarrantyKind, type WarrantyStatus } from '../../../protocol/clearing.ts';
import { fetchWarranties } from '../../clearing/clearing-api.ts';
import { useClearingData } from '../../clearing/clearing-live.ts';
import { amountColumn, dateColumn, enumColumn, instantColumn, textColumn } from '../../clearing/columns.tsx';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { warrantyKindLabels, warrantyStatusLabels } from '../../clearing/labels.ts';
import { ClearingListCard } from './ClearingListCard.tsx';

/** Warranties (collateral) of the user's clients: the ones valid today make the clearing limit. */
export function WarrantiesTab() {
  const intl = useIntl();
  const state = useClearingData(fetchWarranties, ['warranty']);
  const decimals = state.data?.amountDecimals ?? CLEARING_AMOUNT_DECIMALS;
  const columns: DataTableColumn<Warranty>[] = [
    textColumn({ id: 'client', intl, label: 'clearing.col.client' }, (row) => row.clientCode, { code: true }),
    textColumn({ id: 'number', intl, label: 'clearing.col.warrantyNumber' }, (row) => row.warrantyNumber, { code: true }),
    textColumn({ id: 'name', intl, label: 'clearing.col.warrantyName', priority: 2 }, (row) => row.warrantyName),
    enumColumn({ id: 'kind', intl, label: 'clearing.col.warrantyKind', priority: 3 }, (row) => row.kind, (kind) => warrantyKindLabels[kind as WarrantyKind]),
    dateColumn({ id: 'deposit', intl, label: 'clearing.col.depositDate' }, (row) => row.depositDate),
    dateColumn({ id: 'validity', intl, label: 'clearing.col.validityDate' }, (row) => row.validityDate),
    amountColumn({ id: 'value', intl, label: 'clearing.col.value' }, (row) => row.value, (row) => row.currency, decimals),
    enumColumn({ id: 'status', intl, label: 'clearing.col.status' }, (row) => row.status, (status) => warrantyStatusLabels[status as WarrantyStatus]),
    instantColumn({ id: 'released', intl, label: 'clearing.col.releasedAt', priority: 3 }, (row) => row.releasedAt),
  ];
  return (
    <ClearingListCard
      slug="warranties"
      state={state}
      columns={columns}
      rowKey={(row) => row.clientWarrantyId}
      dateOf={(row) => row.depositDate}
      initialSort={{ columnId: 'validity', direction: 'desc' }}
      empty="clearing.empty.warranties"
      note={intl.formatMessage({ id: 'clearing.note.warranties' })}
    />
  );
}
