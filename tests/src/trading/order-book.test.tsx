// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ticketFromLevel } from '../../../src/trading/AssetTrading.tsx';
import { CHANGE_HIGHLIGHT_MS, OFFSCREEN_REFRESH_MS, OrderBook } from '../../../src/trading/OrderBook.tsx';
import { WithIntl } from '../components/intl.tsx';
import { asset, book, order } from './fixtures.ts';

beforeEach(() => {
  // jsdom has no layout: give each side's scrolling body the height a browser would.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('book-scroll') ? 280 : 0;
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const levels = {
  bids: [
    { price: 15000, qty: 100, orders: 2 },
    { price: 14990, qty: 50, orders: 1 },
  ],
  asks: [
    { price: 15100, qty: 70, orders: 1 },
    { price: 15200, qty: 200, orders: 3 },
  ],
};

function rowsOf(name: string): HTMLElement[] {
  return within(screen.getByRole('table', { name })).getAllByRole('row').slice(1);
}

describe('order book', () => {
  it('shows both sides best first and marks only the levels with own live orders', () => {
    render(
      <WithIntl>
        <OrderBook
          book={book(levels)}
          asset={asset}
          ownOrders={[
            order({ way: 'bid', price: 15000 }),
            order({ orderId: 'O-2', way: 'ask', price: 15200, status: 'cancelled' }),
            order({ orderId: 'O-3', way: 'ask', price: 15100, suspended: true }),
            order({ orderId: 'O-4', assetId: 'OTHER', way: 'bid', price: 14990 }),
          ]}
        />
      </WithIntl>,
    );
    const bids = rowsOf('Bids');
    expect(bids.map((row) => row.getAttribute('data-price'))).toEqual(['150.00', '149.90']);
    expect(within(bids[0]!).getByRole('img', { name: 'Own order at this price' })).toBeTruthy();
    expect(bids[0]!.className).toContain('book-level-own');
    expect(within(bids[1]!).queryByRole('img')).toBeNull(); // another asset's order
    const asks = rowsOf('Asks');
    expect(asks.map((row) => row.getAttribute('data-price'))).toEqual(['151.00', '152.00']);
    // A cancelled and a suspended order are not on the book.
    expect(asks.every((row) => within(row).queryByRole('img') === null)).toBe(true);
    expect(within(asks[1]!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['3', '20.0', '152.00']);
    // Depth bar relative to the largest level of both sides.
    expect(asks[1]!.style.backgroundSize).toBe('100% 100%');
    expect(bids[1]!.style.backgroundSize).toBe('25% 100%');
  });

  it('shows a stale badge with the age of the last update only while stale', () => {
    const now = Date.parse('2026-11-22T10:00:07.400Z');
    const { rerender } = render(
      <WithIntl>
        <OrderBook book={book({ ...levels, stale: true, staleReason: 'gap' })} asset={asset} ownOrders={[]} now={now} />
      </WithIntl>,
    );
    expect(screen.getByRole('status').textContent).toBe('Stale: last update 7 seconds ago');
    rerender(
      <WithIntl locale="ro">
        <OrderBook book={book({ ...levels, stale: true, staleReason: 'reconnect' })} asset={asset} ownOrders={[]} now={now} />
      </WithIntl>,
    );
    expect(screen.getByRole('status').textContent).toBe('Neactualizat: ultima modificare acum 7 secunde');
    rerender(
      <WithIntl>
        <OrderBook book={book(levels)} asset={asset} ownOrders={[]} now={now} />
      </WithIntl>,
    );
    expect(screen.queryByRole('status')).toBeNull();
    rerender(
      <WithIntl>
        <OrderBook book={book({ stale: true, staleReason: 'loading', at: null, seq: null })} asset={asset} ownOrders={[]} now={now} />
      </WithIntl>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading the book…');
  });

  it('renders only the rows in view of a deep book', () => {
    const bids = Array.from({ length: 500 }, (_, i) => ({ price: 20000 - i, qty: 10, orders: 1 }));
    render(
      <WithIntl>
        <OrderBook book={book({ bids, asks: [] })} asset={asset} ownOrders={[]} maxHeight={280} />
      </WithIntl>,
    );
    const table = screen.getByRole('table', { name: 'Bids' });
    expect(table.getAttribute('aria-rowcount')).toBe('500');
    const rendered = rowsOf('Bids').filter((row) => row.hasAttribute('data-price'));
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(40);
    expect(rendered[0]!.getAttribute('data-price')).toBe('200.00');
  });

  it('opens a ticket from a level, hitting the other side at its price and quantity, but not on a stale book', () => {
    const onLevel = vi.fn();
    const { rerender } = render(
      <WithIntl>
        <OrderBook book={book(levels)} asset={asset} ownOrders={[]} onLevel={onLevel} />
      </WithIntl>,
    );
    fireEvent.click(rowsOf('Asks')[0]!);
    expect(onLevel).toHaveBeenCalledWith('ask', { price: 15100, qty: 70, orders: 1 });
    fireEvent.keyDown(rowsOf('Bids')[1]!, { key: 'Enter' });
    expect(onLevel).toHaveBeenLastCalledWith('bid', { price: 14990, qty: 50, orders: 1 });
    expect(ticketFromLevel(asset, 'ask', { price: 15100, qty: 70, orders: 1 }).defaults).toEqual({ way: 'bid', price: '151.00', qty: '7.0' });
    expect(ticketFromLevel(asset, 'bid', { price: 14990, qty: 50, orders: 1 }).defaults?.way).toBe('ask');

    rerender(
      <WithIntl>
        <OrderBook book={book({ ...levels, stale: true, staleReason: 'gap' })} asset={asset} ownOrders={[]} onLevel={onLevel} now={0} />
      </WithIntl>,
    );
    fireEvent.click(rowsOf('Asks')[0]!);
    expect(onLevel).toHaveBeenCalledTimes(2);
  });

  it('highlights the levels that changed, briefly', () => {
    vi.useFakeTimers();
    const { rerender } = render(
      <WithIntl>
        <OrderBook book={book(levels)} asset={asset} ownOrders={[]} />
      </WithIntl>,
    );
    expect(document.querySelectorAll('.book-level-changed')).toHaveLength(0);
    rerender(
      <WithIntl>
        <OrderBook book={book({ ...levels, seq: 6, asks: [{ price: 15100, qty: 40, orders: 1 }, levels.asks[1]!] })} asset={asset} ownOrders={[]} />
      </WithIntl>,
    );
    const changed = [...document.querySelectorAll('.book-level-changed')].map((row) => row.getAttribute('data-price'));
    expect(changed).toEqual(['151.00']);
    act(() => vi.advanceTimersByTime(CHANGE_HIGHLIGHT_MS + 10));
    expect(document.querySelectorAll('.book-level-changed')).toHaveLength(0);
  });

  it('keeps each change highlighted for its own time when changes come one after another', () => {
    vi.useFakeTimers();
    const { rerender } = render(
      <WithIntl>
        <OrderBook book={book(levels)} asset={asset} ownOrders={[]} />
      </WithIntl>,
    );
    const show = (bids: typeof levels.bids) =>
      rerender(
        <WithIntl>
          <OrderBook book={book({ ...levels, bids })} asset={asset} ownOrders={[]} />
        </WithIntl>,
      );
    const highlighted = () => [...document.querySelectorAll('.book-level-changed')].map((row) => row.getAttribute('data-price'));
    show([{ price: 15000, qty: 90, orders: 2 }, levels.bids[1]!]);
    act(() => vi.advanceTimersByTime(500));
    show([{ price: 15000, qty: 90, orders: 2 }, { price: 14990, qty: 60, orders: 1 }]);
    expect(highlighted()).toEqual(['150.00', '149.90']);
    act(() => vi.advanceTimersByTime(CHANGE_HIGHLIGHT_MS - 500 + 10));
    expect(highlighted()).toEqual(['149.90']);
    act(() => vi.advanceTimersByTime(500));
    expect(highlighted()).toEqual([]);
  });

  it('off screen, redraws its levels only every so often, but shows a stale book at once and the live one when back in view', () => {
    vi.useFakeTimers();
    const observers: Array<(entries: Array<{ isIntersecting: boolean }>) => void> = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: (entries: Array<{ isIntersecting: boolean }>) => void) {
          observers.push(callback);
        }
        observe() {}
        disconnect() {}
      },
    );
    try {
      const at = (qty: number, partial: Parameters<typeof book>[0] = {}) => (
        <WithIntl>
          <OrderBook book={book({ ...levels, bids: [{ price: 15000, qty, orders: 2 }, levels.bids[1]!], ...partial })} asset={asset} ownOrders={[]} />
        </WithIntl>
      );
      const bestBid = () => rowsOf('Bids')[0]!.children[1]!.textContent;
      const { rerender } = render(at(100));
      act(() => observers[0]!([{ isIntersecting: false }]));
      rerender(at(110));
      rerender(at(120));
      expect(bestBid()).toBe('10.0');
      act(() => vi.advanceTimersByTime(OFFSCREEN_REFRESH_MS));
      expect(bestBid()).toBe('12.0');
      rerender(at(130, { stale: true, staleReason: 'gap' }));
      expect(screen.getByRole('status')).toBeTruthy();
      expect(bestBid()).toBe('13.0');
      rerender(at(140));
      expect(bestBid()).toBe('14.0'); // back from stale: drawn at once
      rerender(at(150));
      expect(bestBid()).toBe('14.0');
      act(() => observers[0]!([{ isIntersecting: true }]));
      expect(bestBid()).toBe('15.0');
      rerender(at(160));
      expect(bestBid()).toBe('16.0');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
