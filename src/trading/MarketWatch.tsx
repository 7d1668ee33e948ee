import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MarketWatchRow, OwnBest } from '../../protocol/market-data.ts';
import type { AssetSpecification } from '../../protocol/reference.ts';
import { DataTable, type DataTableColumn } from '../components/DataTable.tsx';
import { formatExchangeDateTime, formatMinor } from '../i18n/format.ts';
import { localePath } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { useMarketWatch, useOwnBest } from './live.ts';
import { useTradingDesk } from './TradingDesk.tsx';
import { assetTypeLabel } from '../i18n/reference-names.ts';
import { DeltaTRowBadge } from './session/DeltaTWidget.tsx';

export const FLASH_MS = 1200;

/** A value that flashes (up or down) for a moment when it changes. */
export function FlashValue({ value, children }: { value: number | null; children: ReactNode }) {
  const previous = useRef(value);
  const [flash, setFlash] = useState<'up' | 'down' | null>(null);
  useEffect(() => {
    const before = previous.current;
    previous.current = value;
    if (before === value) return undefined;
    setFlash(before !== null && value !== null && value < before ? 'down' : 'up');
    const timer = setTimeout(() => setFlash(null), FLASH_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return (
    <span className={flash ? `flash flash-${flash}` : undefined} data-flash={flash ?? undefined}>
      {children}
    </span>
  );
}

export interface MarketWatchEntryView extends MarketWatchRow {
  ownBestBid: number | null;
  ownBestAsk: number | null;
}

/** The rows with the user's own best prices joined in. */
export function joinOwnBest(rows: readonly MarketWatchRow[], own: ReadonlyMap<string, OwnBest>): MarketWatchEntryView[] {
  return rows.map((row) => ({ ...row, ownBestBid: own.get(row.assetId)?.ownBestBid ?? null, ownBestAsk: own.get(row.assetId)?.ownBestAsk ?? null }));
}

export type AssetLinkComponent = (props: { row: MarketWatchRow; children: ReactNode }) => ReactNode;

/** The asset cell's link to the asset's trading view. */
export function RouterAssetLink({ row, children }: { row: MarketWatchRow; children: ReactNode }) {
  const locale = useLocale();
  return (
    <Link className="mw-asset" data-asset-id={row.assetId} to={localePath(locale, `/trading/market/${row.marketId}/assets/${row.assetId}`)}>
      {children}
    </Link>
  );
}

export interface MarketWatchProps {
  /** How the asset cell links to the asset view (a router link by default). */
  AssetLink?: AssetLinkComponent;
  rows: readonly MarketWatchEntryView[];
  assets: readonly AssetSpecification[];
  label: string;
  /** B or S on a row: a buy or sell ticket for that asset. */
  onShortcut?: (asset: AssetSpecification, way: 'bid' | 'ask') => void;
  loading?: boolean;
}

/** Market watch (SPEC §2): asset, type, best bid/ask, own best bid/ask, participants, last update. */
export function MarketWatch({ rows, assets, label, onShortcut, loading, AssetLink = RouterAssetLink }: MarketWatchProps) {
  const intl = useIntl();
  const byId = new Map(assets.map((asset) => [asset.id, asset]));
  const price = (row: MarketWatchEntryView, value: number | null) => {
    const asset = byId.get(row.assetId);
    return value === null ? '—' : formatMinor(intl, value, asset?.priceDecimals ?? 2);
  };
  const priceColumn = (id: string, header: ReactNode, pick: (row: MarketWatchEntryView) => number | null): DataTableColumn<MarketWatchEntryView> => ({
    id,
    header,
    align: 'end',
    sortValue: pick,
    cell: (row) => (
      <FlashValue value={pick(row)}>
        <span className="mono">{price(row, pick(row))}</span>
      </FlashValue>
    ),
  });
  const columns: DataTableColumn<MarketWatchEntryView>[] = [
    {
      id: 'asset',
      header: <FormattedMessage id="marketWatch.asset" />,
      sortValue: (row) => byId.get(row.assetId)?.code ?? row.assetId,
      cell: (row) => {
        const asset = byId.get(row.assetId);
        return (
          <>
            <AssetLink row={row}>
              <span className="mono">{asset?.code ?? row.assetId}</span>
            </AssetLink>
            <DeltaTRowBadge assetId={row.assetId} />
          </>
        );
      },
    },
    { id: 'type', header: <FormattedMessage id="marketWatch.type" />, sortValue: (row) => assetTypeLabel(intl, row.type), cell: (row) => assetTypeLabel(intl, row.type) },
    priceColumn('bestBid', <FormattedMessage id="marketWatch.bestBid" />, (row) => row.bestBid),
    priceColumn('bestAsk', <FormattedMessage id="marketWatch.bestAsk" />, (row) => row.bestAsk),
    priceColumn('ownBestBid', <FormattedMessage id="marketWatch.ownBestBid" />, (row) => row.ownBestBid),
    priceColumn('ownBestAsk', <FormattedMessage id="marketWatch.ownBestAsk" />, (row) => row.ownBestAsk),
    { id: 'participants', header: <FormattedMessage id="marketWatch.participants" />, align: 'end', sortValue: (row) => row.participants, cell: (row) => row.participants },
    {
      id: 'lastUpdate',
      header: <FormattedMessage id="marketWatch.lastUpdate" />,
      sortValue: (row) => row.lastUpdate,
      cell: (row) => <span className="small">{formatExchangeDateTime(intl, row.lastUpdate)}</span>,
    },
  ];
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!onShortcut || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key !== 'b' && key !== 's') return;
    const target = event.target as HTMLElement;
    const assetId = target.closest('tr')?.querySelector<HTMLElement>('[data-asset-id]')?.dataset.assetId;
    const asset = assetId ? byId.get(assetId) : undefined;
    if (!asset) return;
    event.preventDefault();
    onShortcut(asset, key === 'b' ? 'bid' : 'ask');
  };
  return (
    <div className="market-watch" onKeyDown={onKeyDown}>
      <DataTable
        label={label}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.assetId}
        initialSort={{ columnId: 'asset', direction: 'asc' }}
        initialRowsPerPage="all"
        hideFooter
        loading={loading ?? false}
        emptyMessage={<FormattedMessage id="marketWatch.empty" />}
      />
    </div>
  );
}

/** The live market watch of one market: marketWatch$ rows joined with ownBest$. */
export function LiveMarketWatch({
  marketId,
  assets,
  label,
  onlyAssets,
}: {
  marketId: string;
  assets: readonly AssetSpecification[];
  label: string;
  /** Only these assets (a workspace's pick); all of the market's otherwise. */
  onlyAssets?: readonly string[] | undefined;
}) {
  const rows = useMarketWatch(marketId);
  const own = useOwnBest();
  const desk = useTradingDesk();
  const joined = useMemo(
    () => joinOwnBest(onlyAssets ? rows.filter((row) => onlyAssets.includes(row.assetId)) : rows, own),
    [rows, own, onlyAssets],
  );
  return (
    <MarketWatch
      rows={joined}
      assets={assets}
      label={label}
      onShortcut={desk.canTrade ? (asset, way) => desk.openTicket({ mode: 'add', asset, defaults: { way } }) : undefined}
    />
  );
}
