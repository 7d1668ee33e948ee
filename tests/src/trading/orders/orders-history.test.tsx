// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderEventsResponse, OrderHistoryPage } from '../../../../protocol/order-history.ts';
import type { Market } from '../../../../protocol/reference.ts';
import { ApiRequestError } from '../../../../src/api/errors.ts';
import type { OrderHistoryApi, OrderHistoryFilters } from '../../../../src/trading/orders/orders-history.api.ts';
import { historyQuery, noFilters } from '../../../../src/trading/orders/orders-history.api.ts';
import { HISTORY_PAGE, OrdersHistory } from '../../../../src/trading/orders/OrdersHistory.tsx';
import { WithIntl } from '../../components/intl.tsx';
import { asset, order } from '../fixtures.ts';

afterEach(cleanup);

const markets: Market[] = [
  { id: 'GAS-SPOT', name: 'Gas spot', names: { ro: 'Gaze naturale spot', en: 'Gas spot' }, commodity: 'gas', kind: 'spot', workspaceType: 'gas', currency: 'RON' },
  { id: 'EL-SPOT', name: 'Electricity spot', names: { ro: 'Energie electrică spot', en: 'Electricity spot' }, commodity: 'electricity', kind: 'spot', workspaceType: 'energy', currency: 'RON' },
];
const elAsset = { ...asset, id: 'ESPOT-DA-BASE', code: 'ESPOT-DA-BASE', marketId: 'EL-SPOT' };

const traded = order({ orderId: '7', way: 'ask', status: 'traded', price: 15100, qty: 100, tradedQty: 100, tradedPrice: 15100, offeredQty: 0, lastModifiedAt: '2026-11-22T10:05:00.000Z' });
const cancelled = order({ orderId: '9', clientCode: 'RO-GAZEST', status: 'cancelled', price: 14000, qty: 50, lastModifiedAt: '2026-11-22T10:06:00.000Z' });

const events: OrderEventsResponse = {
  order: traded,
  events: [
    { orderId: '7', kind: 'created', at: '2026-11-22T10:00:00.000Z', status: 'created', suspended: false, price: 15000, qty: 100, offeredQty: 100, tradedQty: 0, tradedPrice: null, validityType: 'day', validity: null, reason: null, fills: [] },
    { orderId: '7', kind: 'modified', at: '2026-11-22T10:01:00.000Z', status: 'modified', suspended: false, price: 15100, qty: 100, offeredQty: 100, tradedQty: 0, tradedPrice: null, validityType: 'day', validity: null, reason: null, fills: [] },
    {
      orderId: '7',
      kind: 'traded',
      at: '2026-11-22T10:05:00.000Z',
      status: 'traded',
      suspended: false,
      price: 15100,
      qty: 100,
      offeredQty: 0,
      tradedQty: 100,
      tradedPrice: 15100,
      validityType: 'day',
      validity: null,
      reason: null,
      fills: [{ transactionId: '31', price: 15100, qty: 100 }],
    },
  ],
};

function fakeApi(pages: (filters: OrderHistoryFilters, offset: number) => OrderHistoryPage | Promise<OrderHistoryPage>): OrderHistoryApi & { history: ReturnType<typeof vi.fn>; events: ReturnType<typeof vi.fn> } {
  return {
    history: vi.fn(async (filters: OrderHistoryFilters, offset: number) => pages(filters, offset)),
    events: vi.fn(async () => events),
  };
}

function renderHistory(api: OrderHistoryApi, locale: 'en' | 'ro' = 'en') {
  return render(
    <WithIntl locale={locale}>
      <OrdersHistory markets={markets} assets={[asset, elAsset]} clientCodes={['RO-HIDRO', 'RO-GAZEST']} api={api} />
    </WithIntl>,
  );
}

describe('the orders table with filters', () => {
  it('lists the orders of GET /orders/history with the footer a-b of c', async () => {
    const api = fakeApi(() => ({ items: [cancelled, traded], total: 2, offset: 0, limit: HISTORY_PAGE }));
    renderHistory(api);
    const table = await screen.findByRole('table', { name: 'Orders' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(api.history).toHaveBeenCalledWith(noFilters, 0, HISTORY_PAGE, expect.anything());
    const row = within(table).getByRole('row', { name: /^7 / });
    expect(row.textContent).toContain('GSPOT-DA');
    expect(row.textContent).toContain('151.00');
    expect(row.textContent).toContain('Traded');
    expect(screen.getByText('1-2 of 2')).toBeTruthy();
  });

  it('asks the server again when a filter changes, and a market drops an asset of another market', async () => {
    const api = fakeApi((filters) => ({ items: filters.way === 'ask' ? [traded] : [cancelled, traded], total: filters.way === 'ask' ? 1 : 2, offset: 0, limit: HISTORY_PAGE }));
    renderHistory(api);
    await screen.findByText('1-2 of 2');
    fireEvent.change(screen.getByLabelText('Direction'), { target: { value: 'ask' } });
    await screen.findByText('1-1 of 1');
    expect(api.history).toHaveBeenLastCalledWith({ ...noFilters, way: 'ask' }, 0, HISTORY_PAGE, expect.anything());

    fireEvent.change(screen.getByLabelText('Asset'), { target: { value: 'GSPOT-DA' } });
    fireEvent.change(screen.getByLabelText('Client'), { target: { value: 'RO-GAZEST' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'cancelled' } });
    fireEvent.change(screen.getByLabelText('Session from'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('Session to'), { target: { value: '2026-11-30' } });
    await waitFor(() =>
      expect(api.history).toHaveBeenLastCalledWith(
        { ...noFilters, way: 'ask', assetId: 'GSPOT-DA', clientCode: 'RO-GAZEST', status: 'cancelled', from: '2026-11-01', to: '2026-11-30' },
        0,
        HISTORY_PAGE,
        expect.anything(),
      ),
    );
    // The electricity market has no GSPOT-DA: the asset filter is cleared, and its list narrows.
    fireEvent.change(screen.getByLabelText('Market'), { target: { value: 'EL-SPOT' } });
    await waitFor(() => expect(api.history.mock.lastCall?.[0]).toMatchObject({ marketId: 'EL-SPOT', assetId: '' }));
    expect(within(screen.getByLabelText('Asset')).queryByText('GSPOT-DA')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(api.history).toHaveBeenLastCalledWith(noFilters, 0, HISTORY_PAGE, expect.anything()));
  });

  it('lets its least needed columns give way in a narrow box; the history is a named icon button', async () => {
    const api = fakeApi(() => ({ items: [traded], total: 1, offset: 0, limit: HISTORY_PAGE }));
    renderHistory(api);
    const table = await screen.findByRole('table', { name: 'Orders' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    const headers = within(table).getAllByRole('columnheader');
    const priorityOf = (th: HTMLElement) => /col-priority-(\d)/.exec(th.className)?.[1] ?? '-';
    expect(headers.map((th) => `${(th.textContent ?? '').replace(/[▲▼]/g, '')}:${priorityOf(th)}`)).toEqual([
      'Order:2',
      'Asset:-',
      'Direction:-',
      'Price:-',
      'Quantity:-',
      'Traded:2',
      'Avg. traded price:3',
      'Client:-',
      'Status:-',
      'Session:3',
      'Last change:3',
      'Actions:-',
    ]);
    const history = within(table).getByRole('button', { name: 'History of order 7' });
    expect(history.getAttribute('title')).toBe('History of order 7');
    expect(history.textContent).toBe('');
  });

  it('says when the dates are the wrong way round instead of asking the server', async () => {
    const api = fakeApi(() => ({ items: [], total: 0, offset: 0, limit: HISTORY_PAGE }));
    renderHistory(api);
    await waitFor(() => expect(api.history).toHaveBeenCalledTimes(1));
    fireEvent.change(screen.getByLabelText('Session from'), { target: { value: '2026-11-30' } });
    await waitFor(() => expect(api.history).toHaveBeenCalledTimes(2));
    fireEvent.change(screen.getByLabelText('Session to'), { target: { value: '2026-11-01' } });
    expect((await screen.findByRole('alert')).textContent).toBe('The start date is after the end date.');
    expect(api.history).toHaveBeenCalledTimes(2);
  });

  it('loads the next page on "show more", keeping the total', async () => {
    const first = Array.from({ length: HISTORY_PAGE }, (_, index) => order({ orderId: String(1000 - index) }));
    const api = fakeApi((_filters, offset) => ({ items: offset === 0 ? first : [traded], total: HISTORY_PAGE + 1, offset, limit: HISTORY_PAGE }));
    renderHistory(api);
    expect((await screen.findByText(`${HISTORY_PAGE} of ${HISTORY_PAGE + 1} orders loaded`)).textContent).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(api.history).toHaveBeenLastCalledWith(noFilters, HISTORY_PAGE, HISTORY_PAGE, expect.anything()));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull());
    expect(screen.getByText(`1-10 of ${HISTORY_PAGE + 1}`)).toBeTruthy();
  });

  it("shows the server's refusal in the user's language", async () => {
    const api = fakeApi(() => {
      throw new ApiRequestError('REQUEST_INVALID', { field: 'clientCode', issue: 'unknown' }, 400);
    });
    renderHistory(api, 'ro');
    expect((await screen.findByRole('alert')).textContent).toContain('clientCode');
  });

  it("opens an order's history: created, changes and fills, times in Bucharest time", async () => {
    const api = fakeApi(() => ({ items: [traded], total: 1, offset: 0, limit: HISTORY_PAGE }));
    renderHistory(api);
    fireEvent.click(await screen.findByRole('button', { name: 'History of order 7' }));
    const drawer = await screen.findByRole('dialog', { name: 'Order 7' });
    const list = await within(drawer).findByRole('list', { name: 'Order events' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-kind'))).toEqual(['created', 'modified', 'traded']);
    expect(items[0]!.textContent).toContain('Created');
    expect(items[0]!.textContent).toContain('12:00:00'); // 10:00 UTC is 12:00 in Bucharest in November
    expect(items[1]!.textContent).toContain('Price 151.00');
    expect(items[2]!.textContent).toContain('Fill: 10.0 at 151.00 (transaction 31)');
    expect(api.events).toHaveBeenCalledWith('7', expect.anything());
    fireEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('speaks Romanian', async () => {
    const api = fakeApi(() => ({ items: [traded], total: 1, offset: 0, limit: HISTORY_PAGE }));
    renderHistory(api, 'ro');
    await screen.findByText('1-1 din 1');
    expect(screen.getByLabelText('Sesiune de la')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Istoricul ordinului 7' }));
    const drawer = await screen.findByRole('dialog', { name: 'Ordinul 7' });
    expect((await within(drawer).findAllByRole('listitem'))[2]!.textContent).toContain('Executare: 10,0 la 151,00 (tranzacția 31)');
  });
});

describe('historyQuery', () => {
  it('sends only the filters that are set, with the page', () => {
    expect(historyQuery(noFilters, 0, 100)).toBe('limit=100');
    expect(historyQuery({ ...noFilters, way: 'bid', from: '2026-11-01' }, 200, 100)).toBe('way=bid&from=2026-11-01&offset=200&limit=100');
  });
});
