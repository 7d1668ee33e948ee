import { useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { DailySettlementPrice, SettlementPriceSource } from '../../../protocol/clearing.ts';
import { fetchDailySettlementPrices } from '../../clearing/clearing-api.ts';
import { useClearingData } from '../../clearing/clearing-live.ts';
import { dateColumn, enumColumn, minorColumn, textColumn } from '../../clearing/columns.tsx';
import { SettlementPriceChart } from '../../clearing/SettlementPriceChart.tsx';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { priceSourceLabels } from '../../clearing/labels.ts';
import { ClearingListCard } from './ClearingListCard.tsx';

/** The variation in basis points as a percentage ('+1,25 %'); exported as the percentage's plain decimal. */
function variationPercent(bps: number): string {
  const sign = bps < 0 ? '-' : '';
  const magnitude = Math.abs(bps);
  return `${sign}${Math.trunc(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`;
}

/** Daily settlement prices per asset and session, where each came from, and the chart of one asset's history. */
export function DailySettlementPriceTab() {
  const intl = useIntl();
  const selectId = useId();
  const state = useClearingData(fetchDailySettlementPrices, ['settlement_price', 'settlement']);
  const rows = useMemo(() => state.data?.items ?? [], [state.data]);
  const assets = useMemo(() => {
    const byId = new Map<string, { assetId: string; assetName: string; priceDecimals: number }>();
    for (const row of rows) if (!byId.has(row.assetId)) byId.set(row.assetId, { assetId: row.assetId, assetName: row.assetName, priceDecimals: row.priceDecimals });
    return [...byId.values()].sort((a, b) => a.assetName.localeCompare(b.assetName));
  }, [rows]);
  const [chosen, setChosen] = useState<string | null>(null);
  const asset = assets.find((candidate) => candidate.assetId === chosen) ?? assets[0];
  const points = useMemo(() => (asset ? rows.filter((row) => row.assetId === asset.assetId).map((row) => ({ date: row.sessionDate, price: row.price })) : []), [rows, asset]);

  const decimals = (row: DailySettlementPrice) => row.priceDecimals;
  const columns: DataTableColumn<DailySettlementPrice>[] = [
    dateColumn({ id: 'session', intl, label: 'clearing.col.sessionDate' }, (row) => row.sessionDate),
    textColumn({ id: 'asset', intl, label: 'clearing.col.asset' }, (row) => row.assetName, { code: true }),
    minorColumn({ id: 'price', intl, label: 'clearing.col.settlementPrice' }, (row) => row.price, decimals),
    minorColumn({ id: 'previous', intl, label: 'clearing.col.previousValue', priority: 2 }, (row) => row.previousValue, decimals),
    {
      id: 'variation',
      header: intl.formatMessage({ id: 'clearing.col.variation' }),
      align: 'end',
      sortValue: (row) => row.variationBps,
      cell: (row) =>
        row.variationBps === null ? '—' : <span className="mono">{intl.formatNumber(row.variationBps / 10_000, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' })}</span>,
      csv: (row) => (row.variationBps === null ? null : variationPercent(row.variationBps)),
    },
    minorColumn({ id: 'fromTransactions', intl, label: 'clearing.col.priceFromTransactions', priority: 2 }, (row) => row.priceFromTransactions, decimals),
    minorColumn({ id: 'fromOrders', intl, label: 'clearing.col.priceFromOrders', priority: 3 }, (row) => row.priceFromOrders, decimals),
    minorColumn({ id: 'ref', intl, label: 'clearing.col.refPrice', priority: 3 }, (row) => row.refPrice, decimals),
    enumColumn({ id: 'source', intl, label: 'clearing.col.source', priority: 2 }, (row) => row.source, (source) => priceSourceLabels[source as SettlementPriceSource]),
    textColumn({ id: 'reason', intl, label: 'clearing.col.overrideReason', priority: 3 }, (row) => row.overrideReason),
  ];
  return (
    <ClearingListCard
      slug="daily-settlement-price"
      state={state}
      columns={columns}
      rowKey={(row) => row.dailySettlementPriceId}
      dateOf={(row) => row.sessionDate}
      initialSort={{ columnId: 'session', direction: 'desc' }}
      empty="clearing.empty.dailySettlementPrice"
    >
      {asset && (
        <div className="settlement-price-history">
          <div className="settlement-price-history-head">
            <h3 className="subheading">
              <FormattedMessage id="clearing.chart.title" />
            </h3>
            <label htmlFor={selectId} className="small">
              <FormattedMessage id="clearing.col.asset" />
            </label>
            <select id={selectId} value={asset.assetId} onChange={(event) => setChosen(event.target.value)}>
              {assets.map((candidate) => (
                <option key={candidate.assetId} value={candidate.assetId}>
                  {candidate.assetName}
                </option>
              ))}
            </select>
          </div>
          <SettlementPriceChart points={points} priceDecimals={asset.priceDecimals} label={asset.assetName} />
        </div>
      )}
    </ClearingListCard>
  );
}
