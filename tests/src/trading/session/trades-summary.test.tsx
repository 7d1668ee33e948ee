// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../../protocol/market-data.ts';
import { summarizeTrades, weightedAverage } from '../../../../src/trading/session/trades-summary.ts';
import { TradesSummaryView } from '../../../../src/trading/session/TradesSummary.tsx';
import { WithIntl } from '../../components/intl.tsx';
import { asset, transaction } from '../fixtures.ts';

afterEach(cleanup);

let nextId = 1;
function trade(buyer: string, seller: string, price: number, qty: number, partial: Partial<Transaction> = {}): Transaction {
  return transaction({ transactionId: `T-${nextId++}`, buyer, seller, price, qty, noCnt: qty, buyOrderId: 'O-1', sellOrderId: 'O-2', ...partial });
}

const mine = ['RO-HIDRO', 'RO-TERMO'];

describe('trades summary math', () => {
  it('rounds the weighted average half up in minor units, exactly beyond 2^53', () => {
    expect(weightedAverage(0n, 0)).toBeNull();
    expect(weightedAverage(301n, 2)).toBe(151); // 150.5 -> 151
    expect(weightedAverage(299n, 2)).toBe(150); // 149.5 -> 150
    expect(weightedAverage(1000n, 3)).toBe(333);
    expect(weightedAverage(-301n, 2)).toBe(-151);
    // 9,007,199,254,740,993 (2^53 + 1) over 1: a float would lose the last unit.
    expect(weightedAverage(2n ** 53n + 1n, 1)).toBe(Number(2n ** 53n + 1n));
  });

  it('sums bought and sold per client code with counts and weighted averages, skipping other assets, sessions, clients and duplicates', () => {
    const first = trade('RO-HIDRO', 'OTHER', 15000, 100);
    const trades = [
      first,
      trade('RO-HIDRO', 'OTHER', 15100, 300),
      trade('OTHER', 'RO-HIDRO', 15300, 50),
      // between two of the user's clients: a buy for one, a sell for the other, one trade in the total
      trade('RO-TERMO', 'RO-HIDRO', 15200, 40),
      trade('OTHER', 'ANOTHER', 15000, 999),
      trade('RO-HIDRO', 'OTHER', 15000, 999, { assetId: 'GSPOT-WD' }),
      trade('RO-HIDRO', 'OTHER', 15000, 999, { txDate: '2026-11-21' }),
      { ...first },
    ];
    const { rows, total } = summarizeTrades(trades, mine, asset.id, '2026-11-22');
    expect(rows).toEqual([
      {
        clientCode: 'RO-HIDRO',
        boughtQty: 400,
        soldQty: 90,
        netQty: 310,
        buys: 2,
        sells: 2,
        count: 4,
        // (15000·100 + 15100·300) / 400 = 15075
        avgBuyPrice: 15075,
        // (15300·50 + 15200·40) / 90 = 15255.55… -> 15256
        avgSellPrice: 15256,
        // (1,500,000 + 4,530,000 + 765,000 + 608,000) / 490 = 15108.16… -> 15108
        avgPrice: 15108,
      },
      { clientCode: 'RO-TERMO', boughtQty: 40, soldQty: 0, netQty: 40, buys: 1, sells: 0, count: 1, avgBuyPrice: 15200, avgSellPrice: null, avgPrice: 15200 },
    ]);
    expect(total).toMatchObject({ clientCode: '', boughtQty: 440, soldQty: 90, count: 4, avgBuyPrice: 15086, avgSellPrice: 15256 });
  });

  it('skips a transaction superseded by a transfer: its children carry the quantity on', () => {
    // 100 bought, then 60 transferred to the central counterparty's asset: the original is superseded,
    // the split remainder of 40 stays on this asset, the transfer child of 60 lives on the target asset.
    const original = trade('RO-HIDRO', 'OTHER', 15000, 100);
    const superseded: Transaction = { ...original, status: 'superseded', updatedAt: '2026-11-22T10:00:00.000Z' };
    const split = trade('RO-HIDRO', 'OTHER', 15000, 40, { origin: 'split', buyOrderId: '', sellOrderId: '', parentTransactionId: original.transactionId });
    const transferred = trade('RO-HIDRO', 'OTHER', 15000, 60, { origin: 'transfer', assetId: 'CCP-GAS', buyOrderId: '', sellOrderId: '', parentTransactionId: original.transactionId });
    const other = trade('OTHER', 'RO-HIDRO', 15500, 10);
    const expected = { boughtQty: 40, soldQty: 10, buys: 1, sells: 1, count: 2, avgBuyPrice: 15000, avgSellPrice: 15500 };
    // the list as merged (the superseded copy in place of the original)
    expect(summarizeTrades([superseded, split, transferred, other], mine, asset.id, '2026-11-22').total).toMatchObject(expected);
    // both copies as they came in, the active one first (REST) and the superseded one after (live)
    expect(summarizeTrades([original, split, other, superseded], mine, asset.id, '2026-11-22').total).toMatchObject(expected);
    // a transfer to the same asset: the child counts, the original does not
    const sameAsset = trade('RO-HIDRO', 'OTHER', 15000, 100, { origin: 'transfer', parentTransactionId: original.transactionId });
    expect(summarizeTrades([superseded, sameAsset], mine, asset.id, '2026-11-22').rows).toEqual([
      { clientCode: 'RO-HIDRO', boughtQty: 100, soldQty: 0, netQty: 100, buys: 1, sells: 0, count: 1, avgBuyPrice: 15000, avgSellPrice: null, avgPrice: 15000 },
    ]);
  });

  it('takes every date when the session date is not known yet', () => {
    const { total } = summarizeTrades([trade('RO-HIDRO', 'X', 100, 1), trade('RO-HIDRO', 'X', 100, 1, { txDate: '2026-11-20' })], mine, asset.id, null);
    expect(total.count).toBe(2);
  });
});

describe('trades summary view', () => {
  const summary = summarizeTrades([trade('RO-HIDRO', 'OTHER', 15000, 100), trade('RO-TERMO', 'RO-HIDRO', 15250, 45)], mine, asset.id, '2026-11-22');

  it('shows a row per client code and the total, in the asset decimals (en)', () => {
    render(
      <WithIntl locale="en">
        <TradesSummaryView asset={asset} summary={summary} sessionDate="2026-11-22" />
      </WithIntl>,
    );
    const table = screen.getByRole('table', { name: 'My trades on GSPOT-DA by client code' });
    const headers = within(table).getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Client code', 'Trades', 'Bought (MWh)', 'Avg buy price', 'Sold (MWh)', 'Avg sell price', 'Avg price']);
    const rows = within(table).getAllByRole('row').slice(1).map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['RO-HIDRO', '2', '10.0', '150.00', '4.5', '152.50', '150.78'],
      ['RO-TERMO', '1', '4.5', '152.50', '0.0', '—', '152.50'],
      ['Total', '2', '14.5', '150.78', '4.5', '152.50', '151.18'],
    ]);
    expect(screen.getByText('Weighted by quantity, in RON; session 22 Nov 2026.')).toBeTruthy();
  });

  it('speaks Romanian, and says when there is nothing yet', () => {
    const { rerender } = render(
      <WithIntl locale="ro">
        <TradesSummaryView asset={asset} summary={summary} sessionDate="2026-11-22" />
      </WithIntl>,
    );
    expect(screen.getByRole('heading', { name: 'Tranzacțiile mele din ședință' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Cumpărat (MWh)' })).toBeTruthy();
    expect(screen.getByRole('row', { name: /Total/ }).textContent).toContain('150,78');
    rerender(
      <WithIntl locale="ro">
        <TradesSummaryView asset={asset} summary={summarizeTrades([], mine, asset.id, '2026-11-22')} sessionDate="2026-11-22" />
      </WithIntl>,
    );
    expect(screen.getByText('Clienții dvs. nu au tranzacții pe acest activ în această ședință.')).toBeTruthy();
    rerender(
      <WithIntl locale="ro">
        <TradesSummaryView asset={asset} summary={null} sessionDate={null} />
      </WithIntl>,
    );
    expect(screen.getByText('Se încarcă tranzacțiile dvs.…')).toBeTruthy();
  });
});
