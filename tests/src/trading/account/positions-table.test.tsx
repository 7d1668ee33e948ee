// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PositionsTable } from '../../../../src/trading/account/PositionsTable.tsx';
import { WithIntl } from '../../components/intl.tsx';
import { asset } from '../fixtures.ts';
import { plain, position } from './fixtures.ts';

afterEach(cleanup);

const assets = [asset, { ...asset, id: 'GSPOT-WD', code: 'GSPOT-WD', name: 'Gas within-day' }];
const rows = [
  position(),
  position({ assetId: 'GSPOT-WD', boughtQty: 0, soldQty: 200, netQty: -200, avgBuyPrice: null, avgSellPrice: 14_000, boughtValue: 0, soldValue: 280_000, tradedValue: 280_000, trades: 1 }),
  position({ clientCode: 'RO-GAZEST', boughtQty: 100, soldQty: 100, netQty: 0, trades: 2 }),
];

function renderTable(locale: 'en' | 'ro' = 'en') {
  return render(
    <WithIntl locale={locale}>
      <PositionsTable positions={rows} assets={assets} amountDecimals={2} label="Positions" />
    </WithIntl>,
  );
}

const bodyRows = () => within(screen.getByRole('table', { name: 'Positions' })).getAllByRole('row').slice(1);
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => plain(cell.textContent));

describe('positions table', () => {
  it('shows quantities and prices in the asset decimals, the net position signed and the traded value', () => {
    renderTable();
    const [first] = bodyRows();
    expect(cellsOf(first!)).toEqual(['RO-HIDRO', 'GSPOT-DA', '22 Nov 2026', '15.0', '150.25', '5.0', '151.00', '+10.0', '3,008.75', '3']);
    expect(first!.querySelector('.net-long')).not.toBeNull();
    const short = bodyRows().find((row) => plain(row.textContent).includes('GSPOT-WD'))!;
    expect(cellsOf(short)).toContain('-20.0');
    expect(cellsOf(short)).toContain('—'); // no buys: no average buy price
    expect(short.querySelector('.net-short')).not.toBeNull();
    expect(bodyRows().find((row) => plain(row.textContent).includes('RO-GAZEST'))!.querySelector('.net-flat')).not.toBeNull();
  });

  it('sorts by net position both ways', () => {
    renderTable();
    const net = () => bodyRows().map((row) => cellsOf(row)[7]);
    fireEvent.click(screen.getByRole('button', { name: /Net position/ }));
    expect(net()).toEqual(['-20.0', '0.0', '+10.0']);
    fireEvent.click(screen.getByRole('button', { name: /Net position/ }));
    expect(net()).toEqual(['+10.0', '0.0', '-20.0']);
  });

  it('says when there are no trades, in Romanian too', () => {
    render(
      <WithIntl locale="ro">
        <PositionsTable positions={[]} assets={assets} amountDecimals={2} label="Poziții" />
      </WithIntl>,
    );
    expect(screen.getByText('Nicio tranzacție în această sesiune.')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Poziție netă/ })).toBeTruthy();
  });
});
