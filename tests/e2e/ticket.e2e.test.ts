/**
 * The order ticket (issue 11): messages that state the rule, in Romanian numbers; the client last used
 * on the asset comes back after a reload; the administrator is offered no Buy/Sell; the Sell button
 * in both themes (screenshots `ticket-*`, `asset-admin-*`).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.ts';
import { appUrl, newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
beforeAll(async () => ({ t, browser } = await startAppAndBrowser()));
afterAll(() => stopAppAndBrowser(t, browser));

const assetPath = 'trading/market/GAS-SPOT/assets/GSPOT-DA';

async function bookLive(page: Page): Promise<void> {
  await page.locator('.order-book:not(.order-book-stale)').waitFor({ timeout: 10_000 });
}

async function theme(page: Page, mode: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => document.documentElement.setAttribute('data-theme', value), mode);
  await page.waitForTimeout(150);
}

describe('the order ticket', () => {
  it('states the rule broken in Romanian, and starts with the client last used on the asset after a reload', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, t, 'broker1', 'ro');
    await page.goto(appUrl(t, 'ro', assetPath));
    await bookLive(page);
    await page.getByRole('button', { name: 'Vinde (S)' }).waitFor();

    await page.locator('body').press('s');
    let ticket = page.getByRole('dialog');
    await ticket.waitFor();
    expect(await ticket.getByLabel('Cod client').inputValue()).toBe(''); // two clients, none used yet
    await ticket.getByLabel('Preț (RON)').fill('150.005');
    await ticket.getByLabel('Cantitate (MWh)').fill('0.5');
    await ticket.getByRole('button', { name: 'Trimite ordinul' }).click();
    await ticket.getByText('Prețul trebuie să fie multiplu de 0,01 RON', { exact: true }).waitFor();
    await ticket.getByText('Cantitatea trebuie să fie între 1,0 și 10.000,0 MWh', { exact: true }).waitFor();
    await ticket.getByText('Câmp obligatoriu!', { exact: true }).waitFor(); // the client
    for (const mode of ['light', 'dark'] as const) {
      await theme(page, mode);
      await screenshot(page, `ticket-rules-ro-${mode}`);
    }
    await theme(page, 'light');

    await ticket.getByLabel('Preț (RON)').fill('199.00');
    await ticket.getByLabel('Cantitate (MWh)').fill('2.0');
    await ticket.getByLabel('Cod client').selectOption('RO-GAZEST');
    await ticket.getByRole('button', { name: 'Trimite ordinul' }).click();
    await ticket.waitFor({ state: 'detached' });

    await page.reload();
    await bookLive(page);
    await page.locator('body').press('b');
    ticket = page.getByRole('dialog');
    await ticket.waitFor();
    expect(await ticket.getByLabel('Cod client').inputValue()).toBe('RO-GAZEST');
    await context.close();
  }, 60_000);

  it('offers the administrator no Buy/Sell, no ticket from B or S, and no level click', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, t, 'admin', 'en');
    await page.goto(appUrl(t, 'en', assetPath));
    await settle(page);
    await bookLive(page);
    expect(await page.getByRole('button', { name: 'Buy (B)' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sell (S)' }).count()).toBe(0);
    await page.locator('body').press('b');
    await page.locator('body').press('s');
    const level = page.locator('.book-side-ask tr[data-price]').first();
    if ((await level.count()) > 0) await level.click();
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await screenshot(page, 'asset-admin-en-light');
    await context.close();
  }, 60_000);

  it('draws Buy and Sell in both themes (broker, English)', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, t, 'broker2', 'en');
    await page.goto(appUrl(t, 'en', assetPath));
    await settle(page);
    await bookLive(page);
    const sell = page.getByRole('button', { name: 'Sell (S)' });
    for (const mode of ['light', 'dark'] as const) {
      await theme(page, mode);
      // The colours the browser paints once the colour transition is over: the dark theme's Sell is dark text on a light red.
      const expected = mode === 'dark' ? { color: 'rgb(26, 11, 11)', background: 'rgb(239, 83, 80)' } : { color: 'rgb(255, 255, 255)', background: 'rgb(198, 40, 40)' };
      const painted = () =>
        sell.evaluate((button) => {
          const style = getComputedStyle(button);
          return { color: style.color, background: style.backgroundColor };
        });
      const until = Date.now() + 3_000;
      while (JSON.stringify(await painted()) !== JSON.stringify(expected) && Date.now() < until) await page.waitForTimeout(100);
      expect(await painted()).toEqual(expected);
      await screenshot(page, `ticket-buttons-en-${mode}`);
    }
    await context.close();
  }, 60_000);
});
