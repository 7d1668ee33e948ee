import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.ts';
import { appUrl, newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';

let t: TestServer;
let browser: Browser;
beforeAll(async () => ({ t, browser } = await startAppAndBrowser()));
afterAll(() => stopAppAndBrowser(t, browser));

/** Records every CSP violation of the page: the DOM event (with the directive) and the console line. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __reportCspViolation(text: string): void }).__reportCspViolation(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber} ${event.sample}`);
    });
  });
  return violations;
}

describe('the app runs under its Content-Security-Policy', () => {
  it('a broker signs in, opens the trading desk, the book and an order ticket with no CSP violation', async () => {
    const { context, page } = await newPage(browser);
    const violations = await watchViolations(page);
    const response = await page.goto(appUrl(t, 'en', 'login'));
    // The policy is really there, as the browser received it.
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response?.headers()['x-frame-options']).toBe('DENY');

    await signIn(page, t, 'broker1');
    await page.goto(appUrl(t, 'en', 'trading/workspace'));
    await settle(page);
    await page.goto(appUrl(t, 'en', 'trading/market/GAS-SPOT/assets/GSPOT-DA'));
    await page.locator('.order-book:not(.order-book-stale)').waitFor({ timeout: 10_000 });
    // The ticket is a modal dialog: its scroll lock inserts a <style> element (why style-src has 'unsafe-inline').
    await page.locator('body').press('s');
    const ticket = page.getByRole('dialog', { name: 'New order: Gas day-ahead' });
    await ticket.waitFor();
    expect(await page.locator('head style').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await ticket.waitFor({ state: 'detached' });
    // The live socket (connect-src) works: the book got its snapshot over STOMP above; one more page.
    await page.goto(appUrl(t, 'en', 'trading/account'));
    await settle(page);

    expect(violations).toEqual([]);
    await context.close();
  });

  it('the app refuses to be framed by another origin', async () => {
    const { context, page } = await newPage(browser);
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors|Refused to (display|frame)/i.test(message.text())) blocked.push(message.text());
    });
    // A page of another origin (about:blank's) frames the login page.
    await page.setContent(`<iframe id="victim" src="${appUrl(t, 'en', 'login')}" width="800" height="600"></iframe>`);
    await expect.poll(() => blocked.length, { timeout: 10_000 }).toBeGreaterThan(0);
    // The frame holds no app: Chromium shows its own error page instead of the login form.
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    const loginFields = frame ? await frame.locator('input').count().catch(() => 0) : 0;
    expect(loginFields).toBe(0);
    await context.close();
  });
});
