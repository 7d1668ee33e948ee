// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification, OrderUpdate, Transaction } from '../../../protocol/market-data.ts';
import { createNotificationCenter, REPLAY_WINDOW_MS } from '../../../src/trading/notifications/notification-center.ts';
import { FILL_MIN_MS, NOTICE_MS } from '../../../src/trading/notifications/toast-tray.ts';
import { ToastTrayView } from '../../../src/trading/notifications/ToastTray.tsx';
import { WithIntl } from '../components/intl.tsx';
import { asset, order, transaction as tradeFixture } from './fixtures.ts';
import { serverNotification } from './notifications/fixtures.ts';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-22T10:00:00.000Z'));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const reference = { assets: new Map([[asset.id, asset]]) };

function setup(locale: 'en' | 'ro' = 'en') {
  const sources = { orders: new Subject<OrderUpdate>(), trades: new Subject<Transaction>(), notifications: new Subject<Notification>() };
  const center = createNotificationCenter(sources);
  const onBeep = vi.fn();
  render(
    <WithIntl locale={locale}>
      <ToastTrayView center={center} sound reference={reference} onBeep={onBeep} />
    </WithIntl>,
  );
  center.start();
  return { center, onBeep, ...sources };
}

const tray = () => screen.getByRole('status', { name: /Notifications|Notificări/ });
const toastTexts = () => within(tray()).queryAllByTestId('toast').map((toast) => toast.textContent?.replace('×', '') ?? '');
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const expiry = (id: string, clientCode = 'RO-HIDRO') =>
  serverNotification({ id: `e-${id}`, kind: 'orderExpired', values: { orderId: id, assetId: asset.id, clientCode, way: 'bid', qty: 100, price: 14000 } });

describe('the toast tray', () => {
  it("toasts own fills and expiries, but not the replay, the user's own order events or market-wide phases", () => {
    const { orders, trades, notifications, onBeep } = setup();
    act(() => orders.next({ seq: 40, order: order({ orderId: 'old-1' }) })); // the replay on subscribe
    wait(REPLAY_WINDOW_MS + 1);
    act(() => {
      orders.next({ seq: 41, order: order({ orderId: 'O-1', way: 'ask', price: 15100, offeredQty: 50 }) });
      orders.next({ seq: 42, order: order({ orderId: 'O-1', status: 'cancelled' }) });
      notifications.next(serverNotification({ id: 'p-1', kind: 'phaseChanged', values: { marketId: 'GAS-SPOT', assetId: asset.id, phase: 'closing' } }));
    });
    expect(toastTexts()).toEqual([]);
    expect(onBeep).not.toHaveBeenCalled();
    act(() => {
      trades.next(tradeFixture());
      notifications.next(expiry('O-3'));
    });
    expect(toastTexts()).toEqual(['Order O-3 expired: Bid 10.0 GSPOT-DA at 140.00 for RO-HIDRO', 'Trade on GSPOT-DA: 5.0 at 151.00 (RO-HIDRO → RO-TERMO)']);
    expect(onBeep).toHaveBeenCalledTimes(2);
  });

  it('groups many at once into one toast with a count, in English and Romanian', () => {
    for (const [locale, text] of [
      ['en', '12 orders of RO-HIDRO on GSPOT-DA expired'],
      ['ro', '12 ordine ale clientului RO-HIDRO pe GSPOT-DA au expirat'],
    ] as const) {
      const { notifications, onBeep } = setup(locale);
      wait(REPLAY_WINDOW_MS + 1);
      act(() => {
        for (let index = 1; index <= 12; index++) notifications.next(expiry(`O-${index}`));
      });
      expect(toastTexts()).toEqual([text]);
      expect(onBeep).toHaveBeenCalledTimes(1);
      cleanup();
    }
  });

  it("shows at most three; a notice leaves after NOTICE_MS, one's own fill stays until read", () => {
    const { center, trades, notifications } = setup();
    wait(REPLAY_WINDOW_MS + 1);
    act(() => trades.next(tradeFixture()));
    act(() => {
      notifications.next(expiry('A', 'RO-A'));
      notifications.next(expiry('B', 'RO-B'));
      notifications.next(expiry('C', 'RO-C'));
    });
    expect(toastTexts()).toHaveLength(3);
    expect(toastTexts()[2]).toContain('Trade on GSPOT-DA');
    wait(NOTICE_MS);
    expect(toastTexts()).toEqual(['Trade on GSPOT-DA: 5.0 at 151.00 (RO-HIDRO → RO-TERMO)']);
    wait(10 * FILL_MIN_MS);
    expect(toastTexts()).toHaveLength(1);
    // Read by a click: the toast leaves and the bell's entry is read.
    fireEvent.click(within(tray()).getByRole('button', { name: /Trade on GSPOT-DA/ }));
    expect(toastTexts()).toEqual([]);
    expect(center.current().entries.find((entry) => entry.key === 'trade:T-1')?.read).toBe(true);
  });

  it('words a workflow transition with the status it is now in, in the reader language', () => {
    const transition = serverNotification({
      id: 'w-1',
      kind: 'workflow',
      values: { workflow: 'transfer', instanceId: 'wf-1', transactionId: '1001', action: 'accept', status: 'awaitingAdminApproval', initiatorClient: 'RO-HIDRO', partnerClient: 'RO-TERMO', reason: '' },
    });
    for (const [locale, text] of [
      ['en', 'Transfer to CCP of transaction 1001 (RO-HIDRO / RO-TERMO): accepted, now awaiting administrator approval'],
      ['ro', 'Transferul la CCP al tranzacției 1001 (RO-HIDRO / RO-TERMO): acceptare, acum în așteptarea aprobării administratorului'],
    ] as const) {
      const { notifications } = setup(locale);
      wait(REPLAY_WINDOW_MS + 1);
      act(() => notifications.next(transition));
      expect(toastTexts()).toEqual([text]);
      cleanup();
    }
  });

  it('names a workflow item by its transaction number, else by its kind and clients, never by the internal instance id (toast and bell)', () => {
    const base = { instanceId: 'wf-ee37c0de', action: 'activate', status: 'awaiting_partner_accept', initiatorClient: 'RO-HIDRO', partnerClient: 'RO-TERMO', reason: '' };
    for (const [values, locale, text] of [
      // An OTC deal not yet a transaction (transactionId ''), and one from a server that sends no transactionId.
      [{ ...base, workflow: 'otc', transactionId: '' }, 'en', 'OTC deal (RO-HIDRO / RO-TERMO): activated, now awaiting partner acceptance'],
      [{ ...base, workflow: 'otc' }, 'ro', 'Tranzacția OTC (RO-HIDRO / RO-TERMO): activare, acum în așteptarea acceptului partenerului'],
      [{ ...base, workflow: 'contract', transactionId: '1003', action: 'upload', status: 'AWAITING_PARTNER_ACCEPT' }, 'ro', 'Contractul tranzacției 1003 (RO-HIDRO / RO-TERMO): contract încărcat, acum în așteptarea acceptului partenerului'],
      [{ ...base, workflow: 'whitelist', transactionId: '', action: 'create', status: 'PENDING' }, 'en', 'Whitelist request (RO-HIDRO / RO-TERMO): registered, now pending'],
    ] as const) {
      const { notifications } = setup(locale);
      wait(REPLAY_WINDOW_MS + 1);
      act(() => notifications.next(serverNotification({ id: `w-${text}`, kind: 'workflow', values })));
      expect(toastTexts(), text).toEqual([text]);
      expect(toastTexts()[0]).not.toContain('wf-ee37c0de');
      cleanup();
    }
  });

  it('a notice expires while another toast comes in the same batch: the tray keeps working (no effect event called in render)', () => {
    const { notifications } = setup();
    wait(REPLAY_WINDOW_MS + 1);
    act(() => notifications.next(expiry('A', 'RO-A')));
    expect(toastTexts()).toHaveLength(1);
    wait(NOTICE_MS / 2);
    // The new toast's update is pending when A's expiry timer fires, so the expiry's updater runs during the render.
    act(() => {
      notifications.next(expiry('B', 'RO-B'));
      vi.advanceTimersByTime(NOTICE_MS / 2);
    });
    expect(toastTexts()).toHaveLength(1);
    expect(toastTexts()[0]).toContain('RO-B');
  });

  it('a toast dismissed, or read in the bell, leaves the tray', () => {
    const { center, trades } = setup();
    wait(REPLAY_WINDOW_MS + 1);
    act(() => trades.next(tradeFixture()));
    act(() => trades.next({ ...tradeFixture(), transactionId: 'T-9', assetId: 'GSPOT-WD' }));
    expect(toastTexts()).toHaveLength(2);
    fireEvent.click(within(tray()).getAllByRole('button', { name: 'Dismiss' })[0]!);
    expect(toastTexts()).toHaveLength(1);
    act(() => center.markAllRead());
    expect(toastTexts()).toEqual([]);
  });
});
