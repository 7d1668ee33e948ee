import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUser, type TestServer } from '../helpers/test-server.ts';
import { fillLogin, newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

// The built app (dist/client) served by the real server; the server's clock is the test's, near real time.
// One server for the file (starting one takes seconds): expired1's reset works once per server start.
let t: TestServer;
let browser: Browser;
beforeAll(async () => ({ t, browser } = await startAppAndBrowser()));
afterAll(() => stopAppAndBrowser(t, browser));

describe('sign-in in Chromium', () => {
  it('signs a demo user in with a verification code, in English', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t, 'broker1', 'en');
    expect(page.url()).toBe(`${t.server.url}en`);
    await expect.poll(async () => page.getByText('Nord Energy Brokers SA').count()).toBeGreaterThan(0);
    await expect.poll(async () => page.getByRole('heading', { name: 'My active orders' }).count()).toBe(1);
    // The realtime channel comes up with the session: the connection machine says so.
    await expect.poll(async () => page.locator('.connection').getAttribute('data-status'), { timeout: 10_000 }).toBe('connected');
    await context.close();
  });

  it('signs a demo user in with a verification code, in Romanian', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t, 'broker2', 'ro');
    expect(page.url()).toBe(t.server.url);
    await expect.poll(async () => page.getByRole('heading', { name: 'Ordinele mele active' }).count()).toBe(1);
    expect(await page.getAttribute('html', 'lang')).toBe('ro');
    await context.close();
  });

  it('refuses a wrong code with its message, in both languages', async () => {
    const { context, page } = await newPage(browser);
    for (const [locale, message] of [
      ['ro', 'Cod de verificare invalid!'],
      ['en', 'Invalid verification code!'],
    ] as const) {
      await page.goto(`${t.server.url}${locale === 'en' ? 'en/' : ''}login`);
      t.clock.nextTotpStep();
      const wrong = t.codeFor('client1') === '000000' ? '111111' : '000000';
      await fillLogin(page, t, 'client1', locale, wrong);
      const alert = page.getByRole('alert');
      await alert.waitFor({ timeout: 10_000 });
      expect(await alert.textContent()).toBe(message);
      expect(page.url()).toContain('login');
      await screenshot(page, `login-refused-${locale}-light`);
    }
    await context.close();
  });

  it('sends a guest from a signed-in page to sign in, and back to that page after', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${t.server.url}en/my-account/login-history`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/session/en/login');
    await fillLogin(page, t, 'agency1', 'en');
    await page.getByRole('table', { name: 'Login history' }).waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe('/session/en/my-account/login-history');
    await settle(page);
    // Sign-in history is in UTC.
    await expect.poll(async () => (await page.getByRole('cell').first().textContent()) ?? '').toMatch(/UTC$/);
    await context.close();
  });

  it('shows the 404 page for an unknown route and for a parameter that fails validation', async () => {
    const { context, page } = await newPage(browser);
    const response = await page.goto(`${t.server.url}en/no/such/page`);
    expect(response?.status()).toBe(200); // the server serves the app; the app says 404
    await page.getByText('This page could not be found').waitFor({ timeout: 10_000 });
    expect(await page.locator('.status-code').textContent()).toBe('404');
    await page.goto(`${t.server.url}nu-exista`);
    await page.getByText('Această pagină nu a putut fi găsită').waitFor({ timeout: 10_000 });

    await signIn(page, t, 'terminal1', 'en');
    await page.goto(`${t.server.url}en/my-account/no-such-tab`);
    await page.getByText('This page could not be found').waitFor({ timeout: 10_000 });
    await page.goto(`${t.server.url}en/trading/market/GAS-FWD/assets/NO-SUCH-ASSET`);
    await page.getByText('This page could not be found').waitFor({ timeout: 10_000 });
    await context.close();
  });
});

// expired1's password is expired (fixtures/demo/users.json).
describe('reset of an expired password', () => {
  it('takes the user from the refused sign-in to a new password and signs them in', async () => {
    const { context, page } = await newPage(browser);
    const oldPassword = demoUser('expired1').password;
    const newPassword = 'Renewed#2026x';

    await page.goto(`${t.server.url}en/login`);
    await fillLogin(page, t, 'expired1', 'en');
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe('/session/en/reset-password');
    expect(await page.getByText('Password expired!').count()).toBe(1);
    expect(await page.getByLabel('User', { exact: true }).inputValue()).toBe('expired1');
    expect(await page.getByLabel('Current password').inputValue()).toBe(oldPassword); // handed over, not retyped
    await screenshot(page, 'reset-password-flow-en-light');

    const submit = page.getByRole('button', { name: 'Save the password and sign in' });
    const fill = async (next: string, confirm: string) => {
      await page.getByLabel('New password', { exact: true }).fill(next);
      await page.getByLabel('Confirm the new password').fill(confirm);
      t.clock.nextTotpStep(); // the code used at sign-in is spent: each try needs the next one
      await page.getByLabel('Verification code').fill(t.codeFor('expired1'));
      await submit.click();
    };

    // SPEC §5 rules, checked before the server is asked.
    await fill(newPassword, 'Renewed#2026y');
    await page.getByText('The passwords are not matching!').waitFor();
    await fill('weakpass', 'weakpass');
    await page.getByText('Invalid password!').waitFor();
    await screenshot(page, 'reset-password-flow-en-light-invalid');

    // The server refuses the old password again.
    await fill(oldPassword, oldPassword);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 10_000 });
    expect(await alert.textContent()).toBe('Password used before!');

    // A good new password: signed in, on the home page.
    await fill(newPassword, newPassword);
    await page.getByRole('heading', { name: `Welcome, ${demoUser('expired1').name}!` }).waitFor({ timeout: 10_000 });
    await settle(page);

    // The new password is the one that signs in now.
    const info = await t.post('/login', { username: 'expired1', password: newPassword, code: (t.clock.nextTotpStep(), t.codeFor('expired1')) });
    expect(info.status).toBe(200);
    await context.close();
  });

  it('is reachable directly, in Romanian, and checks the fields', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${t.server.url}reset-password`);
    await page.getByRole('heading', { name: 'Alegeți o parolă nouă' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Salvează parola și conectează-te' }).click();
    expect(await page.getByText('Câmp obligatoriu!').count()).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'reset-password-ro-light-required');
    await context.close();
  });
});
