import { useIntl } from 'react-intl';
import type { FinalSettlementPrice } from '../../../protocol/clearing.ts';
import { fetchFinalSettlementPrices } from '../../clearing/clearing-api.ts';
import { useClearingData } from '../../clearing/clearing-live.ts';
import { dateColumn, instantColumn, minorColumn, textColumn } from '../../clearing/columns.tsx';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { ClearingListCard } from './ClearingListCard.tsx';

/** Final settlement prices: one per contract at its expiry, with the prices it was set from. */
export function FinalSettlementPriceTab() {
  const intl = useIntl();
  const state = useClearingData(fetchFinalSettlementPrices, ['settlement_price', 'settlement']);
  const decimals = (row: FinalSettlementPrice) => row.priceDecimals;
  const columns: DataTableColumn<FinalSettlementPrice>[] = [
    dateColumn({ id: 'session', intl, label: 'clearing.col.expiryDate' }, (row) => row.sessionDate),
    textColumn({ id: 'asset', intl, label: 'clearing.col.asset' }, (row) => row.assetName, { code: true }),
    minorColumn({ id: 'final', intl, label: 'clearing.col.finalSettlementPrice' }, (row) => row.finalSettlementPrice, decimals),
    minorColumn({ id: 'daily', intl, label: 'clearing.col.dailySettlementPrice' }, (row) => row.dailySettlementPrice, decimals),
    minorColumn({ id: 'consultation', intl, label: 'clearing.col.consultationPrice', priority: 2 }, (row) => row.consultationPrice, decimals),
    minorColumn({ id: 'liquidation', intl, label: 'clearing.col.priceFromLiquidation', priority: 2 }, (row) => row.priceFromLiquidation, decimals),
    instantColumn({ id: 'computed', intl, label: 'clearing.col.computedAt', priority: 3 }, (row) => row.computedAt),
  ];
  return (
    <ClearingListCard
      slug="final-settlement-price"
      state={state}
      columns={columns}
      rowKey={(row) => row.finalSettlementPriceId}
      dateOf={(row) => row.sessionDate}
      initialSort={{ columnId: 'session', direction: 'desc' }}
      empty="clearing.empty.finalSettlementPrice"
    />
  );
}
