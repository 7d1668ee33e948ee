import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePdf } from '../server/clearing/documents/pdf-text.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { appUrl, newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
// The demo exchange with its clearing history: warranties, settlement days, paid and unpaid obligations.
beforeAll(async () => {
  ({ t, browser } = await startAppAndBrowser({ demoSettlement: true }));
  // Today's trading is not demo data: one trade between broker1's and broker2's clients fills the transactions tab.
  const [broker1, broker2] = [await t.login('broker1'), await t.login('broker2')];
  const order = (way: 'bid' | 'ask', clientCode: string) => ({ idempotencyKey: `clearing-e2e-${way}-${Date.now()}`, assetId: 'ESPOT-DA-H07', way, price: 40_000, qty: 100, validityType: 'GTC', clientCode });
  expect((await t.post('/orders', order('ask', 'RO-HIDRO'), broker1)).status).toBe(201);
  expect((await t.post('/orders', order('bid', 'RO-TERMO'), broker2)).status).toBe(201);
});
afterAll(() => stopAppAndBrowser(t, browser));

/** The eleven clearing tabs, with their titles (the table's name) in both languages. */
const tabs = [
  { slug: 'transactions', ro: 'Tranzacții', en: 'Transactions' },
  { slug: 'bank-commissions', ro: 'Comisioane bancare', en: 'Bank commissions' },
  { slug: 'warranties', ro: 'Garanții', en: 'Warranties' },
  { slug: 'unpaid-transactions', ro: 'Tranzacții neplătite', en: 'Unpaid transactions' },
  { slug: 'paid-cashed-transactions', ro: 'Tranzacții plătite și încasate', en: 'Paid and cashed transactions' },
  { slug: 'daily-settlement-price', ro: 'Preț zilnic de decontare', en: 'Daily settlement price' },
  { slug: 'final-settlement-price', ro: 'Preț final de decontare', en: 'Final settlement price' },
  { slug: 'transaction-reports', ro: 'Rapoarte de tranzacții', en: 'Transaction reports' },
  { slug: 'daily-settlement-notes', ro: 'Note zilnice de decontare', en: 'Daily settlement notes' },
  { slug: 'monthly-settlement-summary', ro: 'Sinteza lunară a decontării', en: 'Monthly settlement summary' },
  { slug: 'nominations', ro: 'Nominalizări', en: 'Nominations' },
] as const;
const tab = (slug: (typeof tabs)[number]['slug']) => tabs.find((candidate) => candidate.slug === slug)!;

/** The data rows of a tab's table (the empty state has no row key). */
function dataRows(page: Page, name: string) {
  return page.getByRole('table', { name, exact: true }).locator('tbody tr[data-row-key]');
}

async function openTab(page: Page, locale: 'ro' | 'en', open: (typeof tabs)[number]) {
  await page.goto(appUrl(t, locale, `my-account/${open.slug}`));
  await settle(page);
  await dataRows(page, open[locale]).first().waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
    await screenshot(page, `clearing-${open.slug}-${locale}-failed`);
    throw error;
  });
}

describe('clearing tabs on the demo exchange', () => {
  for (const locale of ['ro', 'en'] as const) {
    it(`a broker opens each of the eleven tabs and sees rows (${locale}, 1280 px)`, async () => {
      const { context, page } = await newPage(browser);
      await page.setViewportSize({ width: 1280, height: 860 });
      await signIn(page, t, 'broker1', locale);
      for (const each of tabs) {
        await openTab(page, locale, each);
        expect(await dataRows(page, each[locale]).count(), each.slug).toBeGreaterThan(0);
        // No placeholder left, and the footer counts the rows ('1-3 of 3', '1-10 din 30').
        expect(await page.getByText(locale === 'en' ? /coming with its feature/ : /vine odată cu/).count()).toBe(0);
        expect((await page.locator('.data-table-range').first().textContent())?.trim()).toMatch(locale === 'en' ? /^1-\d+ of \d+$/ : /^1-\d+ din \d+$/);
        await screenshot(page, `clearing-${each.slug}-${locale}`);
      }
      // The price chart is drawn.
      await openTab(page, locale, tab('daily-settlement-price'));
      await page.locator('.settlement-price-chart canvas').first().waitFor({ timeout: 10_000 });
      // The financial report beside the limits.
      await page.goto(appUrl(t, locale, 'trading/account'));
      await settle(page);
      await page.getByRole('heading', { name: locale === 'en' ? 'Financial report (portfolio margins)' : 'Raport financiar (marje de portofoliu)' }).waitFor();
      await screenshot(page, `clearing-financial-report-${locale}`);
      await context.close();
    });
  }

  it('downloads a daily settlement note as a PDF naming the client, and a tab as CSV', async () => {
    const { context, page } = await newPage(browser);
    await page.setViewportSize({ width: 1280, height: 860 });
    await signIn(page, t, 'broker1', 'ro');
    const notes = tab('daily-settlement-notes');
    await openTab(page, 'ro', notes);
    const row = dataRows(page, notes.ro).first();
    const clientCode = ((await row.locator('td').nth(1).textContent()) ?? '').trim();
    const [pdf] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /nota zilnică de decontare/ }).click()]);
    // The server's name for it, in the page's language.
    expect(pdf.suggestedFilename()).toMatch(new RegExp(`^nota-decontare-${clientCode}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
    const bytes = readFileSync((await pdf.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = (await parsePdf(bytes)).pages.flat().join(' ');
    expect(text).toContain(clientCode);

    const warranties = tab('warranties');
    await openTab(page, 'ro', warranties);
    const shown = await dataRows(page, warranties.ro).count();
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportă CSV' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^warranties-\d{4}-\d{2}-\d{2}\.csv$/);
    const csvText = readFileSync((await csv.path())!, 'utf8');
    expect(csvText.startsWith('\uFEFFClient,Număr garanție,')).toBe(true);
    // Every row of the list (all pages), one record each after the header.
    expect(csvText.trimEnd().split('\r\n').length - 1).toBeGreaterThanOrEqual(shown);
    await context.close();
  });
});
