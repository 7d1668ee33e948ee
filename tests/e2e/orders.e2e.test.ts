import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.ts';
import { appUrl, newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
let broker1: string;
let broker2: string;
let admin: string;
beforeAll(async () => {
  ({ t, browser } = await startAppAndBrowser());
  broker1 = await t.login('broker1');
  broker2 = await t.login('broker2');
  admin = await t.login('admin');
});
afterAll(() => stopAppAndBrowser(t, browser));

const words = {
  en: {
    ordersTab: 'Orders',
    direction: 'Direction',
    asset: 'Asset',
    ask: 'Ask',
    historyOf: (id: string) => `History of order ${id}`,
    orderTitle: (id: string) => `Order ${id}`,
    events: 'Order events',
    created: 'Created',
    modified: 'Modified',
    partially: 'Partially traded',
    fill: 'Fill: 4.0 at 150.00',
    notifications: 'Notifications',
    // The closing and the return to trading a moment later may be one grouped entry: the market's phase now.
    phase: /Gas spot is now in the (closing phase|trading phase \(2 phase changes\))/,
    trade: 'Trade on GSPOT-DA',
    markAllRead: 'Mark all as read',
    allOrders: 'All orders',
  },
  ro: {
    ordersTab: 'Ordine',
    direction: 'Direcție',
    asset: 'Activ',
    ask: 'Vânzare',
    historyOf: (id: string) => `Istoricul ordinului ${id}`,
    orderTitle: (id: string) => `Ordinul ${id}`,
    events: 'Evenimentele ordinului',
    created: 'Creat',
    modified: 'Modificat',
    partially: 'Tranzacționat parțial',
    fill: 'Executare: 4,0 la 160,00',
    notifications: 'Notificări',
    phase: /Gaze naturale spot este acum în faza de (închidere|tranzacționare \(2 schimbări de fază\))/,
    trade: 'Tranzacție pe GSPOT-DA',
    markAllRead: 'Marchează toate ca citite',
    allOrders: 'Toate ordinele',
  },
} as const;

const url = (locale: 'ro' | 'en', path: string) => appUrl(t, locale, path);
let keySeq = 0;
async function place(token: string, order: Record<string, unknown>): Promise<string> {
  const result = await t.post('/orders', { idempotencyKey: `e2e-orders-${String(++keySeq).padStart(4, '0')}`, validityType: 'day', ...order }, token);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body.order.orderId as string;
}

describe('orders and notifications', () => {
  for (const [locale, price] of [
    ['ro', 16000],
    ['en', 15000],
  ] as const) {
    it(`filters the orders table, opens an order's history and sees notifications in the list (${locale})`, async () => {
      const w = words[locale];
      // broker1's ask: created, modified, then partly taken by broker2; a bid of broker1 on another asset.
      const askId = await place(broker1, { assetId: 'GSPOT-DA', way: 'ask', price: price - 100, qty: 100, clientCode: 'RO-HIDRO' });
      const modify = await fetch(`${t.api}/orders/${askId}`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bearer ${broker1}` }, body: JSON.stringify({ price }) });
      expect(modify.status).toBe(200);
      await place(broker2, { assetId: 'GSPOT-DA', way: 'bid', price, qty: 40, clientCode: 'RO-TERMO' });
      await place(broker1, { assetId: 'GSPOT-WD', way: 'bid', price: 9000, qty: 50, clientCode: 'RO-GAZEST' });

      const { page, context } = await newPage(browser);
      await signIn(page, t, 'broker1', locale);
      await page.goto(url(locale, 'my-account/orders'));
      const table = page.getByRole('table', { name: w.ordersTab });
      await table.getByRole('row').nth(2).waitFor({ timeout: 10_000 });

      // Filter: asks on GSPOT-DA only.
      await page.getByLabel(w.direction, { exact: true }).selectOption('ask');
      await page.getByLabel(w.asset, { exact: true }).selectOption('GSPOT-DA');
      await expect
        .poll(async () => {
          const ways = await table.locator('tbody .way').allTextContents();
          return ways.length > 0 && ways.every((way) => way === w.ask);
        }, { timeout: 10_000 })
        .toBe(true);
      await table.getByRole('button', { name: w.historyOf(askId) }).waitFor();
      await settle(page);
      await screenshot(page, `orders-table-${locale}-light`);

      // The order's history: created, modified, partly traded with its fill.
      await table.getByRole('button', { name: w.historyOf(askId) }).click();
      const drawer = page.getByRole('dialog', { name: w.orderTitle(askId) });
      const events = drawer.getByRole('list', { name: w.events });
      await events.waitFor({ timeout: 10_000 });
      const kinds = await events.locator('li strong').allTextContents();
      expect(kinds).toEqual([w.created, w.modified, w.partially]);
      expect(await events.locator('li').nth(2).textContent()).toContain(w.fill);
      await screenshot(page, `orders-history-${locale}-light`);
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });

      // Live news: the operator closes the gas spot market, and broker2 takes more of the ask.
      expect((await t.post('/admin/markets/GAS-SPOT/phase', { phase: 'closing' }, admin)).status).toBe(204);
      const bell = page.locator('.notification-bell');
      await expect.poll(async () => (await bell.getAttribute('aria-label')) ?? '', { timeout: 10_000 }).not.toBe(w.notifications);
      await t.post('/admin/markets/GAS-SPOT/phase', { phase: 'trading' }, admin);
      await place(broker2, { assetId: 'GSPOT-DA', way: 'bid', price, qty: 10, clientCode: 'RO-TERMO' });

      await bell.click();
      const list = page.getByRole('dialog', { name: w.notifications });
      await list.getByTestId('notification').filter({ hasText: w.trade }).first().waitFor({ timeout: 10_000 });
      await list.getByTestId('notification').filter({ hasText: w.phase }).first().waitFor();
      // Newest first: the trade came after the phase change.
      const texts = await list.locator('.notification-text').allTextContents();
      expect(texts.findIndex((text) => text.startsWith(w.trade))).toBeLessThan(texts.findIndex((text) => w.phase.test(text)));
      // The trade came on two queues (trades and notifications): it is listed once.
      expect(texts.filter((text) => text.startsWith(w.trade)).length).toBe(1);
      await screenshot(page, `notifications-list-${locale}-light`);
      await list.getByRole('button', { name: w.markAllRead }).click();
      await expect.poll(() => bell.getAttribute('aria-label')).toBe(w.notifications);
      await page.keyboard.press('Escape');

      // The orders dialog opens from the active orders card too.
      await page.goto(url(locale, 'trading/market/GAS-SPOT/assets/GSPOT-DA'));
      await page.getByRole('button', { name: w.allOrders, exact: true }).first().click();
      const dialog = page.getByRole('dialog', { name: w.ordersTab });
      await dialog.getByRole('button', { name: w.historyOf(askId) }).waitFor({ timeout: 10_000 });
      await screenshot(page, `orders-dialog-${locale}-light`);
      await context.close();
    });
  }
});
