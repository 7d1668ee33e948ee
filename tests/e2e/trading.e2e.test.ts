import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.ts';
import { newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
beforeAll(async () => ({ t, browser } = await startAppAndBrowser()));
afterAll(() => stopAppAndBrowser(t, browser));

const words = {
  en: {
    price: 'Price (RON)',
    quantity: 'Quantity (MWh)',
    client: 'Client code',
    send: 'Send order',
    mine: 'Mine',
    transactions: 'Transactions',
    trade: 'Trade on GSPOT-DA',
    myOrders: 'My active orders',
    newOrder: 'New order: Gas day-ahead',
  },
  ro: {
    price: 'Preț (RON)',
    quantity: 'Cantitate (MWh)',
    client: 'Cod client',
    send: 'Trimite ordinul',
    mine: 'Ale mele',
    transactions: 'Tranzacții',
    trade: 'Tranzacție pe GSPOT-DA',
    myOrders: 'Ordinele mele active',
    newOrder: 'Ordin nou: Gaze naturale ziua următoare',
  },
} as const;

const url = (locale: 'ro' | 'en', path: string) => `${t.server.url}${locale === 'en' ? 'en/' : ''}${path}`;
const assetPath = 'trading/market/GAS-SPOT/assets/GSPOT-DA';

/** The book is live (a snapshot came and it is not stale). */
async function bookLive(page: Page): Promise<void> {
  await page.locator('.order-book:not(.order-book-stale)').waitFor({ timeout: 10_000 });
}

function watchRow(page: Page, assetId: string) {
  return page.locator('tr', { has: page.locator(`[data-asset-id="${assetId}"]`) });
}

describe('trading between two brokers', () => {
  for (const [locale, price, shownPrice] of [
    ['ro', '151.00', '151,00'],
    ['en', '152.00', '152.00'],
  ] as const) {
    it(`an ask placed from the dialog is hit from the book by the other broker (${locale})`, async () => {
      const w = words[locale];
      const seller = await newPage(browser);
      const buyer = await newPage(browser);
      await signIn(seller.page, t, 'broker1', locale);
      await signIn(buyer.page, t, 'broker2', locale);

      await buyer.page.goto(url(locale, assetPath));
      await bookLive(buyer.page);
      await seller.page.goto(url(locale, assetPath));
      await bookLive(seller.page);

      // broker1: S opens a sell ticket for the asset shown; Enter sends it.
      await seller.page.locator('body').press('s');
      const ticket = seller.page.getByRole('dialog', { name: w.newOrder });
      await ticket.waitFor();
      expect(await ticket.getByLabel(w.price).inputValue()).toBe('');
      await ticket.getByLabel(w.price).fill(price);
      await ticket.getByLabel(w.quantity).fill('5.0');
      await ticket.getByLabel(w.client).selectOption('RO-HIDRO');
      await ticket.getByLabel(w.quantity).press('Enter');
      await ticket.waitFor({ state: 'detached' });

      // Own order marked in broker1's book and listed in its active orders.
      const ownAsk = seller.page.locator(`.book-side-ask tr[data-price="${shownPrice}"]`);
      await ownAsk.locator('.book-own-mark').waitFor();
      await seller.page.getByRole('table', { name: w.myOrders }).getByText('RO-HIDRO').waitFor();

      // broker1 watches the market: best ask and own best ask show the new order.
      await seller.page.goto(url(locale, 'trading/workspace'));
      const row = watchRow(seller.page, 'GSPOT-DA');
      await expect.poll(async () => (await row.locator('td').allTextContents()).slice(3, 6), { timeout: 10_000 }).toEqual([shownPrice, '—', shownPrice]);

      // broker2 sees the level appear and hits it from the book.
      const level = buyer.page.locator(`.book-side-ask tr[data-price="${shownPrice}"]`);
      await level.waitFor({ timeout: 10_000 });
      await expect.poll(() => level.locator('.book-own-mark').count()).toBe(0);
      await screenshot(buyer.page, `trading-asset-book-${locale}-light`);
      await level.click();
      const hit = buyer.page.getByRole('dialog', { name: w.newOrder });
      await hit.waitFor();
      expect(await hit.getByLabel(w.price).inputValue()).toBe(price);
      expect(await hit.getByLabel(w.quantity).inputValue()).toBe('5.0');
      await hit.getByLabel(w.client).selectOption('RO-TERMO');
      await hit.getByRole('button', { name: w.send }).click();
      await hit.waitFor({ state: 'detached' });

      // The level is gone from both books; broker1's market watch drops the ask.
      await level.waitFor({ state: 'detached', timeout: 10_000 });
      await expect.poll(async () => (await row.locator('td').allTextContents()).slice(3, 6), { timeout: 10_000 }).toEqual(['—', '—', '—']);

      // Both are notified of the trade.
      await buyer.page.getByTestId('toast').filter({ hasText: w.trade }).first().waitFor({ timeout: 10_000 });
      await seller.page.getByTestId('toast').filter({ hasText: w.trade }).first().waitFor({ timeout: 10_000 });

      // Both see it in their own transactions.
      await buyer.page.getByRole('button', { name: w.mine, exact: true }).click();
      const buyerTx = buyer.page.getByRole('table', { name: w.transactions });
      await buyerTx.locator('tr', { hasText: shownPrice }).filter({ hasText: 'RO-HIDRO' }).filter({ hasText: 'RO-TERMO' }).first().waitFor({ timeout: 10_000 });
      await seller.page.goto(url(locale, 'trading/account'));
      const sellerTx = seller.page.getByRole('table', { name: w.transactions });
      await sellerTx.locator('tr', { hasText: shownPrice }).filter({ hasText: 'RO-HIDRO' }).first().waitFor({ timeout: 10_000 });

      // Screenshots of the asset view and the workspace, both themes.
      for (const mode of ['light', 'dark'] as const) {
        for (const [name, path] of [
          ['trading-asset', assetPath],
          ['trading-workspace', 'trading/workspace'],
        ] as const) {
          await buyer.page.goto(url(locale, path));
          await settle(buyer.page);
          if (name === 'trading-asset') await bookLive(buyer.page);
          else await watchRow(buyer.page, 'GSPOT-DA').waitFor();
          await buyer.page.evaluate((theme) => document.documentElement.setAttribute('data-theme', theme), mode);
          await buyer.page.waitForTimeout(150);
          await screenshot(buyer.page, `${name}-${locale}-${mode}`);
        }
      }
      await seller.context.close();
      await buyer.context.close();
    }, 90_000);
  }
});

describe('personal workspaces', () => {
  it('are created in the workspace dialog, follow the user to another browser, show their books, and are edited and deleted', async () => {
    const first = await newPage(browser);
    await signIn(first.page, t, 'broker1', 'en');
    await first.page.goto(url('en', 'trading/workspace'));
    await settle(first.page);
    await first.page.getByRole('button', { name: 'New workspace' }).click();
    const dialog = first.page.getByRole('dialog', { name: 'New workspace' });
    await dialog.getByRole('button', { name: 'Save workspace' }).click();
    await dialog.getByText('Field required!').waitFor();
    await dialog.getByLabel('Name').fill('Gas day desk');
    await dialog.getByLabel('Type').selectOption('gas');
    await dialog.getByLabel('Market').selectOption('GAS-SPOT');
    await dialog.getByLabel('GSPOT-DA').check();
    await dialog.getByLabel('GSPOT-WD').check();
    await dialog.getByRole('button', { name: 'Save workspace' }).click();
    await dialog.waitFor({ state: 'detached' });
    await first.page.getByRole('heading', { name: 'Gas day desk' }).waitFor();
    await first.page.getByRole('table', { name: 'Bids' }).nth(1).waitFor();
    expect(await first.page.locator('.workspace-book').count()).toBe(2);
    await first.page.locator('.workspace-book .order-book:not(.order-book-stale)').nth(1).waitFor({ timeout: 10_000 });
    await settle(first.page);
    await screenshot(first.page, 'trading-workspace-books-en-light');

    // Another browser of the same user: the workspace is there, with both books and the variants.
    const second = await newPage(browser);
    await signIn(second.page, t, 'broker1', 'en');
    await second.page.goto(url('en', 'trading/workspaces_horizontal'));
    await second.page.getByRole('heading', { name: 'Gas day desk' }).waitFor();
    await second.page.locator('.workspace-book .order-book:not(.order-book-stale)').nth(1).waitFor({ timeout: 10_000 });

    // Edit: keep one asset.
    await second.page.getByRole('button', { name: 'Edit workspace' }).click();
    const edit = second.page.getByRole('dialog', { name: 'Edit workspace' });
    await edit.getByLabel('GSPOT-WD').uncheck();
    await edit.getByLabel('Name').fill('Day-ahead only');
    await edit.getByRole('button', { name: 'Save workspace' }).click();
    await edit.waitFor({ state: 'detached' });
    await second.page.getByRole('heading', { name: 'Day-ahead only' }).waitFor();
    expect(await second.page.locator('.workspace-book').count()).toBe(1);

    // Delete, with confirmation; the first browser no longer finds it after a reload.
    await second.page.getByRole('button', { name: 'Delete workspace' }).click();
    const confirm = second.page.getByRole('alertdialog', { name: 'Delete the workspace Day-ahead only?' });
    await confirm.getByRole('button', { name: 'Delete workspace' }).click();
    await second.page.getByRole('heading', { name: 'Day-ahead only' }).waitFor({ state: 'detached' });
    await first.page.reload();
    await settle(first.page);
    expect(await first.page.getByLabel('My workspaces').locator('option').allTextContents()).toEqual(['All markets']);
    await first.context.close();
    await second.context.close();
  }, 90_000);
});
