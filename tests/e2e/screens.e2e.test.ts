import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.ts';
import { appUrl, newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { artefactsDir, tableProblems } from './browser.ts';
import { demoAssetId } from '../../server/demo/demo-exchange.ts';

// The screens of the date field, the orders history, the administrator's header and the workflow
// tables, as broker1 and the administrator see them, in Romanian and English, at 1280x800 and
// 1920x1080: nothing wider than its box, no browser date input in sight, the administrator's Replay
// link. Screenshots `screens-<page>-<width>-<user>-<locale>.png`.

let t: TestServer;
let browser: Browser;
beforeAll(async () => {
  ({ t, browser } = await startAppAndBrowser({ demoSettlement: true }));
  const broker1 = await t.login('broker1');
  let key = 0;
  for (const [way, price, clientCode] of [
    ['bid', 11000, 'RO-HIDRO'],
    ['ask', 19500, 'RO-GAZEST'],
  ] as const) {
    const result = await t.post('/orders', { idempotencyKey: `e2e-screens-${++key}`, assetId: 'GSPOT-DA', way, price, qty: 120, clientCode, validityType: 'day' }, broker1);
    expect(result.status, JSON.stringify(result.body)).toBe(201);
  }
});
afterAll(() => stopAppAndBrowser(t, browser));

const sizes = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const pages = {
  broker1: ['my-account/orders', 'my-account/transactions', 'my-account/transaction-contracts', 'my-account/otc-transactions'],
  admin: ['my-account/orders', 'my-account/approvals', 'my-account/transaction-contracts', 'operator'],
} as const;
const replay = { ro: 'Redare', en: 'Replay' } as const;

/** `username` signed in with `locale` in a page of its own, `visit` run at each size (the page resized to it), the page closed after. */
async function atEachSize(username: string, locale: 'ro' | 'en', visit: (page: Page, size: (typeof sizes)[number]) => Promise<void>): Promise<void> {
  const { context, page } = await newPage(browser);
  try {
    await signIn(page, t, username, locale);
    for (const size of sizes) {
      await page.setViewportSize(size);
      await visit(page, size);
    }
  } finally {
    await context.close();
  }
}

/** Opens the app's `path` in `locale` and waits for it to settle. */
async function open(page: Page, locale: 'ro' | 'en', path: string): Promise<void> {
  await page.goto(appUrl(t, locale, path));
  await settle(page);
}

/** A screenshot in the artefacts, named `name`.png. */
async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(artefactsDir, { recursive: true });
  await page.screenshot({ path: join(artefactsDir, `${name}.png`), fullPage });
}

describe('changed screens as broker1 and the administrator', () => {
  for (const username of ['broker1', 'admin'] as const) {
    for (const locale of ['ro', 'en'] as const) {
      it(`fit their boxes and type dates in the page's language (${username}, ${locale})`, { timeout: 120_000 }, async () => {
        await atEachSize(username, locale, async (page, size) => {
          for (const path of pages[username]) {
            await open(page, locale, path);
            const where = `${path} at ${size.width} px`;
            expect(await tableProblems(page), where).toEqual([]);
            // Every date is the app's own field; the browser's date inputs only lend their picker, unseen and out of reach.
            const native = await page.locator('main input[type="date"]').evaluateAll((inputs) =>
              inputs.map((input) => ({ opacity: getComputedStyle(input).opacity, tabIndex: (input as HTMLInputElement).tabIndex, hidden: input.getAttribute('aria-hidden') })),
            );
            for (const input of native) expect(input, where).toEqual({ opacity: '0', tabIndex: -1, hidden: 'true' });
            const typed = page.locator('main .date-field-input');
            if ((await typed.count()) > 0) expect(await typed.first().getAttribute('placeholder'), where).toBe(locale === 'ro' ? 'zz.ll.aaaa' : 'dd/mm/yyyy');
            const link = page.locator('.main-nav .main-nav-link', { hasText: replay[locale] });
            expect(await link.count(), where).toBe(username === 'admin' ? 1 : 0);
            if (username === 'admin') expect(await link.isVisible(), where).toBe(true);
            await shot(page, `screens-${path.replace(/\//g, '-')}-${size.width}-${username}-${locale}`);
          }
        });
      });
    }
  }
  it('lines up the audit filters\' From and To labels with their neighbours\' labels (admin, ro and en)', { timeout: 120_000 }, async () => {
    const words = { ro: { from: 'De la', to: 'Până la' }, en: { from: 'From', to: 'To' } } as const;
    for (const locale of ['ro', 'en'] as const) {
      await atEachSize('admin', locale, async (page, size) => {
        await open(page, locale, 'operator');
        await page.locator('#operator-tab-audit').click();
        const filters = page.locator('form.operator-filters');
        await filters.waitFor();
        // Each filter's label, top and left, as drawn (From and To hold the app's date field, the others a select or a search box).
        const labels = await filters.locator('.operator-filter > label').evaluateAll((all) =>
          all.map((label) => ({ text: (label.textContent ?? '').trim(), y: label.getBoundingClientRect().y, x: label.getBoundingClientRect().x })),
        );
        for (const name of [words[locale].from, words[locale].to]) {
          const index = labels.findIndex((label) => label.text === name);
          expect(index, `${name} among ${labels.map((label) => label.text).join(', ')}`).toBeGreaterThan(0);
          const own = labels[index]!;
          // Its neighbours on the same line (a filter to its left or right); the filters may wrap at 1280 px.
          const neighbours = [labels[index - 1], labels[index + 1]].filter((label) => label !== undefined && Math.abs(label.y - own.y) < 12);
          expect(neighbours.length, `${name} at ${size.width} px has a neighbour on its line`).toBeGreaterThan(0);
          for (const neighbour of neighbours) expect(Math.abs(own.y - neighbour!.y), `${name} vs ${neighbour!.text} at ${size.width} px (${locale})`).toBeLessThanOrEqual(0.5);
        }
        await shot(page, `screens-operator-audit-${size.width}-admin-${locale}`);
      });
    }
  });
  it('shows the transactions\' buyer and seller at 1920 px, and keeps them in their box at 1280 px (broker1, ro and en)', { timeout: 120_000 }, async () => {
    // broker2's ask meets broker1's bid of 110.00: a transaction between RO-HIDRO and RO-TERMO, with its workflow buttons.
    const broker2 = await t.login('broker2');
    const ask = await t.post('/orders', { idempotencyKey: 'e2e-screens-cross', assetId: 'GSPOT-DA', way: 'ask', price: 11000, qty: 120, clientCode: 'RO-TERMO', validityType: 'day' }, broker2);
    expect(ask.status, JSON.stringify(ask.body)).toBe(201);
    const words = { ro: { table: 'Tranzacții', buyer: 'Cumpărător', seller: 'Vânzător' }, en: { table: 'Transactions', buyer: 'Buyer', seller: 'Seller' } } as const;
    for (const locale of ['ro', 'en'] as const) {
      await atEachSize('broker1', locale, async (page, size) => {
        await open(page, locale, 'my-account/transactions');
        const table = page.getByRole('table', { name: words[locale].table, exact: true });
        await table.locator('tbody tr[data-row-key]').first().waitFor({ timeout: 10_000 });
        const where = `${size.width} px (${locale})`;
        expect(await tableProblems(page), where).toEqual([]);
        const shown = async (header: string) => table.getByRole('columnheader', { name: header, exact: true }).isVisible();
        if (size.width === 1920) {
          expect(await shown(words[locale].buyer), `buyer at ${where}`).toBe(true);
          expect(await shown(words[locale].seller), `seller at ${where}`).toBe(true);
        }
        await shot(page, `screens-transactions-sides-${size.width}-broker1-${locale}`, true);
      });
    }
  });
  it('gives the operator console a 1920 px screen whole, its tables in their box at 1280 px, and the workflows\' transaction beside their instance (admin, ro and en)', { timeout: 180_000 }, async () => {
    const words = { ro: { workflows: 'Fluxuri', instance: 'Instanță', transaction: 'Tranzacție' }, en: { workflows: 'Workflows', instance: 'Instance', transaction: 'Transaction' } } as const;
    for (const locale of ['ro', 'en'] as const) {
      await atEachSize('admin', locale, async (page, size) => {
        await open(page, locale, 'operator');
        const where = `${size.width} px (${locale})`;
        // The console takes the screen as My account does: 1920 px whole (no 1320 px cap); at 1280 px the page's own width.
        const main = await page.locator('main.app-main').evaluate((element) => element.getBoundingClientRect().width);
        if (size.width === 1920) expect(main, `main at ${where}`).toBeGreaterThan(1880);
        else expect(main, `main at ${where}`).toBeLessThanOrEqual(1280);
        for (const tab of ['operator-tab-workflows', 'operator-tab-audit', 'operator-tab-markets'] as const) {
          await page.locator(`#${tab}`).click();
          await settle(page);
          expect(await tableProblems(page), `${tab} at ${where}`).toEqual([]);
          if (tab === 'operator-tab-workflows') {
            const table = page.getByRole('table', { name: words[locale].workflows, exact: true });
            const headers = (await table.getByRole('columnheader').allTextContents()).map((text) => text.trim());
            expect(headers.slice(0, 2), where).toEqual([expect.stringContaining(words[locale].instance), expect.stringContaining(words[locale].transaction)]);
          }
          await shot(page, `screens-operator-wide-${tab.replace('operator-tab-', '')}-${size.width}-admin-${locale}`, true);
        }
      });
    }
  });
  it('names workflow items by transaction number, else by kind and clients, never by their internal instance id (broker1, broker2, admin; ro and en)', { timeout: 180_000 }, async () => {
    // Two OTC deals of broker1's RO-HIDRO with broker2's RO-TERMO at the gas month's settlement price: one
    // awaiting broker2's acceptance, one awaiting the administrator.
    const [adminToken, broker1, broker2] = [await t.login('admin'), await t.login('broker1'), await t.login('broker2')];
    const gas = demoAssetId('GFWD-M-2027-01', t.clock.now());
    const month = (await t.get(`/assets/${gas}`, broker1)).body as { deliveryStart: string; deliveryEnd: string };
    const prices = await t.get(`/clearing/daily-settlement-prices?assetId=${gas}`, adminToken);
    const latest = [...(prices.body.items as Array<{ dailySettlementPriceId: string; sessionDate: string }>)].sort((a, b) => b.sessionDate.localeCompare(a.sessionDate))[0]!;
    expect((await t.post(`/admin/clearing/daily-settlement-prices/${latest.dailySettlementPriceId}/override`, { price: 20_000, reason: 'e2e: a round settlement price' }, adminToken)).status).toBe(200);
    const days = (Date.parse(month.deliveryEnd) - Date.parse(month.deliveryStart)) / 86_400_000 + 1;
    const draft = { clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', assetId: gas, way: 'bid', qty: 1000, price: 20_000, firstDeliveryDate: month.deliveryStart, lastDeliveryDate: month.deliveryEnd, noDeliveryDays: days };
    for (const step of [['activate'], ['activate', 'acceptActivation']] as const) {
      const created = await t.post('/workflows/otc', draft, broker1);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.instanceId as string;
      for (const action of step) expect((await t.post(`/workflows/${id}/actions`, { action }, action === 'activate' ? broker1 : broker2)).status).toBe(200);
    }
    for (const username of ['broker1', 'broker2', 'admin'] as const) {
      const token = await t.login(username);
      const list = await t.get('/workflows', token);
      expect(list.status).toBe(200);
      const instanceIds = (list.body.instances as Array<{ instanceId: string }>).map((instance) => instance.instanceId);
      const path = username === 'admin' ? 'my-account/approvals' : 'my-account/otc-transactions';
      for (const locale of ['ro', 'en'] as const) {
        await atEachSize(username, locale, async (page, size) => {
          await open(page, locale, path);
          const where = `${path} at ${size.width} px (${username}, ${locale})`;
          const button = page.locator('main tbody tr[data-row-key] button[aria-controls]').first();
          await button.waitFor({ timeout: 10_000 });
          // With rows in it the table stays in its box (the OTC deals' 18 columns need 2,000 px with them all).
          expect(await tableProblems(page), where).toEqual([]);
          await button.click();
          const panel = page.locator('section.workflow-details');
          await panel.waitFor();
          // Nothing a user reads or hears names the item by its instance id: the Details buttons, the panel's title and text.
          const labels = await page.locator('main tbody tr[data-row-key] button[aria-controls]').evaluateAll((buttons) => buttons.map((each) => each.getAttribute('aria-label') ?? ''));
          const title = (await panel.locator('h3').first().textContent()) ?? '';
          const seen = [...labels, title, (await panel.getAttribute('aria-label')) ?? '', (await page.locator('main').textContent()) ?? ''].join('\n');
          expect(title, where).not.toBe('');
          for (const instanceId of instanceIds) expect(seen, where).not.toContain(instanceId);
          await shot(page, `screens-workflow-names-${size.width}-${username}-${locale}`, true);
        });
      }
    }
  });
});
