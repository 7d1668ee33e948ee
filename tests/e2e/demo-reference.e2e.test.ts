import type { Browser, Page } from 'playwright-core';
import { createIntl } from 'react-intl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../server/trading/asset-periods.ts';
import { bucharestDate } from '../../server/trading/time.ts';
import { formatCalendarDate } from '../../src/i18n/format.ts';
import { intlLocale } from '../../src/i18n/locale.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { appUrl, newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
beforeAll(async () => {
  ({ t, browser } = await startAppAndBrowser({}, Date.now()));
});
afterAll(() => stopAppAndBrowser(t, browser));

const words = {
  ro: { name: 'Gaze naturale ziua următoare', market: 'Gaze naturale spot · Spot', ring: 'Ziua următoare și intrazilnic', type: 'Zi', typeTerm: 'Tip', marketTerm: 'Piață', delivery: 'Perioada de livrare', trading: 'Perioada de tranzacționare' },
  en: { name: 'Gas day-ahead', market: 'Gas spot · Spot', ring: 'Day-ahead and within-day', type: 'Day', typeTerm: 'Type', marketTerm: 'Market', delivery: 'Delivery period', trading: 'Trading period' },
} as const;

const value = (page: Page, term: string) => page.locator('.asset-info dt', { hasText: term }).first().locator('xpath=following-sibling::dd[1]').textContent();

describe('demo reference data in the app', () => {
  it("shows the asset, its market and ring in the page's language, its type translated, the periods of today's session, and a favicon", async () => {
    const session = bucharestDate(Date.now());
    for (const locale of ['ro', 'en'] as const) {
      const w = words[locale];
      const { context, page } = await newPage(browser);
      try {
        await signIn(page, t, 'broker1', locale);
        await page.goto(appUrl(t, locale, 'trading/market/GAS-SPOT/assets/GSPOT-DA'));
        await settle(page);
        await page.getByRole('heading', { level: 1, name: w.name }).waitFor({ timeout: 10_000 });
        expect(await value(page, w.typeTerm)).toBe(w.type);
        expect(await value(page, w.marketTerm)).toBe(w.market);
        // The app formats with intlLocale's tag (en-GB for English: day first).
        const intl = createIntl({ locale: intlLocale(locale) });
        // Day-ahead: traded in today's session, delivered tomorrow (never the fixture's old dates).
        expect(await value(page, w.delivery)).toBe(formatCalendarDate(intl, addDays(session, 1)));
        expect(await value(page, w.trading)).toBe(formatCalendarDate(intl, session));
        expect(await page.title()).toContain(w.name);

        const icons = await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
        expect(icons.length).toBe(2);
        for (const icon of icons) expect((await fetch(icon)).status, icon).toBe(200);
        await screenshot(page, `demo-reference-asset-${locale}`);

        // The workspace's market panels carry the market names of the language.
        await page.goto(appUrl(t, locale, 'trading/workspace'));
        await settle(page);
        await page.getByRole('heading', { level: 2, name: locale === 'ro' ? 'Gaze naturale spot' : 'Gas spot', exact: true }).waitFor({ timeout: 10_000 });
        await screenshot(page, `demo-reference-workspace-${locale}`);
      } finally {
        await context.close();
      }
    }
  });
});
