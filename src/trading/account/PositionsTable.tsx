import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Position } from '../../../protocol/account.ts';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { formatCalendarDate, formatMinor } from '../../i18n/format.ts';

export type PositionAssetLink = (props: { position: Position; children: ReactNode }) => ReactNode;

export interface PositionsTableProps {
  positions: readonly Position[];
  assets: readonly AssetSpecification[];
  amountDecimals: number;
  label: string;
  loading?: boolean;
  /** Wraps the asset code (the page links it to the asset's trading view). */
  AssetLink?: PositionAssetLink;
}

const PlainAsset: PositionAssetLink = ({ children }) => children;

/** Per client and asset: bought, sold, net position, average prices and traded value of this session. */
export function PositionsTable({ positions, assets, amountDecimals, label, loading = false, AssetLink = PlainAsset }: PositionsTableProps) {
  const intl = useIntl();
  const byId = new Map(assets.map((asset) => [asset.id, asset]));
  const qty = (row: Position, value: number) => formatMinor(intl, value, byId.get(row.assetId)?.quantityDecimals ?? 0);
  const price = (row: Position, value: number | null) => (value === null ? '—' : formatMinor(intl, value, byId.get(row.assetId)?.priceDecimals ?? 2));
  const columns: DataTableColumn<Position>[] = [
    { id: 'client', header: <FormattedMessage id="account.positions.client" />, sortValue: (row) => row.clientCode, cell: (row) => <span className="mono">{row.clientCode}</span> },
    {
      id: 'asset',
      header: <FormattedMessage id="account.positions.asset" />,
      sortValue: (row) => byId.get(row.assetId)?.code ?? row.assetId,
      cell: (row) => (
        <AssetLink position={row}>
          <span className="mono">{byId.get(row.assetId)?.code ?? row.assetId}</span>
        </AssetLink>
      ),
    },
    { id: 'session', header: <FormattedMessage id="account.positions.session" />, sortValue: (row) => row.sessionDate, cell: (row) => <span className="small">{formatCalendarDate(intl, row.sessionDate)}</span> },
    { id: 'bought', header: <FormattedMessage id="account.positions.bought" />, align: 'end', sortValue: (row) => row.boughtQty, cell: (row) => <span className="mono">{qty(row, row.boughtQty)}</span> },
    { id: 'avgBuy', header: <FormattedMessage id="account.positions.avgBuy" />, align: 'end', sortValue: (row) => row.avgBuyPrice, cell: (row) => <span className="mono">{price(row, row.avgBuyPrice)}</span> },
    { id: 'sold', header: <FormattedMessage id="account.positions.sold" />, align: 'end', sortValue: (row) => row.soldQty, cell: (row) => <span className="mono">{qty(row, row.soldQty)}</span> },
    { id: 'avgSell', header: <FormattedMessage id="account.positions.avgSell" />, align: 'end', sortValue: (row) => row.avgSellPrice, cell: (row) => <span className="mono">{price(row, row.avgSellPrice)}</span> },
    {
      id: 'net',
      header: <FormattedMessage id="account.positions.net" />,
      align: 'end',
      sortValue: (row) => row.netQty,
      cell: (row) => (
        <span className={`mono net-position ${row.netQty > 0 ? 'net-long' : row.netQty < 0 ? 'net-short' : 'net-flat'}`}>
          {row.netQty > 0 ? '+' : ''}
          {qty(row, row.netQty)}
        </span>
      ),
    },
    { id: 'tradedValue', header: <FormattedMessage id="account.positions.tradedValue" />, align: 'end', sortValue: (row) => row.tradedValue, cell: (row) => <span className="mono">{formatMinor(intl, row.tradedValue, amountDecimals)}</span> },
    { id: 'trades', header: <FormattedMessage id="account.positions.trades" />, align: 'end', sortValue: (row) => row.trades, cell: (row) => intl.formatNumber(row.trades) },
  ];
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={positions}
      rowKey={(row) => `${row.clientCode}|${row.assetId}`}
      loading={loading}
      initialSort={{ columnId: 'asset', direction: 'asc' }}
      initialRowsPerPage={25}
      rowsPerPageOptions={[25, 50, 100, 'all']}
      emptyMessage={<FormattedMessage id="account.positions.empty" />}
    />
  );
}
