// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification, OrderUpdate, Transaction } from '../../../../protocol/market-data.ts';
import type { Market } from '../../../../protocol/reference.ts';
import { NotificationBellView } from '../../../../src/trading/notifications/NotificationBell.tsx';
import { createNotificationCenter, REPLAY_WINDOW_MS } from '../../../../src/trading/notifications/notification-center.ts';
import { WithIntl } from '../../components/intl.tsx';
import { asset } from '../fixtures.ts';
import { serverNotification, transaction } from './fixtures.ts';

beforeEach(() => {
  // jsdom has no layout: give the list's scrolling body the height a browser would.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('notification-scroll') ? 560 : 0;
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const market: Market = { id: 'GAS-SPOT', name: 'Gas spot', names: { ro: 'Gaze naturale spot', en: 'Gas spot' }, commodity: 'gas', kind: 'spot', workspaceType: 'gas', currency: 'RON' };
const reference = { assets: new Map([[asset.id, asset]]), markets: new Map([[market.id, market]]) };

function setup(locale: 'en' | 'ro' = 'en') {
  let clock = 0;
  const sources = { orders: new Subject<OrderUpdate>(), trades: new Subject<Transaction>(), notifications: new Subject<Notification>() };
  const center = createNotificationCenter({ ...sources, now: () => clock });
  center.start();
  clock += REPLAY_WINDOW_MS + 1;
  render(
    <WithIntl locale={locale}>
      <NotificationBellView center={center} reference={reference} />
    </WithIntl>,
  );
  return { center, ...sources };
}

const phase = serverNotification({ id: 'p-1', kind: 'phaseChanged', at: '2026-11-22T09:00:00.000Z', values: { marketId: 'GAS-SPOT', assetId: '', phase: 'closing', previous: 'trading', sessionDate: '2026-11-22' } });
const traded = serverNotification({
  id: 't-1',
  kind: 'orderTraded',
  values: { transactionId: 'T-1', orderId: 'O-1', way: 'ask', assetId: asset.id, qty: 50, price: 15100, clientCode: 'RO-HIDRO' },
});

describe('the notifications bell', () => {
  it('counts unread notifications and lists them newest first, in the user language, with a kinds filter', () => {
    const { notifications, trades } = setup();
    const bell = screen.getByRole('button', { name: 'Notifications' });
    expect(screen.queryByTestId('notification-count')).toBeNull();
    act(() => {
      notifications.next(phase);
      trades.next(transaction);
      notifications.next(traded); // the same trade: no second entry
    });
    expect(bell.getAttribute('aria-label')).toBe('Notifications, 2 unread');
    expect(screen.getByTestId('notification-count').textContent).toBe('2');

    fireEvent.click(bell);
    const drawer = screen.getByRole('dialog', { name: 'Notifications' });
    const items = within(drawer).getAllByTestId('notification');
    expect(items.map((item) => item.querySelector('.notification-text')?.textContent)).toEqual([
      'Trade on GSPOT-DA: your order O-1 (Ask) for RO-HIDRO traded 5.0 at 151.00',
      'Gas spot is now in the closing phase',
    ]);
    expect(items[1]!.textContent).toContain('22/11/2026, 11:00:00'); // 09:00 UTC in Bucharest time

    fireEvent.click(within(drawer).getByRole('radio', { name: 'Session phases' }));
    expect(within(drawer).getAllByTestId('notification').map((item) => item.getAttribute('data-category'))).toEqual(['phase']);
    fireEvent.click(within(drawer).getByRole('radio', { name: 'Workflows' }));
    expect(within(drawer).getByText('No notifications yet.')).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('radio', { name: 'All' }));

    // Live: a new one goes on top while the list is open.
    act(() => notifications.next(serverNotification({ id: 'x-1', kind: 'orderExpired', at: '2026-11-22T10:10:00.000Z', values: { orderId: 'O-3', way: 'bid', assetId: asset.id, qty: 100, price: 14000, clientCode: 'RO-GAZEST' } })));
    expect(within(drawer).getAllByTestId('notification')[0]!.textContent).toContain('Order O-3 expired: Bid 10.0 GSPOT-DA at 140.00 for RO-GAZEST');
    expect(bell.getAttribute('aria-label')).toBe('Notifications, 3 unread');
  });

  it('marks one read on a click and all read at once', () => {
    const { notifications } = setup();
    act(() => {
      notifications.next(phase);
      notifications.next(traded);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Notifications, 2 unread' }));
    const drawer = screen.getByRole('dialog');
    fireEvent.click(within(drawer).getAllByTestId('notification')[0]!.querySelector('button')!);
    expect(screen.getByTestId('notification-count').textContent).toBe('1');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Mark all as read' }));
    expect(screen.queryByTestId('notification-count')).toBeNull();
    expect(within(drawer).getByRole('button', { name: 'Mark all as read' }).hasAttribute('disabled')).toBe(true);
  });

  it('speaks Romanian', () => {
    const { notifications } = setup('ro');
    act(() => {
      notifications.next(phase);
      notifications.next(serverNotification({ id: 'c-1', kind: 'orderCancelled', values: { orderId: 'O-4', way: 'bid', assetId: asset.id, qty: 60, price: 15000, clientCode: 'RO-INDUS', reason: 'ioc' } }));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Notificări, 2 necitite' }));
    const texts = within(screen.getByRole('dialog')).getAllByTestId('notification').map((item) => item.querySelector('.notification-text')?.textContent);
    expect(texts).toEqual([
      'Ordinul O-4 a fost anulat de sistem (restul unui ordin imediat-sau-anulat): Cumpărare 6,0 GSPOT-DA la 150,00 pentru RO-INDUS',
      'Gaze naturale spot este acum în faza de închidere',
    ]);
  });

  it('keeps grouped entries: one line with a count, counted once among the unread, in both languages', () => {
    for (const [locale, bellName, expected] of [
      ['en', 'Notifications, 3 unread', ['25 trades on GSPOT-DA for your orders', 'GSPOT-WD (Gas spot) is now in the closing phase (2 phase changes)', '3 orders of RO-INDUS on GSPOT-DA cancelled by the system']],
      ['ro', 'Notificări, 3 necitite', ['25 de tranzacții pe GSPOT-DA pentru ordinele dumneavoastră', 'GSPOT-WD (Gaze naturale spot) este acum în faza de închidere (2 schimbări de fază)', '3 ordine ale clientului RO-INDUS pe GSPOT-DA au fost anulate de sistem']],
    ] as const) {
      const { notifications, trades } = setup(locale);
      act(() => {
        for (const id of ['O-1', 'O-2', 'O-3']) {
          notifications.next(serverNotification({ id: `c-${id}`, kind: 'orderCancelled', values: { orderId: id, assetId: asset.id, clientCode: 'RO-INDUS', reason: 'ioc' } }));
        }
        for (const assetId of [asset.id, 'GSPOT-WD']) notifications.next(serverNotification({ id: `p-${assetId}`, kind: 'phaseChanged', values: { marketId: 'GAS-SPOT', assetId, phase: 'closing' } }));
        for (let index = 0; index < 25; index++) trades.next({ ...transaction, transactionId: `T-${index}` });
      });
      fireEvent.click(screen.getByRole('button', { name: bellName }));
      const items = within(screen.getByRole('dialog')).getAllByTestId('notification');
      expect(items.map((item) => item.querySelector('.notification-text')?.textContent)).toEqual(expected);
      // Read once, the whole group is read.
      fireEvent.click(items[0]!.querySelector('button')!);
      expect(screen.getByTestId('notification-count').textContent).toBe('2');
      cleanup();
    }
  });
});
