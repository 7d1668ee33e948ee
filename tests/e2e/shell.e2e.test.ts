import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.ts';
import { newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
beforeAll(async () => ({ t, browser } = await startAppAndBrowser()));
afterAll(() => stopAppAndBrowser(t, browser));

const theme = (page: Page) => page.getAttribute('html', 'data-theme');
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe('languages', () => {
  it('keeps the chosen language across a reload and on the next visit (cookie, 365 days)', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${t.server.url}login`);
    await page.getByRole('heading', { name: 'Autentificare' }).waitFor();
    await page.getByRole('link', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/session/en/login');

    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');

    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'locale');
    expect(cookie?.value).toBe('en');
    expect(cookie?.path).toBe('/session');
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);

    // The bare root opens in the remembered language.
    await page.goto(t.server.url);
    await page.getByRole('heading', { name: 'Trade energy on one screen' }).waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe('/session/en');

    // And back: Romanian is remembered the same way.
    await page.getByRole('link', { name: 'Română' }).click();
    await page.getByRole('heading', { name: 'Tranzacționați energie pe un singur ecran' }).waitFor();
    await page.goto(t.server.url);
    await page.getByRole('heading', { name: 'Tranzacționați energie pe un singur ecran' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/session/');
    await context.close();
  });
});

describe('themes', () => {
  it('switches a guest to the dark theme and keeps it across a reload', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${t.server.url}en/login`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await theme(page)).toBe('light');
    expect(await background(page)).toBe('rgb(243, 245, 248)');
    await page.getByTestId('theme-toggle').click();
    expect(await theme(page)).toBe('dark');
    await expect.poll(async () => background(page)).toBe('rgb(15, 19, 24)'); // after the colour transition
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await theme(page)).toBe('dark');
    await context.close();
  });

  it("keeps a signed-in user's theme in the preferences and applies it on the next sign-in", async () => {
    const first = await newPage(browser);
    await signIn(first.page, t, 'owner1', 'en');
    expect(await theme(first.page)).toBe('light');
    await first.page.getByTestId('theme-toggle').click();
    expect(await theme(first.page)).toBe('dark');
    await expect
      .poll(async () => (await t.get('/user/info', await t.login('owner1'))).body.preferences.theme, { timeout: 10_000 })
      .toBe('dark');
    await first.context.close();

    // A fresh browser profile (light by default) turns dark as soon as owner1 signs in.
    const second = await newPage(browser);
    await second.page.goto(`${t.server.url}en/login`);
    expect(await theme(second.page)).toBe('light');
    await signIn(second.page, t, 'owner1', 'en');
    await expect.poll(async () => theme(second.page)).toBe('dark');
    await second.context.close();
  });
});

describe('signing out', () => {
  it('asks for confirmation (Escape keeps the session) and then goes home as a guest', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t, 'client1', 'en');
    await page.getByRole('button', { name: 'Sign out' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Sign out?' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('heading', { name: /^Welcome/ }).count()).toBe(1);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await dialog.waitFor();
    await page.waitForTimeout(250); // the dialog's entry animation
    await screenshot(page, 'sign-out-confirm-en-light');
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Trade energy on one screen' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/session/en');
    await context.close();
  });
});

describe('screenshots', () => {
  const signedInPages = [
    ['home', ''],
    ['my-account-profile', 'my-account'],
    ['my-account-login-history', 'my-account/login-history'],
    ['my-account-settings', 'my-account/account-settings'],
    ['my-account-placeholder', 'my-account/otc-transactions'],
    ['workspace', 'trading/workspace'],
    ['workspace-vertical', 'trading/workspaces_vertical'],
    ['trading-account', 'trading/account'],
    ['market-account', 'trading/market/EL-SPOT/account'],
    ['asset', 'trading/market/GAS-FWD/assets/GFWD-M-2027-01'],
    ['api-docs', 'api-docs'],
    ['not-found-signed-in', 'my-account/no-such-tab'],
  ] as const;
  const guestPages = [
    ['guest-home', ''],
    ['login', 'login'],
    ['reset-password', 'reset-password'],
    ['not-found', 'no/such/page'],
  ] as const;
  const url = (locale: 'ro' | 'en', path: string) => `${t.server.url}${locale === 'en' ? (path ? `en/${path}` : 'en') : path}`;

  it('of the main pages in both themes and both languages', async () => {
    const signedIn = await newPage(browser);
    const guest = await newPage(browser);
    await guest.page.goto(url('en', 'login'));
    await signIn(signedIn.page, t, 'broker1', 'en');
    for (const mode of ['light', 'dark'] as const) {
      for (const { page } of [signedIn, guest]) {
        if ((await theme(page)) !== mode) {
          await page.goto(url('en', 'api-docs'));
          await page.getByTestId('theme-toggle').click();
          await expect.poll(async () => theme(page)).toBe(mode);
        }
      }
      for (const locale of ['ro', 'en'] as const) {
        // The bare root follows the remembered language: remember the one being shot.
        for (const { context } of [signedIn, guest]) {
          await context.addCookies([{ name: 'locale', value: locale, domain: '127.0.0.1', path: '/session' }]);
        }
        for (const [name, path] of signedInPages) {
          await signedIn.page.goto(url(locale, path), { waitUntil: 'domcontentloaded' });
          await settle(signedIn.page);
          expect(await signedIn.page.getAttribute('html', 'lang')).toBe(locale);
          expect(await theme(signedIn.page)).toBe(mode);
          await screenshot(signedIn.page, `${name}-${locale}-${mode}`);
        }
        for (const [name, path] of guestPages) {
          await guest.page.goto(url(locale, path), { waitUntil: 'domcontentloaded' });
          await settle(guest.page);
          expect(await guest.page.getAttribute('html', 'lang')).toBe(locale);
          await screenshot(guest.page, `${name}-${locale}-${mode}`);
        }
      }
    }
    await signedIn.context.close();
    await guest.context.close();
  }, 120_000);
});
