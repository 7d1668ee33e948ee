// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes } from '../../../../protocol/clearing.ts';
import { DailySettlementPriceTab } from '../../../../src/pages/my-account/DailySettlementPriceTab.tsx';
import { dailyPrice, exportCsv, filterFrom, list, renderIn, signIn, signOut, sortBy, stubApi, tableRows } from './clearing-fixtures.tsx';

const rows = [
  dailyPrice(),
  dailyPrice({ dailySettlementPriceId: 'DSP2', sessionDate: '2026-11-20', price: 150_00, value: 150_00, previousValue: 151_00, variationBps: -66, priceFromTransactions: null, priceFromOrders: 150_00, refPrice: 150_00, source: 'orders' }),
  dailyPrice({ dailySettlementPriceId: 'DSP3', assetId: 'GFWD-JAN', assetName: 'GFWD-JAN27', sessionDate: '2026-11-23', price: 160_00, value: 158_00, previousValue: 158_00, variationBps: 127, refPrice: 160_00, source: 'override', overrideReason: 'Preț eronat, corectat', overriddenBy: 'admin' }),
];

// jsdom draws nothing: uPlot gets a 2D context and paths that accept every call, and a media query that never changes.
beforeAll(() => {
  const context = new Proxy({}, { get: (_target, name) => (name === 'measureText' ? () => ({ width: 10 }) : () => undefined), set: () => true });
  Object.assign(globalThis, { Path2D: class Path2D {} });
  for (const name of ['moveTo', 'lineTo', 'arc', 'rect', 'closePath', 'bezierCurveTo', 'quadraticCurveTo', 'addPath']) {
    (Path2D.prototype as unknown as Record<string, () => void>)[name] = () => undefined;
  }
  HTMLCanvasElement.prototype.getContext = (() => context) as unknown as HTMLCanvasElement['getContext'];
  window.matchMedia = ((query: string) => ({ matches: false, media: query, addEventListener: () => undefined, removeEventListener: () => undefined })) as unknown as typeof window.matchMedia;
});
beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('daily settlement price tab', () => {
  it('draws the price history of the chosen asset, with its points in the legend', async () => {
    stubApi({ [clearingRoutes.dailySettlementPrices]: list(rows) });
    renderIn('en', <DailySettlementPriceTab />);
    const chart = await screen.findByRole('img', { name: 'Daily settlement price history of GFWD-DEC26' });
    await waitFor(() => expect(chart.querySelector('canvas')).not.toBeNull());
    expect(chart.querySelector('.uplot')).not.toBeNull();
    expect(chart.querySelector('.u-legend')?.textContent).toContain('GFWD-DEC26');
    fireEvent.change(screen.getByRole('combobox', { name: 'Asset' }), { target: { value: 'GFWD-JAN' } });
    const january = await screen.findByRole('img', { name: 'Daily settlement price history of GFWD-JAN27' });
    expect(january.querySelectorAll('.uplot')).toHaveLength(1);
  });

  it('shows where each price came from, sorts, filters, pages and exports', async () => {
    stubApi({ [clearingRoutes.dailySettlementPrices]: list(rows.slice(0, 2)) });
    renderIn('ro', <DailySettlementPriceTab />);
    await waitFor(() => expect(tableRows('Preț zilnic de decontare')).toHaveLength(2));
    expect(tableRows('Preț zilnic de decontare')[0]).toEqual(expect.arrayContaining(['152,40', '+1,60 %', 'Tranzacții']));
    sortBy('Preț zilnic de decontare', 'Variație');
    expect(tableRows('Preț zilnic de decontare').map((cells) => cells[4])).toEqual(['-0,66 %', '+1,60 %']);
    const file = await exportCsv('Exportă CSV');
    expect(file.text).toBe(
      '\uFEFFData sesiunii,Activ,Preț de decontare,Preț anterior,Variație,Preț din tranzacții,Preț din ordine,Preț de referință,Sursa,Motivul modificării\r\n' +
        '2026-11-20,GFWD-DEC26,150.00,151.00,-0.66,,150.00,150.00,orders,\r\n' +
        '2026-11-23,GFWD-DEC26,152.40,150.00,1.60,152.40,,152.40,transactions,\r\n',
    );
    filterFrom('De la', '2026-11-21');
    expect(screen.getByText('1-1 din 1')).toBeTruthy();
  });
});
