import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ExchangeServerOptions } from '../../server/exchange-server.ts';
import { demoUser, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { launchChromium } from './browser.ts';

/** The built app the e2e server serves; E2E_CLIENT_DIR lets a build land elsewhere (parallel work). */
export const builtClientDir = process.env.E2E_CLIENT_DIR ?? 'dist/client';

export const viewport = { width: 1366, height: 860 };

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/Bucharest' });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  return { context, page };
}

const labels = {
  ro: { user: 'Utilizator', password: 'Parolă', code: 'Cod de verificare', submit: 'Conectare' },
  en: { user: 'User', password: 'Password', code: 'Verification code', submit: 'Sign in' },
} as const;

/** Fills the login form of the page's language with a fresh code (the server clock moves to the next step). */
export async function fillLogin(page: Page, t: TestServer, username: string, locale: 'ro' | 'en', code?: string): Promise<void> {
  const l = labels[locale];
  await page.getByLabel(l.user, { exact: true }).fill(username);
  await page.getByLabel(l.password, { exact: true }).fill(demoUser(username).password);
  t.clock.nextTotpStep();
  await page.getByLabel(l.code, { exact: true }).fill(code ?? t.codeFor(username));
  await page.getByRole('button', { name: l.submit, exact: true }).click();
}

/** Signs a demo user in through the login page and waits for the signed-in home page. */
export async function signIn(page: Page, t: TestServer, username: string, locale: 'ro' | 'en' = 'en'): Promise<void> {
  await page.goto(`${t.server.url}${locale === 'en' ? 'en/' : ''}login`);
  await fillLogin(page, t, username, locale);
  const name = demoUser(username).name;
  await page.getByRole('heading', { name: locale === 'en' ? `Welcome, ${name}!` : `Bine ați venit, ${name}!` }).waitFor({ timeout: 10_000 });
}

/** Waits until the page has settled: no loading bar, no busy table, phases in (when there are any). */
export async function settle(page: Page): Promise<void> {
  // Every page has a heading once its chunk and data are in; then nothing may still be loading.
  await page.waitForFunction(
    () =>
      document.querySelector('h1') !== null &&
      !document.querySelector('[aria-busy="true"]') &&
      !document.querySelector('.loading-bar-visible'),
    null,
    { timeout: 10_000, polling: 50 },
  );
  // Live phases come over the socket; a screenshot without them is still worth having.
  await page.waitForFunction(() => !document.querySelector('[data-phase-waiting]'), null, { timeout: 5_000, polling: 50 }).catch(() => {});
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** The server's clock follows real time (TOTP codes and token expiry depend on it). */
export function alignClock(t: TestServer): void {
  t.clock.advance(Date.now() - t.clock.now());
}

/** The built app on a real server whose clock follows real time, and Debian's Chromium: one of each per test file. */
export async function startAppAndBrowser(options: Partial<ExchangeServerOptions> = {}, clockAt?: number): Promise<{ t: TestServer; browser: Browser }> {
  const t = await startTestServer({ clientDir: builtClientDir, ...options }, clockAt);
  const madeAt = t.clock.now();
  alignClock(t);
  // The demo users' passwords were set when the demo was made, on the test clock's start (22 November
  // 2026 unless clockAt): moved with the clock, so they do not expire (PASSWORD_MAX_AGE_DAYS) as the real date runs on.
  const moved = t.clock.now() - madeAt;
  if (moved > 0) await t.server.store.db.query(`update users set password_changed_at = password_changed_at + ($1::bigint * interval '1 millisecond')`, [moved]);
  return { t, browser: await launchChromium() };
}

export async function stopAppAndBrowser(t: TestServer | undefined, browser: Browser | undefined): Promise<void> {
  await browser?.close();
  await t?.server.close();
}

/** A page of the app in a language: `path` without the /en prefix. */
export function appUrl(t: TestServer, locale: 'ro' | 'en', path: string): string {
  return `${t.server.url}${locale === 'en' ? 'en/' : ''}${path}`;
}
