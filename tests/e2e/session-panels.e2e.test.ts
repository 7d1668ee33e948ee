import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAssetId } from '../../server/demo/demo-exchange.ts';
import { sessionTimetables, type SessionTimetables } from '../../server/trading/engine-setup.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { appUrl, newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
const startedAt = Date.now();
beforeAll(async () => {
  // A closing three hours from now, every day: the widgets have a countdown, and no phase changes
  // under the test whatever the hour it runs at (the demo timetable closes markets at night).
  const closing = new Date(Date.now() + 3 * 3_600_000).toLocaleTimeString('en-GB', { timeZone: 'Europe/Bucharest', hour: '2-digit', minute: '2-digit', hour12: false });
  const timetable = [{ time: closing, phase: 'closing' as const }];
  const timetables = Object.fromEntries(Object.keys(sessionTimetables).map((kind) => [kind, timetable])) as unknown as SessionTimetables;
  // The clock starts at real time, so the schedule starts today and nothing past is applied at once.
  ({ t, browser } = await startAppAndBrowser({ timetables }, startedAt));
});
afterAll(() => stopAppAndBrowser(t, browser));

// A delta-T asset (30 s periods) of the GAS-CCP market, and the gas forward month: as the demo lists them today (server/demo/demo-calendar.ts).
const asset = demoAssetId('GCCP-M-2027-01', startedAt);
const gasMonth = demoAssetId('GFWD-M-2027-01', startedAt);
const assetPath = `trading/market/GAS-CCP/assets/${asset}`;
const url = (locale: 'ro' | 'en', path: string) => appUrl(t, locale, path);
const countdown = /^\d{2}:\d{2}(:\d{2})?$/;

const words = {
  en: { session: 'Session', deltaT: 'Delta T', running: 'Delta-T period running', trades: 'My trades this session', assets: 'Market assets', sessions: 'Sessions' },
  ro: { session: 'Ședință', deltaT: 'Delta T', running: 'Perioadă delta T în desfășurare', trades: 'Tranzacțiile mele din ședință', assets: 'Activele pieței', sessions: 'Ședințe' },
} as const;

async function order(token: string, key: string, way: 'bid' | 'ask', price: number, clientCode: string): Promise<void> {
  const result = await t.post('/orders', { idempotencyKey: key, assetId: asset, way, price, qty: 100, validityType: 'day', clientCode }, token);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const mode of ['light', 'dark'] as const) {
    await page.evaluate((theme) => document.documentElement.setAttribute('data-theme', theme), mode);
    await page.waitForTimeout(250); // the colour transition
    await screenshot(page, `${name}-${mode}`);
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
}

describe('session widgets and side panels', () => {
  it('shows phases with countdowns, a delta-T period with its match, the trades summary and the side panels, in English and Romanian', async () => {
    const seller = await newPage(browser);
    const buyer = await newPage(browser);
    try {
      await signIn(seller.page, t, 'broker1', 'en');
      await signIn(buyer.page, t, 'broker2', 'ro');
      const sellerToken = await t.login('broker1');
      const buyerToken = await t.login('broker2');
      await seller.page.goto(url('en', assetPath));
      await buyer.page.goto(url('ro', assetPath));
      for (const [page, locale] of [
        [seller.page, 'en'],
        [buyer.page, 'ro'],
      ] as const) {
        const w = words[locale];
        await settle(page);
        // The phase widget: trading (the demo opens markets at start) and a live countdown to the next phase.
        const phase = page.locator('.phase-widget[data-phase="trading"]');
        await phase.waitFor({ timeout: 10_000 });
        expect(await page.getByRole('heading', { name: w.session, exact: true }).count()).toBe(1);
        const timer = phase.getByRole('timer');
        expect(await timer.textContent()).toMatch(countdown);
        const first = await timer.textContent();
        await expect.poll(async () => timer.textContent(), { timeout: 3_000 }).not.toBe(first);
        // Side assets: the market's assets, the one shown marked; side session: every market with a countdown.
        const assets = page.getByRole('list', { name: w.assets });
        await assets.locator(`[data-asset-id="${asset}"][aria-current="page"]`).waitFor({ timeout: 10_000 });
        const sessions = page.getByRole('list', { name: w.sessions });
        await expect.poll(async () => sessions.getByRole('timer').count(), { timeout: 10_000 }).toBe(await sessions.getByRole('listitem').count());
        expect(await sessions.getByRole('listitem').count()).toBeGreaterThan(1);
        expect(await sessions.locator('[data-market-id="GAS-CCP"]').getAttribute('aria-current')).toBe('true');
      }

      // broker1 asks, broker2 bids at the same price: on this asset the cross starts a delta-T period.
      await order(sellerToken, 'e2e-session-ask-1', 'ask', 15000, 'RO-HIDRO');
      await order(buyerToken, 'e2e-session-bid-1', 'bid', 15000, 'RO-TERMO');
      for (const [page, locale, price] of [
        [seller.page, 'en', '150.00 RON'],
        [buyer.page, 'ro', '150,00 RON'],
      ] as const) {
        const widget = page.locator('.delta-t-running');
        await widget.waitFor({ timeout: 10_000 });
        expect(await widget.getByText(words[locale].running).count()).toBe(1);
        expect(await widget.getByRole('timer').textContent()).toMatch(countdown);
        expect(await widget.getByText(price).count()).toBe(1);
      }
      await shoot(seller.page, 'session-panels-delta-t-en');
      await shoot(buyer.page, 'session-panels-delta-t-ro');

      // The period ends (the server's clock passes it): the match executes and each broker's summary shows its side.
      t.clock.advance(31_000);
      await seller.page.locator('.delta-t-widget:not(.delta-t-running)').waitFor({ timeout: 10_000 });
      const sold = seller.page.locator('.trades-summary tr[data-client-code="RO-HIDRO"]');
      await sold.waitFor({ timeout: 10_000 });
      expect((await sold.locator('th, td').allTextContents()).map((cell) => cell.trim())).toEqual(['RO-HIDRO', '1', '0.0', '—', '10.0', '150.00', '150.00']);
      const bought = buyer.page.locator('.trades-summary tr[data-client-code="RO-TERMO"]');
      await bought.waitFor({ timeout: 10_000 });
      expect((await bought.locator('th, td').allTextContents()).map((cell) => cell.trim())).toEqual(['RO-TERMO', '1', '10,0', '150,00', '0,0', '—', '150,00']);
      // The side assets panel shows the last price.
      await expect.poll(async () => seller.page.locator(`[data-asset-id="${asset}"] .side-asset-price`).textContent(), { timeout: 10_000 }).toBe('150.00');
      await settle(seller.page);
      await shoot(seller.page, 'session-panels-asset-en');
      await settle(buyer.page);
      await shoot(buyer.page, 'session-panels-asset-ro');

      // Collapsing a side panel hides its content; expanding brings it back.
      await seller.page.getByRole('button', { name: 'Hide Market assets' }).click();
      expect(await seller.page.getByRole('list', { name: 'Market assets' }).count()).toBe(0);
      await seller.page.getByRole('button', { name: 'Show Market assets' }).click();
      await seller.page.getByRole('list', { name: 'Market assets' }).waitFor();
      // On a market with several assets, a click on another one opens it.
      await seller.page.goto(url('en', `trading/market/GAS-FWD/assets/${gasMonth}`));
      const list = seller.page.getByRole('list', { name: 'Market assets' });
      await expect.poll(async () => list.locator('[data-asset-id]').count(), { timeout: 10_000 }).toBeGreaterThan(1);
      const other = list.locator(`[data-asset-id]:not([data-asset-id="${gasMonth}"])`).first();
      const otherId = await other.getAttribute('data-asset-id');
      await other.click();
      await seller.page.waitForURL(`**/en/trading/market/GAS-FWD/assets/${otherId}`);
      await seller.page.locator(`[data-asset-id="${otherId}"][aria-current="page"]`).waitFor();
      expect(await seller.page.locator('.phase-widget').getAttribute('data-phase')).toBe('trading');
    } finally {
      await seller.context.close();
      await buyer.context.close();
    }
  });
});
