import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUser, type TestServer } from '../helpers/test-server.ts';
import { appUrl, newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
beforeAll(async () => ({ t, browser } = await startAppAndBrowser()));
afterAll(() => stopAppAndBrowser(t, browser));

const words = {
  en: { limits: 'Financial limits', positions: 'Positions', clients: 'Client accounts', glance: 'Limits at a glance', noTrades: 'No trades in this session.' },
  ro: { limits: 'Limite financiare', positions: 'Poziții', clients: 'Conturi de client', glance: 'Limite pe scurt', noTrades: 'Nicio tranzacție în această sesiune.' },
} as const;

const url = (locale: 'ro' | 'en', path: string) => appUrl(t, locale, path);
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();
const money = (locale: 'ro' | 'en', minor: number) => plain(new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(minor / 100));

let keySeq = 0;
async function placeOrder(token: string, assetId: string, clientCode: string, way: 'bid' | 'ask') {
  // 10.0 MWh at 400.00 RON: a value of 4,000.00 RON.
  const body = { idempotencyKey: `account-e2e-${Date.now()}-${++keySeq}`, assetId, way, price: 40_000, qty: 100, validityType: 'GTC', clientCode };
  const response = await t.post('/orders', body, token);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

function tableRow(page: Page, table: string, ...texts: string[]) {
  let rows = page.getByRole('table', { name: table, exact: true }).locator('tbody tr');
  for (const text of texts) rows = rows.filter({ hasText: text });
  return rows;
}

async function exposureShown(page: Page, table: string): Promise<string> {
  return plain(await tableRow(page, table, 'RO-HIDRO').locator('td').nth(2).textContent());
}

describe('trading account views', () => {
  for (const [locale, assetId] of [
    ['ro', 'ESPOT-DA-H05'],
    ['en', 'ESPOT-DA-H06'],
  ] as const) {
    it(`shows positions and limits that follow the user's orders and trades (${locale})`, async () => {
      const w = words[locale];
      const { context, page } = await newPage(browser);
      await signIn(page, t, 'broker1', locale);

      // Home: the limits at a glance are the engine's figures, no sample data.
      const glance = page.locator('section', { has: page.getByRole('heading', { name: w.glance }) });
      await glance.getByText('RO-HIDRO').waitFor();
      expect(await glance.textContent()).toContain('RO-GAZEST');

      const broker1 = await t.login('broker1');
      const broker2 = await t.login('broker2');
      const before = (await t.get('/account/limits?clientCode=RO-HIDRO', broker1)).body.items[0];

      await page.goto(url(locale, 'trading/market/EL-SPOT/account'));
      await settle(page);
      expect(await exposureShown(page, w.limits)).toBe(money(locale, before.exposure));
      const clients = page.getByRole('table', { name: w.clients, exact: true });
      expect(plain(await clients.locator('tbody tr', { hasText: 'RO-HIDRO' }).textContent())).toContain('A0001234X.RO');

      // A resting ask adds its value to the exposure: the page refreshes on the order update.
      await placeOrder(broker1, assetId, 'RO-HIDRO', 'ask');
      await page.waitForFunction(
        ([table, expected]) => {
          const row = [...document.querySelectorAll(`table[aria-label="${table}"] tbody tr`)].find((tr) => tr.textContent?.includes('RO-HIDRO'));
          return (row?.querySelectorAll('td')[2]?.textContent ?? '').replace(/[\u00a0\u202f]/g, ' ').trim() === expected;
        },
        [w.limits, money(locale, before.exposure + 400_000)] as const,
        { timeout: 10_000, polling: 100 },
      );

      // broker2 takes it: broker1's position in the asset appears with the sale.
      await placeOrder(broker2, assetId, 'RO-TERMO', 'bid');
      const position = tableRow(page, w.positions, 'RO-HIDRO', assetId);
      await position.waitFor({ timeout: 10_000 });
      const cells = (await position.locator('td').allTextContents()).map(plain);
      const qty = locale === 'ro' ? '10,0' : '10.0';
      const price = locale === 'ro' ? '400,00' : '400.00';
      expect(cells[5]).toBe(qty); // sold
      expect(cells[6]).toBe(price); // average sell price
      expect(cells[7]).toBe(`-${qty}`); // net position
      expect(cells[8]).toBe(money(locale, 400_000)); // traded value
      // The order's value is now traded value: the exposure stays.
      expect(await exposureShown(page, w.limits)).toBe(money(locale, before.exposure + 400_000));

      await settle(page);
      for (const mode of ['light', 'dark'] as const) {
        await page.evaluate((theme) => document.documentElement.setAttribute('data-theme', theme), mode);
        await screenshot(page, `account-market-${locale}-${mode}`);
      }
      await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));

      // The account across all markets shows the same position; the home page the new exposure.
      await page.goto(url(locale, 'trading/account'));
      await settle(page);
      await tableRow(page, w.positions, 'RO-HIDRO', assetId).waitFor({ timeout: 10_000 });
      await screenshot(page, `account-all-${locale}`);
      await page.goto(url(locale, ''));
      await glance.getByText('RO-HIDRO').waitFor();
      await settle(page);
      await screenshot(page, `account-home-${locale}`);
      await context.close();
    });
  }

  it('shows a terminal only its desk client and an empty session in another market', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t, 'terminal1', 'en');
    await page.goto(url('en', 'trading/market/GAS-SPOT/account'));
    await settle(page);
    const limitRows = page.getByRole('table', { name: words.en.limits, exact: true }).locator('tbody tr');
    expect((await limitRows.allTextContents()).map(plain)).toEqual([expect.stringContaining('RO-GAZEST')]);
    await page.getByText(words.en.noTrades).waitFor();
    await context.close();
  });
});

describe('password change', () => {
  it('keeps the session that changed the password on the fresh token it got; the old token is revoked', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t, 'owner1', 'en');
    const stored = async () => JSON.parse((await page.evaluate(() => localStorage.getItem('exchange.session'))) ?? 'null') as { token: string } | null;
    const before = (await stored())!.token;
    await page.goto(url('en', 'my-account'));
    await settle(page);
    await page.getByLabel('Current password', { exact: true }).fill(demoUser('owner1').password);
    await page.getByLabel('New password', { exact: true }).fill('Changed#2026a');
    await page.getByLabel('Confirm the new password', { exact: true }).fill('Changed#2026a');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password has been changed.').waitFor();

    const after = (await stored())!.token;
    expect(after).not.toBe(before);
    expect((await t.get('/user/info', before)).body.error.code).toBe('AUTH_TOKEN_REVOKED');
    expect((await t.get('/user/info', after)).body.username).toBe('owner1');
    // Still signed in, here and after a reload: a page that asks the API shows its data, not the sign-in page.
    await page.goto(url('en', 'my-account/login-history'));
    await settle(page);
    expect(new URL(page.url()).pathname).toBe('/session/en/my-account/login-history');
    await page.getByRole('table').locator('tbody tr').first().waitFor();
    await context.close();
  });
});
