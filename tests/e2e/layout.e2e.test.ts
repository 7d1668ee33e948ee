import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.ts';
import { appUrl, newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot, tableProblems } from './browser.ts';

// Traders' screens (issue 11, item 5): the header keeps every link whole and tables never scroll sideways
// from 1280 to 2560 px, in Romanian (the longer labels) and English, for a broker and the administrator.

let t: TestServer;
let browser: Browser;
let broker1: string;
const orderIds: string[] = [];
beforeAll(async () => {
  ({ t, browser } = await startAppAndBrowser());
  broker1 = await t.login('broker1');
  // Orders of broker1 on the asset page, one suspended (it offers Activate).
  let key = 0;
  for (const [way, price, clientCode] of [
    ['bid', 11000, 'RO-HIDRO'],
    ['bid', 11500, 'RO-GAZEST'],
    ['ask', 19000, 'RO-GAZEST'],
    ['ask', 19500, 'RO-HIDRO'],
  ] as const) {
    const result = await t.post(
      '/orders',
      { idempotencyKey: `e2e-layout-${++key}`, assetId: 'GSPOT-DA', way, price, qty: 120, clientCode, validityType: 'day' },
      broker1,
    );
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    orderIds.push(result.body.order.orderId as string);
  }
  const suspend = await t.post(`/orders/${orderIds[0]}/suspend`, {}, broker1);
  expect(suspend.status, JSON.stringify(suspend.body)).toBeLessThan(300);
});
afterAll(() => stopAppAndBrowser(t, browser));

const widths = [1280, 1600, 1920, 2560] as const;
const pages = [
  { name: 'home', path: '' },
  { name: 'workspace', path: 'trading/workspace' },
  { name: 'asset', path: 'trading/market/GAS-SPOT/assets/GSPOT-DA' },
  { name: 'trading-account', path: 'trading/account' },
  { name: 'my-account', path: 'my-account' },
] as const;
const navLabels = {
  ro: ['Spațiu de lucru', 'Cont de tranzacționare', 'Contul meu', 'API'],
  en: ['Workspace', 'Trading account', 'My account', 'API'],
} as const;
/** The administrator's bar has the operator console's and the QA player's links too (issue 16), before API. */
const adminNavLabels = {
  ro: ['Spațiu de lucru', 'Cont de tranzacționare', 'Contul meu', 'Operator', 'Redare', 'API'],
  en: ['Workspace', 'Trading account', 'My account', 'Operator', 'Replay', 'API'],
} as const;
const moreLabel = { ro: 'Mai multe', en: 'More' } as const;

/** What is wrong with the header as drawn: controls outside it or the viewport, clipped, cut text, overlaps. */
async function headerProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const header = document.querySelector('.app-header');
    if (!header) return ['no header'];
    const box = header.getBoundingClientRect();
    const viewportWidth = document.documentElement.clientWidth;
    const name = (element: Element) => `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim()}"`;
    const shown = (element: Element) => {
      const rect = element.getBoundingClientRect();
      return rect.width > 0 && rect.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    };
    // The folded links' list is a popup over the page, not part of the bar.
    const controls = [...header.querySelectorAll('a[href], button')].filter((element) => shown(element) && !element.closest('.nav-more-list'));
    for (const control of controls) {
      const rect = control.getBoundingClientRect();
      if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5 || rect.top < box.top - 0.5 || rect.bottom > box.bottom + 0.5) {
        problems.push(`${name(control)} is outside the header`);
      }
      if (rect.left < -0.5 || rect.right > viewportWidth + 0.5) problems.push(`${name(control)} is outside the viewport`);
      for (let parent = control.parentElement; parent && parent !== header; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const clip = parent.getBoundingClientRect();
        if (rect.left < clip.left - 0.5 || rect.right > clip.right + 0.5) problems.push(`${name(control)} is clipped by ${parent.className}`);
      }
      if (control.scrollWidth > control.clientWidth + 1) problems.push(`${name(control)} cuts its text`);
    }
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i]!;
        const b = controls[j]!;
        if (a.contains(b) || b.contains(a)) continue;
        const ra = a.getBoundingClientRect();
        const rb = b.getBoundingClientRect();
        const width = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        const height = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (width > 0.5 && height > 0.5) problems.push(`${name(a)} overlaps ${name(b)}`);
      }
    }
    return problems;
  });
}

/** The main navigation's links drawn in the bar (not folded). */
async function barLinks(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.main-nav .main-nav-link')]
      .filter((link) => link.getBoundingClientRect().width > 0 && getComputedStyle(link).visibility !== 'hidden')
      .map((link) => (link.textContent ?? '').trim()),
  );
}


async function atWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 1000 });
  // Two frames: the resize observers fold or unfold, then the result is laid out.
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

describe('layout for traders’ screens', () => {
  for (const username of ['broker1', 'admin'] as const) {
    for (const locale of ['ro', 'en'] as const) {
      it(`keeps the header whole and tables in their boxes from 1280 to 2560 px (${username}, ${locale})`, { timeout: 180_000 }, async () => {
        const { context, page } = await newPage(browser);
        await signIn(page, t, username, locale);
        for (const { name, path } of pages) {
          await page.setViewportSize({ width: widths[0], height: 1000 });
          await page.goto(appUrl(t, locale, path));
          await settle(page);
          if (name === 'asset' && username === 'broker1') {
            // The orders are listed before the widths are checked: the table is at its widest with them.
            await page.getByRole('table', { name: locale === 'ro' ? 'Ordinele mele active' : 'My active orders' }).locator('tbody tr').nth(orderIds.length - 1).waitFor({ timeout: 10_000 });
          }
          for (const width of widths) {
            await atWidth(page, width);
            const where = `${name} at ${width} px`;
            expect(await headerProblems(page), where).toEqual([]);
            expect(await barLinks(page), where).toEqual([...(username === 'admin' ? adminNavLabels : navLabels)[locale]]);
            expect(await tableProblems(page), where).toEqual([]);
            if (username === 'broker1' && (width === 1280 || width === 1920) || width === 2560 && name === 'asset') {
              await screenshot(page, `layout-${name}-${width}-${username}-${locale}`);
            }
          }
        }
        await context.close();
      });
    }
  }

  it('keeps the orders history in its box, in the account tab and in the dialog, at 1280 and 1920 px; its dates typed in the language (broker1, ro and en)', { timeout: 120_000 }, async () => {
    const words = {
      ro: {
        table: 'Ordine',
        all: 'Toate ordinele',
        history: 'Istoricul ordinului',
        from: 'Sesiune de la',
        format: 'zz.ll.aaaa',
        impossible: '30.02.2020',
        impossibleMessage: 'Această dată nu există. Scrieți-o ca zz.ll.aaaa.',
        date: '05.03.2020',
      },
      en: {
        table: 'Orders',
        all: 'All orders',
        history: 'History of order',
        from: 'Session from',
        format: 'dd/mm/yyyy',
        impossible: '30/02/2020',
        impossibleMessage: 'There is no such date. Write it as dd/mm/yyyy.',
        date: '05/03/2020',
      },
    } as const;
    for (const locale of ['ro', 'en'] as const) {
      const { context, page } = await newPage(browser);
      await signIn(page, t, 'broker1', locale);
      for (const width of [1280, 1920] as const) {
        await atWidth(page, width);
        await page.goto(appUrl(t, locale, 'my-account/orders'));
        await settle(page);
        const table = page.getByRole('table', { name: words[locale].table, exact: true });
        await table.locator('tbody tr').nth(orderIds.length - 1).waitFor({ timeout: 10_000 });
        expect(await tableProblems(page), `account tab at ${width} px`).toEqual([]);
        // The row's history is there whatever gave way.
        expect(await table.getByRole('button', { name: `${words[locale].history} ${orderIds[0]}`, exact: true }).count()).toBe(1);
        await screenshot(page, `orders-history-tab-${width}-broker1-${locale}`);
        if (width === 1280) {
          // The session filter's dates are typed in the page's language (never the browser's mm/dd/yyyy) and asked as ISO.
          const from = page.getByLabel(words[locale].from, { exact: true });
          expect(await from.getAttribute('placeholder')).toBe(words[locale].format);
          await from.fill(words[locale].impossible);
          await page.getByRole('alert').filter({ hasText: words[locale].impossibleMessage }).waitFor();
          const asked = page.waitForRequest((request) => request.url().includes('/orders/history?') && request.url().includes('from=2020-03-05'));
          await from.fill(words[locale].date);
          await asked;
          await from.blur();
          expect(await from.inputValue()).toBe(words[locale].date);
          await table.locator('tbody tr').nth(orderIds.length - 1).waitFor({ timeout: 10_000 });
          await screenshot(page, `orders-history-date-filter-broker1-${locale}`);
        }

        await page.goto(appUrl(t, locale, 'trading/market/GAS-SPOT/assets/GSPOT-DA'));
        await settle(page);
        await page.getByRole('button', { name: words[locale].all, exact: true }).click();
        await page.locator('.orders-dialog table tbody tr').nth(orderIds.length - 1).waitFor({ timeout: 10_000 });
        expect(await tableProblems(page, '.orders-dialog'), `dialog at ${width} px`).toEqual([]);
        await screenshot(page, `orders-history-dialog-${width}-broker1-${locale}`);
        await page.keyboard.press('Escape');
      }
      await context.close();
    }
  });

  it('draws own orders one line a row, codes whole on hover, actions as named icon buttons (ro)', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t, 'broker1', 'ro');
    await atWidth(page, 1280);
    await page.goto(appUrl(t, 'ro', 'trading/market/GAS-SPOT/assets/GSPOT-DA'));
    const table = page.getByRole('table', { name: 'Ordinele mele active' });
    await table.locator('tbody tr').nth(orderIds.length - 1).waitFor({ timeout: 10_000 });
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
    expect(rows.length).toBe(orderIds.length);
    for (const height of rows) expect(height).toBeLessThanOrEqual(44);
    // Codes never wrap; cut or not, the full code is on hover.
    const codes = await table.locator('tbody .cell-code').evaluateAll((cells) =>
      cells.map((cell) => ({ text: cell.textContent, title: cell.getAttribute('title'), whiteSpace: getComputedStyle(cell).whiteSpace })),
    );
    expect(codes.length).toBe(orderIds.length * 3); // order id, asset and client
    for (const code of codes) {
      expect(code.title).toBe(code.text);
      expect(code.whiteSpace).toBe('nowrap');
    }
    // The row actions keep their names (tests and screen readers find them so) and say them on hover.
    const rowOf = (orderId: string) => table.getByRole('row').filter({ has: page.getByRole('button', { name: `Istoricul ordinului ${orderId}`, exact: true }) });
    const suspended = rowOf(orderIds[0]!);
    for (const label of ['Modifică', 'Activează', 'Anulează', `Istoricul ordinului ${orderIds[0]}`]) {
      const button = suspended.getByRole('button', { name: label, exact: true });
      expect(await button.count(), label).toBe(1);
      expect(await button.getAttribute('title')).toBeTruthy();
    }
    expect(await suspended.getByRole('button', { name: 'Modifică', exact: true }).isDisabled()).toBe(true);
    // An icon opens the same order dialog the word did.
    await rowOf(orderIds[2]!).getByRole('button', { name: 'Anulează', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Anulați ordinul ${orderIds[2]}?` });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });

  it('folds the links it cannot fit into a menu, and keeps room for two more header buttons (ro)', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t, 'broker1', 'ro');
    await page.goto(appUrl(t, 'ro', 'trading/workspace'));
    await settle(page);
    // Two more small icon buttons (the planned mute switch and session indicator) still leave every link in the bar at 1280 px.
    await atWidth(page, 1280);
    await page.evaluate(() => {
      const tools = document.querySelector('.header-tools')!;
      for (const label of ['extra one', 'extra two']) {
        const button = document.createElement('button');
        button.className = 'icon-button layout-test-extra';
        button.setAttribute('aria-label', label);
        button.textContent = '◎';
        tools.prepend(button);
      }
    });
    await atWidth(page, 1281);
    await atWidth(page, 1280);
    expect(await headerProblems(page)).toEqual([]);
    expect(await barLinks(page)).toEqual([...navLabels.ro]);
    await page.evaluate(() => document.querySelectorAll('.layout-test-extra').forEach((button) => button.remove()));

    // Narrower than the links fit: some fold into the menu, none is clipped, and the menu lists the rest.
    for (const width of [1100, 900, 720]) {
      await atWidth(page, width);
      expect(await headerProblems(page), `${width} px`).toEqual([]);
      const inBar = await barLinks(page);
      const more = page.getByRole('button', { name: moreLabel.ro, exact: true });
      if (inBar.length === navLabels.ro.length) {
        expect(await more.count(), `${width} px`).toBe(0);
        continue;
      }
      await more.click();
      const folded = await page.locator('.nav-more-list a').allTextContents();
      expect([...inBar, ...folded], `${width} px`).toEqual([...navLabels.ro]);
      await screenshot(page, `layout-header-folded-${width}-ro`);
      // A folded link works and closes the menu.
      await page.locator('.nav-more-list a').last().click();
      await page.waitForURL(/\/session\/(api-docs|my-account|trading\/account)/);
      expect(await page.locator('.nav-more-list').count()).toBe(0);
      await page.goBack();
    }
    await context.close();
  });
});
