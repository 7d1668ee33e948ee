// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MarketWatchRow, OwnBest } from '../../../protocol/market-data.ts';
import { FLASH_MS, joinOwnBest, MarketWatch, type MarketWatchEntryView } from '../../../src/trading/MarketWatch.tsx';
import { WithIntl } from '../components/intl.tsx';
import { asset } from './fixtures.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const assets = [asset, { ...asset, id: 'GSPOT-WD', code: 'GSPOT-WD', name: 'Gas within-day' }, { ...asset, id: 'GSPOT-WE', code: 'GSPOT-WE', name: 'Gas weekend' }];

function row(assetId: string, partial: Partial<MarketWatchRow> = {}): MarketWatchRow {
  return {
    assetId,
    marketId: 'GAS-SPOT',
    type: 'day',
    bestBid: null,
    bestBidQty: null,
    bestAsk: null,
    bestAskQty: null,
    lastPrice: null,
    participants: 0,
    lastUpdate: '2026-11-22T10:00:00.000Z',
    ...partial,
  };
}

const TestLink = ({ row: r, children }: { row: MarketWatchRow; children: ReactNode }) => (
  <a href={`#${r.assetId}`} data-asset-id={r.assetId}>
    {children}
  </a>
);

function renderWatch(rows: MarketWatchEntryView[], onShortcut?: (assetId: string, way: string) => void) {
  return render(
    <WithIntl>
      <MarketWatch rows={rows} assets={assets} label="Market watch" AssetLink={TestLink} {...(onShortcut ? { onShortcut: (a, w) => onShortcut(a.id, w) } : {})} />
    </WithIntl>,
  );
}

const firstColumn = () =>
  within(screen.getByRole('table', { name: 'Market watch' }))
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);

const rows = joinOwnBest(
  [row('GSPOT-DA', { bestBid: 15000, bestAsk: 15100, participants: 3 }), row('GSPOT-WD', { bestBid: 14000, participants: 1 }), row('GSPOT-WE', { bestBid: 16000, bestAsk: 16500, participants: 2 })],
  new Map<string, OwnBest>([['GSPOT-WD', { assetId: 'GSPOT-WD', ownBestBid: 14000, ownBestAsk: null, lastUpdate: '2026-11-22T10:00:00.000Z' }]]),
);

describe('market watch', () => {
  it('joins own best prices and shows every column', () => {
    renderWatch(rows);
    const table = screen.getByRole('table', { name: 'Market watch' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼]/g, ''));
    expect(headers).toEqual(['Asset', 'Type', 'Best bid', 'Best ask', 'Own best bid', 'Own best ask', 'Participants', 'Last update']);
    const wd = within(table).getAllByRole('row')[2]!;
    expect(within(wd).getAllByRole('cell').map((c) => c.textContent).slice(0, 7)).toEqual(['GSPOT-WD', 'Day', '140.00', '—', '140.00', '—', '1']);
  });

  it('sorts by a column, both ways, with empty prices last', () => {
    renderWatch(rows);
    expect(firstColumn()).toEqual(['GSPOT-DA', 'GSPOT-WD', 'GSPOT-WE']);
    fireEvent.click(screen.getByRole('button', { name: 'Best ask' }));
    expect(firstColumn()).toEqual(['GSPOT-DA', 'GSPOT-WE', 'GSPOT-WD']);
    fireEvent.click(screen.getByRole('button', { name: 'Best ask' }));
    expect(firstColumn()).toEqual(['GSPOT-WE', 'GSPOT-DA', 'GSPOT-WD']);
    fireEvent.click(screen.getByRole('button', { name: 'Participants' }));
    expect(firstColumn()).toEqual(['GSPOT-WD', 'GSPOT-WE', 'GSPOT-DA']);
  });

  it('flashes a changed price briefly, up or down, and leaves the others alone', () => {
    vi.useFakeTimers();
    const { rerender } = renderWatch(rows);
    expect(document.querySelectorAll('[data-flash]')).toHaveLength(0);
    const next = rows.map((r) => (r.assetId === 'GSPOT-DA' ? { ...r, bestBid: 15050, bestAsk: 15090 } : r));
    rerender(
      <WithIntl>
        <MarketWatch rows={next} assets={assets} label="Market watch" AssetLink={TestLink} />
      </WithIntl>,
    );
    const flashing = [...document.querySelectorAll('[data-flash]')].map((el) => `${el.textContent}:${el.getAttribute('data-flash')}`);
    expect(flashing).toEqual(['150.50:up', '150.90:down']);
    act(() => vi.advanceTimersByTime(FLASH_MS + 10));
    expect(document.querySelectorAll('[data-flash]')).toHaveLength(0);
  });

  it('opens a buy or sell ticket for the focused row with B or S', () => {
    const onShortcut = vi.fn();
    renderWatch(rows, onShortcut);
    const link = screen.getByRole('link', { name: 'GSPOT-WE' });
    fireEvent.keyDown(link, { key: 'b' });
    fireEvent.keyDown(link, { key: 'S' });
    fireEvent.keyDown(link, { key: 'x' });
    expect(onShortcut.mock.calls).toEqual([
      ['GSPOT-WE', 'bid'],
      ['GSPOT-WE', 'ask'],
    ]);
  });
});
