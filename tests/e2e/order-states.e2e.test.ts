/**
 * Order states that never lie, on both sides of a cross: the aggressor and the resting order, full and
 * partial fills, in ro and en. Each page records, every animation frame, the rows of its "My active
 * orders" table and the replies to its order calls (with their time), so the test can say that no frame
 * after a trade reached the browser showed the traded order as open.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.ts';
import { appUrl, newPage, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
beforeAll(async () => ({ t, browser } = await startAppAndBrowser()));
afterAll(() => stopAppAndBrowser(t, browser));

const words = {
  en: { price: 'Price (RON)', quantity: 'Quantity (MWh)', client: 'Client code', myOrders: 'My active orders', partial: 'Partially traded', tradedFive: '5.0' },
  ro: { price: 'Preț (RON)', quantity: 'Cantitate (MWh)', client: 'Cod client', myOrders: 'Ordinele mele active', partial: 'Tranzacționat parțial', tradedFive: '5,0' },
} as const;
type Locale = keyof typeof words;

const assetPath = 'trading/market/GAS-SPOT/assets/GSPOT-DA';

interface Frame {
  t: number;
  /** orderId -> the row's text, for every row of the active orders table. */
  rows: Record<string, string>;
}
interface Reply {
  t: number;
  orderId: string;
  status: string;
}
declare global {
  interface Window {
    __frames: Frame[];
    __replies: Reply[];
  }
}

/** Records the active orders table every frame (when it changes) and every order reply. */
async function record(page: Page, tableName: string): Promise<void> {
  await page.addInitScript((name: string) => {
    window.__frames = [];
    window.__replies = [];
    const fetch = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (/\/orders(\/[^/]+(\/(cancel|suspend|activate))?)?$/.test(url) && (init?.method ?? 'GET') !== 'GET') {
        response
          .clone()
          .json()
          .then((body: { order?: { orderId: string; status: string } }) => {
            if (body.order) window.__replies.push({ t: performance.now(), orderId: body.order.orderId, status: body.order.status });
          })
          .catch(() => {});
      }
      return response;
    };
    let last = '';
    const frame = () => {
      const table = document.querySelector(`table[aria-label="${name}"]`);
      const rows: Record<string, string> = {};
      for (const row of table?.querySelectorAll<HTMLElement>('tbody tr[data-row-key]') ?? []) rows[row.dataset.rowKey!] = row.textContent ?? '';
      const key = JSON.stringify(rows);
      if (key !== last) {
        last = key;
        window.__frames.push({ t: performance.now(), rows });
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, tableName);
}

async function replyFor(page: Page, index: number): Promise<Reply> {
  await page.waitForFunction((i) => window.__replies.length > i, index, { timeout: 10_000 });
  return (await page.evaluate((i) => window.__replies[i], index))!;
}

/** The rows of `orderId` on screen from `since` (page time) on: the frame shown then and every later one. */
async function rowsAfter(page: Page, orderId: string, since: number): Promise<string[]> {
  return page.evaluate(
    ({ id, since }) => {
      const frames = window.__frames;
      let first = frames.findIndex((frame) => frame.t > since);
      if (first === -1) first = frames.length;
      return frames
        .slice(Math.max(0, first - 1))
        .filter((frame) => frame.rows[id] !== undefined)
        .map((frame) => frame.rows[id]!);
    },
    { id: orderId, since },
  );
}

/** Sends an order from the ticket that the B or S key opens on the asset page. */
async function send(page: Page, locale: Locale, key: 'b' | 's', price: string, quantity: string, client: string): Promise<void> {
  const w = words[locale];
  await page.locator('body').press(key);
  const ticket = page.getByRole('dialog');
  await ticket.waitFor();
  await ticket.getByLabel(w.price).fill(price);
  await ticket.getByLabel(w.quantity).fill(quantity);
  await ticket.getByLabel(w.client).selectOption(client);
  await ticket.getByLabel(w.quantity).press('Enter');
  await ticket.waitFor({ state: 'detached' });
}

function activeOrders(page: Page, locale: Locale) {
  return page.getByRole('table', { name: words[locale].myOrders });
}

function orderRow(page: Page, locale: Locale, orderId: string) {
  return activeOrders(page, locale).locator(`tbody tr[data-row-key="${orderId}"]`);
}

describe('order states on both sides of a cross', () => {
  for (const [locale, full, partial] of [
    ['ro', ['161.00', '161,00'], ['162.00', '162,00']],
    ['en', ['163.00', '163.00'], ['164.00', '164.00']],
  ] as const) {
    it(`aggressor and resting order, full and partial fills, are never shown open after their trade (${locale})`, async () => {
      const w = words[locale];
      const seller = await newPage(browser);
      const buyer = await newPage(browser);
      await record(seller.page, w.myOrders);
      await record(buyer.page, w.myOrders);
      await signIn(seller.page, t, 'broker1', locale);
      await signIn(buyer.page, t, 'broker2', locale);
      for (const { page } of [seller, buyer]) {
        await page.goto(appUrl(t, locale, assetPath));
        await page.locator('.order-book:not(.order-book-stale)').waitFor({ timeout: 10_000 });
      }

      // 1. Full fill on entry. broker1 rests an ask; broker2's bid takes all of it.
      await send(seller.page, locale, 's', full[0], '5.0', 'RO-HIDRO');
      const restingAsk = await replyFor(seller.page, 0);
      expect(restingAsk.status).toBe('created');
      await orderRow(seller.page, locale, restingAsk.orderId).waitFor();
      await send(buyer.page, locale, 'b', full[0], '5.0', 'RO-TERMO');
      const fullBid = await replyFor(buyer.page, 0);
      expect(fullBid.status).toBe('traded');
      // The resting side leaves broker1's table; the aggressor never enters broker2's.
      await orderRow(seller.page, locale, restingAsk.orderId).waitFor({ state: 'detached', timeout: 10_000 });
      await buyer.page.locator(`.book-side-ask tr[data-price="${full[1]}"]`).waitFor({ state: 'detached', timeout: 10_000 });
      expect(await rowsAfter(buyer.page, fullBid.orderId, 0)).toEqual([]);
      expect(await orderRow(buyer.page, locale, fullBid.orderId).count()).toBe(0);

      // 2. Partial fill on entry. broker1 rests 5.0; broker2 bids 8.0: 5.0 trade, 3.0 rest as partially traded.
      await send(seller.page, locale, 's', partial[0], '5.0', 'RO-HIDRO');
      const secondAsk = await replyFor(seller.page, 1);
      await send(buyer.page, locale, 'b', partial[0], '8.0', 'RO-TERMO');
      const partialBid = await replyFor(buyer.page, 1);
      expect(partialBid.status).toBe('tradedPartially');
      const partialRow = orderRow(buyer.page, locale, partialBid.orderId);
      await partialRow.filter({ hasText: w.partial }).waitFor({ timeout: 10_000 });
      await expect.poll(() => partialRow.textContent()).toContain(w.tradedFive);
      await orderRow(seller.page, locale, secondAsk.orderId).waitFor({ state: 'detached', timeout: 10_000 });
      // From its reply on, broker2's order was never shown as merely created.
      const shown = await rowsAfter(buyer.page, partialBid.orderId, partialBid.t);
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.filter((text) => !text.includes(w.partial))).toEqual([]);
      // broker2's own bid is marked in its book.
      await buyer.page.locator(`.book-side-bid tr[data-price="${partial[1]}"] .book-own-mark`).waitFor({ timeout: 10_000 });
      await screenshot(buyer.page, `order-states-partial-${locale}`);
      // The partial order offers its actions; the home page (another tab, the same sign-in) lists it too.
      await expect.poll(() => partialRow.getByRole('button').count()).toBeGreaterThanOrEqual(3);
      const home = await buyer.context.newPage();
      await home.goto(appUrl(t, locale, ''));
      const homeRow = activeOrders(home, locale).locator(`tbody tr[data-row-key="${partialBid.orderId}"]`);
      await homeRow.filter({ hasText: w.partial }).waitFor({ timeout: 10_000 });
      expect(await activeOrders(home, locale).locator(`tbody tr[data-row-key="${fullBid.orderId}"]`).count()).toBe(0);

      // 3. The resting partial is filled: broker1's ask of 3.0 takes the rest. broker1's aggressor never
      //    shows; broker2's resting order leaves its table and its book mark goes.
      await send(seller.page, locale, 's', partial[0], '3.0', 'RO-HIDRO');
      const lastAsk = await replyFor(seller.page, 2);
      expect(lastAsk.status).toBe('traded');
      await partialRow.waitFor({ state: 'detached', timeout: 10_000 });
      await homeRow.waitFor({ state: 'detached', timeout: 10_000 });
      await home.close();
      await buyer.page.locator(`.book-side-bid tr[data-price="${partial[1]}"]`).waitFor({ state: 'detached', timeout: 10_000 });
      expect(await rowsAfter(seller.page, lastAsk.orderId, 0)).toEqual([]);
      expect(await rowsAfter(seller.page, restingAsk.orderId, lastAsk.t)).toEqual([]);

      // After a reload the tables agree with what the live views showed.
      for (const { page } of [seller, buyer]) {
        await page.reload();
        await page.locator('.order-book:not(.order-book-stale)').waitFor({ timeout: 10_000 });
      }
      for (const id of [restingAsk.orderId, secondAsk.orderId, lastAsk.orderId]) expect(await orderRow(seller.page, locale, id).count()).toBe(0);
      for (const id of [fullBid.orderId, partialBid.orderId]) expect(await orderRow(buyer.page, locale, id).count()).toBe(0);
      await screenshot(seller.page, `order-states-after-${locale}`);
      await seller.context.close();
      await buyer.context.close();
    }, 120_000);
  }
});
