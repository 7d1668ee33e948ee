import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUser, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { launchChromium, screenshot } from './browser.ts';

// The built app (dist/client) served by the real server; the server's clock is the test's, near real time.
let t: TestServer;
let browser: Browser;
beforeAll(async () => {
  t = await startTestServer({ clientDir: 'dist/client' });
  t.clock.advance(Date.now() - t.clock.now());
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.server.close();
});

describe('sign-in in Chromium', () => {
  it('signs a demo user in with a verification code and shows the profile', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.server.url}en/login`);
    await page.getByLabel('User').fill('broker1');
    await page.getByLabel('Password').fill(demoUser('broker1').password);
    t.clock.nextTotpStep();
    await page.getByLabel('Verification code').fill(t.codeFor('broker1'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(async () => page.getByText('Andrei Popescu').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(async () => page.getByText('Nord Energy Brokers SA').count()).toBeGreaterThan(0);
    await screenshot(page, 'home-en-light');
    await page.close();
  });

  it('refuses a wrong code with its Romanian message', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.server.url}login`);
    await page.locator('#login-username').fill('broker2');
    await page.locator('#login-password').fill(demoUser('broker2').password);
    t.clock.nextTotpStep();
    const wrong = t.codeFor('broker2') === '000000' ? '111111' : '000000';
    await page.locator('#login-code').fill(wrong);
    await page.locator('button[type=submit]').click();
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 10_000 });
    expect(await alert.textContent()).toMatch(/cod/i);
    await screenshot(page, 'login-ro-light-refused');
    await page.close();
  });

  it('serves the app for any /session/ path so the app shows its own 404', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${t.server.url}en/no/such/page`);
    expect(response?.status()).toBe(200);
    await expect.poll(async () => page.getByText('This page could not be found').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.close();
  });
});
