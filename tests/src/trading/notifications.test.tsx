// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createIntl } from 'react-intl';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification, OrderUpdate, Transaction } from '../../../protocol/market-data.ts';
import { messagesFor } from '../../../src/i18n/messages/index.ts';
import { notificationToasts, REPLAY_WINDOW_MS, ToastRegion } from '../../../src/trading/TradingDesk.tsx';
import { WithIntl } from '../components/intl.tsx';
import { asset, order, transaction as tradeFixture } from './fixtures.ts';

afterEach(cleanup);

const transaction = tradeFixture();

function setup(locale: 'en' | 'ro' = 'en') {
  let clock = 1_000_000;
  const orders = new Subject<OrderUpdate>();
  const trades = new Subject<Transaction>();
  const texts: string[] = [];
  const intl = createIntl({ locale, defaultLocale: 'ro', messages: messagesFor(locale) });
  notificationToasts({ orders, trades, intl, assets: () => new Map([[asset.id, asset]]), now: () => clock }).subscribe((toast) => texts.push(`${toast.tone}: ${toast.text}`));
  return { orders, trades, texts, advance: (ms: number) => (clock += ms) };
}

describe('notifications', () => {
  it('ignores the replay of existing orders on subscribe and reports later order events and trades', () => {
    const { orders, trades, texts, advance } = setup();
    orders.next({ seq: 40, order: order({ orderId: 'old-1' }) });
    orders.next({ seq: 40, order: order({ orderId: 'old-2', status: 'cancelled' }) });
    advance(REPLAY_WINDOW_MS + 1);
    orders.next({ seq: 40, order: order({ orderId: 'old-3' }) }); // late part of the same replay
    expect(texts).toEqual([]);

    orders.next({ seq: 41, order: order({ orderId: 'O-1', way: 'ask', price: 15100, offeredQty: 50 }) });
    orders.next({ seq: 42, order: order({ orderId: 'O-1', way: 'ask', price: 15100, status: 'cancelled', offeredQty: 50 }) });
    trades.next(transaction);
    expect(texts).toEqual([
      'info: Order Created: Ask 5.0 GSPOT-DA at 151.00 for RO-HIDRO',
      'warning: Order Cancelled: Ask 5.0 GSPOT-DA at 151.00 for RO-HIDRO',
      'success: Trade on GSPOT-DA: 5.0 at 151.00 (RO-HIDRO → RO-TERMO)',
    ]);
  });

  it('reports an order event at once when there was nothing to replay, in Romanian too', () => {
    const { orders, trades, texts, advance } = setup('ro');
    advance(REPLAY_WINDOW_MS + 1);
    orders.next({ seq: 7, order: order({ suspended: true }) });
    trades.next(transaction);
    expect(texts).toEqual([
      'info: Ordin suspendat (Creat): Cumpărare 10,0 GSPOT-DA la 150,00 pentru RO-HIDRO',
      'success: Tranzacție pe GSPOT-DA: 5,0 la 151,00 (RO-HIDRO → RO-TERMO)',
    ]);
  });

  it("toasts the server's notifications, but never a fact twice: the server's copy of a trade or an order's end makes no second toast", () => {
    let clock = 1_000_000;
    const orders = new Subject<OrderUpdate>();
    const trades = new Subject<Transaction>();
    const notifications = new Subject<Notification>();
    const texts: string[] = [];
    const intl = createIntl({ locale: 'en', defaultLocale: 'ro', messages: messagesFor('en') });
    const subscription = notificationToasts({ orders, trades, notifications, intl, assets: () => new Map([[asset.id, asset]]), now: () => clock }).subscribe((toast) => texts.push(`${toast.tone}: ${toast.text}`));
    clock += REPLAY_WINDOW_MS + 1;
    const at = '2026-11-22T10:00:01.000Z';
    trades.next(transaction);
    notifications.next({ id: 'n1', kind: 'orderTraded', messageKey: 'notifications.orderTraded', at, values: { transactionId: 'T-1', orderId: 'O-1', way: 'ask', assetId: asset.id, qty: 50, price: 15100, clientCode: 'RO-HIDRO' } });
    notifications.next({ id: 'n2', kind: 'orderExpired', messageKey: 'notifications.orderExpired', at, values: { orderId: 'O-3', way: 'bid', assetId: asset.id, qty: 100, price: 14000, clientCode: 'RO-GAZEST' } });
    orders.next({ seq: 50, order: order({ orderId: 'O-3', status: 'cancelled' }) });
    notifications.next({ id: 'n3', kind: 'phaseChanged', messageKey: 'notifications.phaseChanged', at, values: { marketId: 'GAS-SPOT', assetId: asset.id, phase: 'closing', previous: 'trading' } });
    subscription.unsubscribe();
    orders.next({ seq: 51, order: order({ orderId: 'O-4' }) });
    expect(texts).toEqual([
      'success: Trade on GSPOT-DA: 5.0 at 151.00 (RO-HIDRO → RO-TERMO)',
      'warning: Order O-3 expired: Bid 10.0 GSPOT-DA at 140.00 for RO-GAZEST',
      'info: GSPOT-DA (GAS-SPOT) is now in the Closing phase',
    ]);
  });

  it('shows toasts in a live region that can be dismissed', () => {
    const onDismiss = vi.fn();
    render(
      <WithIntl>
        <ToastRegion toasts={[{ id: 3, tone: 'success', text: 'Trade on GSPOT-DA' }]} onDismiss={onDismiss} />
      </WithIntl>,
    );
    expect(screen.getByRole('status', { name: 'Notifications' }).textContent).toContain('Trade on GSPOT-DA');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(onDismiss).toHaveBeenCalledWith(3);
  });
});
