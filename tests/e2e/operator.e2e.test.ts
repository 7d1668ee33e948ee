import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntl } from 'react-intl';
import type { WorkflowInstance } from '../../protocol/workflows.ts';
import { sessionTimetables, type SessionTimetables } from '../../server/trading/engine-setup.ts';
import { enumLabelKey } from '../../src/i18n/enum-labels.ts';
import { intlLocale } from '../../src/i18n/locale.ts';
import { catalogues, type MessageKey } from '../../src/i18n/messages/index.ts';
import { namingOf, workflowName } from '../../src/workflows/naming.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { appUrl, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot, tableProblems } from './browser.ts';

/**
 * Issue 16's "Done when" for the operator console, in Chromium: the administrator suspends and resumes
 * a market from the console and a broker's screen (another browser context) shows the suspension
 * within a second; a pending OTC deal of the demo workflows is approved from the console; the audit
 * tab shows all three. Screenshots of every tab at 1280 and 1920 px, in Romanian and English.
 */

type Locale = 'ro' | 'en';

let t: TestServer;
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  // Trading from an hour ago, closing three hours from now, every day: no scheduled phase change under
  // the test whatever the hour it runs at, and a countdown in the console.
  const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toLocaleTimeString('en-GB', { timeZone: 'Europe/Bucharest', hour: '2-digit', minute: '2-digit', hour12: false });
  const day = [
    { time: at(-3_600_000), phase: 'trading' as const },
    { time: at(3 * 3_600_000), phase: 'closing' as const },
  ].sort((a, b) => a.time.localeCompare(b.time));
  const timetables = Object.fromEntries(Object.keys(sessionTimetables).map((kind) => [kind, day])) as unknown as SessionTimetables;
  ({ t, browser } = await startAppAndBrowser({ timetables, demoSettlement: true, demoWorkflows: true }, Date.now()));
  adminToken = await t.login('admin');
});
afterAll(() => stopAppAndBrowser(t, browser));

/** A message of the catalogue with its simple {placeholders} filled. */
function m(locale: Locale, key: MessageKey, values: Record<string, string | number> = {}): string {
  return catalogues[locale][key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}

interface Side {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

async function openSide(name: string, width = 1280): Promise<Side> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/Bucharest', acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${name}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${name}: page error ${error.message}`));
  return { context, page, errors };
}

async function confirm(page: Page, label: string): Promise<void> {
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

function marketRow(page: Page, locale: Locale, marketId: string): Locator {
  return page.getByRole('table', { name: m(locale, 'operator.tab.markets'), exact: true }).locator(`tbody tr[data-row-key="${marketId}"]`);
}

const GAS_SPOT_EN = 'Gas spot';

describe('operator console', () => {
  it('suspends and resumes a market seen by a broker within a second, approves a pending OTC deal, and audits both', async () => {
    const admin = await openSide('admin');
    const broker = await openSide('broker1');
    try {
      // The broker watches a Gas spot asset: its phase widget follows the market's phase.
      await signIn(broker.page, t, 'broker1', 'en');
      await broker.page.goto(appUrl(t, 'en', 'trading/market/GAS-SPOT/assets/GSPOT-DA'));
      await settle(broker.page);
      await broker.page.locator('.phase-widget[data-phase="trading"]').waitFor({ timeout: 10_000 });

      await signIn(admin.page, t, 'admin', 'en');
      await admin.page.getByRole('link', { name: m('en', 'nav.operator'), exact: true }).click();
      await admin.page.getByRole('heading', { name: m('en', 'operator.title'), exact: true }).waitFor();
      const gas = marketRow(admin.page, 'en', 'GAS-SPOT');
      await gas.waitFor({ timeout: 10_000 });
      expect(await gas.locator('.badge').first().textContent()).toBe(m('en', enumLabelKey('sessionPhase', 'trading')));
      expect(await gas.getByRole('timer').textContent()).toMatch(/^\d{2}:\d{2}(:\d{2})?$/);

      // ---- Suspend: confirmed, the broker's screen shows it within a second of the server's answer.
      await gas.getByRole('button', { name: m('en', 'operator.market.suspendOf', { market: GAS_SPOT_EN }), exact: true }).click();
      const suspended = admin.page.waitForResponse((response) => response.url().endsWith('/admin/markets/GAS-SPOT/suspend') && response.request().method() === 'POST');
      await confirm(admin.page, m('en', 'operator.market.suspend'));
      expect((await suspended).status()).toBeLessThan(300);
      const answeredAt = Date.now();
      await broker.page.locator('.phase-widget[data-phase="suspended"]').waitFor({ timeout: 5_000 });
      const seenAfterMs = Date.now() - answeredAt;
      console.log(`operator e2e: the broker saw the suspension ${seenAfterMs} ms after the server's answer`);
      expect(seenAfterMs).toBeLessThan(1_000);
      await gas.getByRole('button', { name: m('en', 'operator.market.resumeOf', { market: GAS_SPOT_EN }), exact: true }).waitFor();

      // ---- Resume.
      await gas.getByRole('button', { name: m('en', 'operator.market.resumeOf', { market: GAS_SPOT_EN }), exact: true }).click();
      await confirm(admin.page, m('en', 'operator.market.resume'));
      await broker.page.locator('.phase-widget[data-phase="trading"]').waitFor({ timeout: 5_000 });
      await gas.getByRole('button', { name: m('en', 'operator.market.suspendOf', { market: GAS_SPOT_EN }), exact: true }).waitFor();

      // ---- A pending OTC deal of the demo, approved from the console's workflows tab.
      const queue = await t.get('/workflows?awaiting=administrator&kind=otc', adminToken);
      const pending = (queue.body.instances as WorkflowInstance[])[0]!;
      expect(pending.status).toBeDefined();
      await admin.page.getByRole('tab', { name: m('en', 'operator.tab.workflows'), exact: true }).click();
      // Its row shows the internal instance id (for support) and, beside it, the transaction number brokers quote (none yet for a pending deal).
      const pendingRow = admin.page.locator(`tbody tr[data-row-key="${pending.instanceId}"]`);
      // The tab's rows arrive by request after the click: wait for the row before reading its cells.
      await pendingRow.waitFor({ timeout: 10_000 });
      expect((await pendingRow.locator('td').allTextContents()).slice(0, 2)).toEqual([pending.instanceId, '—']);
      // Its Details button and panel name it as brokers know it (kind and clients here), not by the instance id.
      const pendingName = workflowName(createIntl({ locale: intlLocale('en'), messages: catalogues.en }), namingOf(pending));
      expect(pendingName).not.toContain(pending.instanceId);
      await pendingRow.getByRole('button', { name: m('en', 'workflow.details.of', { name: pendingName }), exact: true }).click();
      const panel = admin.page.getByRole('region', { name: pendingName, exact: true });
      await panel.getByRole('button', { name: m('en', 'workflow.action.approve'), exact: true }).click();
      await confirm(admin.page, m('en', 'workflow.action.approve'));
      // Approved: it waits on nobody now, so it leaves the default filter (waiting on the administrator).
      await admin.page.locator(`tbody tr[data-row-key="${pending.instanceId}"]`).waitFor({ state: 'detached', timeout: 10_000 });
      const after = await t.get(`/workflows/${pending.instanceId}`, adminToken);
      expect(after.body.waitingOn).toBe('none');
      expect(after.body.history.at(-1).action).toBe('approve');

      // ---- The audit tab shows the suspension, the resumption and the workflow action.
      await admin.page.getByRole('tab', { name: m('en', 'operator.tab.audit'), exact: true }).click();
      const audit = admin.page.getByRole('table', { name: m('en', 'operator.tab.audit'), exact: true });
      await audit.locator('tbody tr[data-row-key]').first().waitFor({ timeout: 10_000 });
      const text = await audit.textContent();
      expect(text).toContain(m('en', 'operator.audit.action.market.suspend'));
      expect(text).toContain(m('en', 'operator.audit.action.market.resume'));
      expect(text).toContain(m('en', 'operator.audit.action.workflow.action'));
      expect(text).toContain(pending.instanceId);
      // The operator category alone: the two market commands.
      const filtered = admin.page.waitForResponse((response) => response.url().includes('/admin/audit?') && response.url().includes('category=operator'));
      await admin.page.getByLabel(m('en', 'operator.filter.category'), { exact: true }).selectOption('operator');
      await filtered;
      await expect.poll(async () => audit.textContent(), { timeout: 10_000 }).not.toContain(m('en', 'operator.audit.action.workflow.action'));
      const operatorText = await audit.textContent();
      expect(operatorText).toContain(m('en', 'operator.audit.action.market.suspend'));
      expect(operatorText).toContain(m('en', 'operator.audit.action.market.resume'));
      // The CSV of the same filters, downloaded with the bearer token.
      const download = admin.page.waitForEvent('download');
      await admin.page.getByRole('button', { name: m('en', 'operator.audit.exportCsv'), exact: true }).click();
      const file = await download;
      const path = await file.path();
      const { readFileSync } = await import('node:fs');
      const csv = readFileSync(path, 'utf8');
      expect(csv).toContain('market.suspend');
      expect(csv).not.toContain('workflow.action');

      expect([...admin.errors, ...broker.errors]).toEqual([]);
    } finally {
      await admin.context.close();
      await broker.context.close();
    }
  });

  it('suspends a broker from the console in Romanian: his resting order is cancelled, a new one refused; reinstated, he trades again', async () => {
    const broker = await t.login('broker1');
    const brokerId = (await t.get('/user/info', broker)).body.userId as string;
    const order = (key: string) => ({ idempotencyKey: `operator-e2e-${key}-${Date.now()}`, assetId: 'GSPOT-DA', way: 'bid', price: 10_000, qty: 30, validityType: 'day', clientCode: 'RO-HIDRO' });
    const resting = await t.post('/orders', order('resting'), broker);
    expect(resting.status).toBe(201);
    const admin = await openSide('admin-ro');
    try {
      await signIn(admin.page, t, 'admin', 'ro');
      await admin.page.goto(appUrl(t, 'ro', 'operator'));
      await admin.page.getByRole('tab', { name: m('ro', 'operator.tab.participants'), exact: true }).click();
      await admin.page.getByLabel(m('ro', 'operator.filter.text'), { exact: true }).fill('Andrei');
      const values = { name: 'Andrei Popescu', id: brokerId };
      await admin.page.getByRole('button', { name: m('ro', 'operator.participant.suspendOf', values), exact: true }).click();
      await admin.page.getByLabel(m('ro', 'workflow.reason.label'), { exact: true }).fill('Ordine eronate în serie');
      await admin.page.getByRole('button', { name: m('ro', 'workflow.reason.continue'), exact: true }).click();
      await confirm(admin.page, m('ro', 'operator.participant.suspend'));
      await admin.page.getByRole('button', { name: m('ro', 'operator.participant.reinstateOf', values), exact: true }).waitFor({ timeout: 10_000 });
      // The console says how many orders the suspension cancelled: his one resting order.
      expect(await admin.page.locator('p.alert-success[role="status"]').textContent()).toBe('Andrei Popescu este suspendat; 1 ordin a fost anulat.');

      // His resting order is gone and a new one is refused with the code.
      expect(t.server.sequencer.engine.listOrders().some((o) => String(o.orderId) === String(resting.body.order.orderId))).toBe(false);
      const refused = await t.post('/orders', order('refused'), broker);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toEqual({ code: 'PARTICIPANT_SUSPENDED', params: { participant: brokerId } });

      await admin.page.getByRole('button', { name: m('ro', 'operator.participant.reinstateOf', values), exact: true }).click();
      await confirm(admin.page, m('ro', 'operator.participant.reinstate'));
      await admin.page.getByRole('button', { name: m('ro', 'operator.participant.suspendOf', values), exact: true }).waitFor({ timeout: 10_000 });
      expect((await t.post('/orders', order('again'), broker)).status).toBe(201);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }
  });

  it('fits 1280 and 1920 px in Romanian and English (screenshots of every tab)', async () => {
    for (const width of [1280, 1920]) {
      for (const locale of ['ro', 'en'] as const) {
        const side = await openSide(`admin-${width}-${locale}`, width);
        try {
          await signIn(side.page, t, 'admin', locale);
          await side.page.goto(appUrl(t, locale, 'operator'));
          await marketRow(side.page, locale, 'GAS-SPOT').waitFor({ timeout: 10_000 });
          for (const tab of ['markets', 'workflows', 'participants', 'health', 'audit'] as const) {
            await side.page.getByRole('tab', { name: m(locale, `operator.tab.${tab}` as MessageKey), exact: true }).click();
            await settle(side.page);
            // Every table in its box, and the page never scrolls sideways.
            expect(await tableProblems(side.page), `${tab} at ${width} px (${locale})`).toEqual([]);
            await screenshot(side.page, `operator-${tab}-${width}-${locale}`);
          }
          expect(side.errors).toEqual([]);
        } finally {
          await side.context.close();
        }
      }
    }
  });
});
