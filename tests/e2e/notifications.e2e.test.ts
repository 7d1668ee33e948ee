import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketSimulator } from '../../server/demo/market-simulator.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { appUrl, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
beforeAll(async () => ({ t, browser } = await startAppAndBrowser()));
afterAll(() => stopAppAndBrowser(t, browser));

let keySeq = 0;
/** The simulator's orders the quiet test waits for (each also cancels past its depth). */
const SIMULATOR_ORDERS = 150;
async function place(token: string, order: Record<string, unknown>): Promise<void> {
  const result = await t.post('/orders', { idempotencyKey: `notify-e2e-${String(++keySeq).padStart(6, '0')}`, validityType: 'day', assetId: 'GSPOT-DA', ...order }, token);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
}

/** broker1's clients trade `count` times on GSPOT-DA against broker2's (each its own fill). */
async function fills(count: number, price: number): Promise<void> {
  const [broker1, broker2] = [await t.login('broker1'), await t.login('broker2')];
  for (let index = 0; index < count; index++) await place(broker2, { way: 'ask', price, qty: 10, clientCode: 'RO-TERMO' });
  await place(broker1, { way: 'bid', price, qty: 10 * count, clientCode: 'RO-HIDRO' });
}

/** `count` of broker1's orders for RO-HIDRO expire together (valid for a minute; the clock moves past it). */
async function expiries(count: number): Promise<void> {
  const broker1 = await t.login('broker1');
  const validity = new Date(t.clock.now() + 60_000).toISOString();
  for (let index = 0; index < count; index++) await place(broker1, { way: 'ask', price: 400_000 + index, qty: 10, validityType: 'GTSV', validity, clientCode: 'RO-HIDRO' });
  t.clock.advance(61_000);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The tray's box and the boxes of what it must never cover (books, tables, the ticket), as laid out now. */
async function layout(page: Page) {
  return page.evaluate(() => {
    const box = (element: Element) => {
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height };
    };
    const tray = document.querySelector('[data-testid="toast-tray"]');
    const header = document.querySelector('.app-header');
    const covered = [...document.querySelectorAll('.order-book, table, [role="dialog"]')]
      .map((element) => ({ what: `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 60), box: box(element) }))
      .filter((entry) => entry.box.width > 0 && entry.box.height > 0);
    return { tray: tray && box(tray), header: header && box(header), covered, toasts: document.querySelectorAll('[data-testid="toast"]').length };
  });
}

async function expectCoversNothing(page: Page, what: string): Promise<void> {
  const { tray, header, covered, toasts } = await layout(page);
  expect(tray, what).not.toBeNull();
  expect(toasts, what).toBeGreaterThan(0);
  expect(toasts, what).toBeLessThanOrEqual(3);
  // Part of the header: where the header is, the tray is; it never reaches over the page below it.
  expect(tray!.y).toBeGreaterThanOrEqual(header!.y);
  expect(tray!.y + tray!.height).toBeLessThanOrEqual(header!.y + header!.height + 0.5);
  expect(covered.length, `${what}: something to check against`).toBeGreaterThan(0);
  const overlapping = covered.filter((entry) => intersects(tray!, entry.box)).map((entry) => entry.what);
  expect(overlapping, what).toEqual([]);
}

const toast = (page: Page, text: string | RegExp) => page.getByTestId('toast').filter({ hasText: text });

describe('notifications that inform', () => {
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ] as const) {
    it(`toasts sit in the header's tray and never cover the books, the tables or the ticket (${width} px)`, async () => {
      const context = await browser.newContext({ viewport: { width, height }, locale: 'en-GB', timezoneId: 'Europe/Bucharest' });
      const page = await context.newPage();
      try {
        await signIn(page, t, 'broker1', 'en');

        await page.goto(appUrl(t, 'en', 'trading/workspace'));
        await settle(page);
        await fills(2, 20_000 + width);
        // Two fills at once are one toast with a count.
        await toast(page, '2 trades on GSPOT-DA for your orders').waitFor({ timeout: 10_000 });
        await expectCoversNothing(page, `workspace ${width}`);
        await screenshot(page, `notifications-tray-workspace-${width}`);

        await page.goto(appUrl(t, 'en', 'trading/market/GAS-SPOT/assets/GSPOT-DA'));
        await settle(page);
        await page.locator('.order-book:not(.order-book-stale)').first().waitFor({ timeout: 10_000 });
        await expiries(4);
        await toast(page, '4 orders of RO-HIDRO on GSPOT-DA expired').waitFor({ timeout: 10_000 });
        await fills(1, 21_000 + width);
        await toast(page, /^Trade on GSPOT-DA/).waitFor({ timeout: 10_000 });
        await expectCoversNothing(page, `asset page ${width}`);

        // The ticket open over the page: still nothing covered.
        await page.locator('body').press('b');
        await page.getByRole('dialog').waitFor();
        await expectCoversNothing(page, `ticket ${width}`);
        await screenshot(page, `notifications-tray-ticket-${width}`);
        await page.keyboard.press('Escape');
      } finally {
        await context.close();
      }
    });
  }

  it("one's own fill stays until read; the mute switch is the Account settings preference", async () => {
    const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/Bucharest' });
    const page = await context.newPage();
    try {
      await signIn(page, t, 'broker1', 'en');
      await page.goto(appUrl(t, 'en', 'trading/workspace'));
      await settle(page);
      await fills(1, 22_000);
      const fill = toast(page, /^Trade on GSPOT-DA/);
      await fill.waitFor({ timeout: 10_000 });
      await page.waitForTimeout(9_000);
      expect(await fill.count()).toBe(1);
      // Read by a click: gone from the tray, read in the bell's list.
      const bell = page.getByRole('button', { name: /^Notifications/ });
      const before = await bell.getAttribute('aria-label');
      await fill.getByRole('button', { name: /^Trade on GSPOT-DA/ }).click();
      await fill.waitFor({ state: 'detached' });
      expect(await bell.getAttribute('aria-label')).not.toBe(before);

      // Muted: no tray, no toast; the bell still counts.
      const mute = page.getByRole('button', { name: 'Mute notifications' });
      await mute.click();
      await page.waitForFunction(() => document.querySelector('[data-testid="mute-switch"]')?.getAttribute('aria-busy') === 'false');
      expect(await mute.getAttribute('aria-pressed')).toBe('true');
      await page.getByTestId('toast-tray').waitFor({ state: 'detached' });
      await fills(1, 22_100);
      await page.getByTestId('notification-count').waitFor();
      await page.waitForTimeout(1_000);
      expect(await page.getByTestId('toast').count()).toBe(0);
      await screenshot(page, 'notifications-muted');

      // The same preference in My account › Account settings, kept by the server.
      await page.goto(appUrl(t, 'en', 'my-account/account-settings'));
      await settle(page);
      const checkbox = page.getByRole('checkbox', { name: 'Show notifications', exact: true });
      expect(await checkbox.isChecked()).toBe(false);
      const stored = await t.get('/user/info', await t.login('broker1'));
      expect(stored.body.preferences.notifications).toBe(false);

      await mute.click();
      await page.waitForFunction(() => document.querySelector('[data-testid="mute-switch"]')?.getAttribute('aria-pressed') === 'false');
      await page.getByTestId('toast-tray').waitFor();
    } finally {
      await context.close();
    }
  });

  it(`with the simulator on, ${SIMULATOR_ORDERS} of its orders bring broker1 no toast about orders its agency did not place; its own fill does toast`, async () => {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'en-GB', timezoneId: 'Europe/Bucharest' });
    const page = await context.newPage();
    const simulator = new MarketSimulator({ api: t.api, now: t.clock.now, intervalMs: 100 });
    try {
      await signIn(page, t, 'broker1', 'en');
      await page.goto(appUrl(t, 'en', 'trading/market/GAS-SPOT/assets/GSPOT-DA'));
      await settle(page);
      // Every toast that ever shows, recorded in the page.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { seenToasts: string[] }).seenToasts = seen;
        new MutationObserver(() => {
          for (const toast of document.querySelectorAll('[data-testid="toast"]')) {
            const text = toast.textContent ?? '';
            if (!seen.includes(text)) seen.push(text);
          }
        }).observe(document.body, { childList: true, subtree: true, characterData: true });
      });
      await simulator.start();
      // A count of orders, not a fixed time: the same traffic on a quick machine and a slow one.
      await expect.poll(() => simulator.actions, { timeout: 90_000, interval: 500 }).toBeGreaterThanOrEqual(SIMULATOR_ORDERS);
      // Their last pushes reach the page before it is read.
      await page.waitForTimeout(1_000);
      expect(await page.evaluate(() => (window as unknown as { seenToasts: string[] }).seenToasts)).toEqual([]);
      await screenshot(page, 'notifications-simulator-quiet');
      // The recorder works: one's own fill shows.
      await fills(1, 30_000);
      await toast(page, /^Trade on GSPOT-DA/).waitFor({ timeout: 10_000 });
      const seen = await page.evaluate(() => (window as unknown as { seenToasts: string[] }).seenToasts);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((text) => text.startsWith('Trade on GSPOT-DA'))).toBe(true);
    } finally {
      simulator.stop();
      await context.close();
    }
  }, 120_000);
});
