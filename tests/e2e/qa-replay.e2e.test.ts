/**
 * QA replay in the browser (issue 16): a recording of fixtures/sessions replays in the player of
 * /qa/replay at maximum speed, through the app's own session stack, to the same final state dump as the
 * headless replay (tests/streams/recorded-sessions.test.ts compares its dump with the same
 * `<name>.expected.json`); and a recording made in the app (sign in, record, an order, stop, download)
 * replays in the player to the live session's state at the stop.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../machines/session-dump.ts';
import { parseRecording, REDACTED } from '../../streams/recording.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { SESSION_NAMES, SESSIONS_DIR, type SessionExpectations } from '../streams/session-stack.ts';
import { appUrl, newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { artefactsDir, screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
beforeAll(async () => {
  ({ t, browser } = await startAppAndBrowser());
});
afterAll(() => stopAppAndBrowser(t, browser));

const words = {
  en: { server: 'Recorded sessions', open: 'Open', max: 'Maximum', play: 'Play', upload: 'Or upload a recording (.jsonl)' },
  ro: { server: 'Sesiuni înregistrate', open: 'Deschideți', max: 'Maximă', play: 'Redați', upload: 'Sau încărcați o înregistrare (.jsonl)' },
} as const;

/** Plays what is open at maximum speed to the end; the player's dumps. */
async function playToEnd(page: Page, locale: 'ro' | 'en'): Promise<{ final: Checkpoint; lastFrame: Checkpoint }> {
  const w = words[locale];
  await page.getByRole('radio', { name: w.max }).check();
  await page.getByRole('button', { name: w.play, exact: true }).click();
  const output = page.locator('.qa-final-dump');
  await output.waitFor({ state: 'attached', timeout: 20_000 });
  return { final: JSON.parse((await output.getAttribute('data-final-dump'))!), lastFrame: JSON.parse((await output.getAttribute('data-last-frame-dump'))!) };
}

async function openFromServer(page: Page, locale: 'ro' | 'en', name: string): Promise<void> {
  const w = words[locale];
  await page.goto(appUrl(t, locale, 'qa/replay'));
  await page.getByRole('option', { name: new RegExp(name) }).waitFor({ state: 'attached' });
  await page.getByRole('combobox', { name: new RegExp(`^${w.server}`) }).selectOption(name);
  await page.getByRole('button', { name: w.open, exact: true }).click();
  await page.locator('.qa-status').waitFor();
}

describe('the QA player in the browser', () => {
  it('replays every fixture at maximum speed to the headless replay’s final state', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t, 'qa1');
    for (const name of SESSION_NAMES) {
      const expected = JSON.parse(readFileSync(`${SESSIONS_DIR}${name}.expected.json`, 'utf8')) as SessionExpectations;
      await openFromServer(page, 'en', name);
      const { final } = await playToEnd(page, 'en');
      expect(final, name).toEqual(expected.steps.at(-1)!.checkpoint);
      // The real views show the replayed book: its best bid, from the dump, is on the page.
      const position = await page.locator('.qa-status').getAttribute('data-position');
      expect(position).toBe(await page.locator('.qa-status').getAttribute('data-length'));
    }
    await context.close();
  });

  it('draws the player at 1280 and 1920 px in Romanian and English', async () => {
    for (const locale of ['ro', 'en'] as const) {
      for (const width of [1280, 1920]) {
        const context = await browser.newContext({ viewport: { width, height: 1000 }, locale: 'en-GB', timezoneId: 'Europe/Bucharest' });
        const page = await context.newPage();
        await signIn(page, t, 'qa1', locale);
        await openFromServer(page, locale, 'ordinary-trading');
        await playToEnd(page, locale);
        await settle(page);
        await screenshot(page, `qa-replay-${locale}-${width}`);
        await context.close();
      }
    }
  });

  it('replays a recording made in the app to the live session’s state at the stop', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t, 'broker1');
    await page.goto(appUrl(t, 'en', 'trading/market/GAS-SPOT/assets/GSPOT-DA'));
    await settle(page);
    await page.getByRole('button', { name: 'Record', exact: true }).click();
    await page.locator('[data-recording="on"]').waitFor();
    // The new live session is up: its book is on screen.
    await page.waitForFunction(() => document.querySelector('[data-connection-status="connected"], .connection-indicator') !== null, null, { timeout: 10_000 }).catch(() => {});
    const broker1 = await t.login('broker1');
    const placed = await t.post('/orders', { idempotencyKey: 'e2e-qa-replay-0001', validityType: 'day', assetId: 'GSPOT-DA', way: 'ask', price: 19_900, qty: 30, clientCode: 'RO-HIDRO' }, broker1);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await page.getByText('199.00').first().waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Stop recording' }).click();
    const stopped = page.locator('[data-recording="stopped"]');
    await stopped.waitFor();
    const live = JSON.parse((await stopped.getAttribute('data-live-dump'))!) as Checkpoint;
    expect(live.orders[placed.body.order.orderId as string], JSON.stringify(live)).toMatchObject({ status: 'created', price: 19_900, qty: 30 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download recording' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^session-\d{8}-\d{6}\.jsonl$/);
    const file = (await download.path())!;
    const jsonl = readFileSync(file, 'utf8');
    const frames = parseRecording(jsonl);
    mkdirSync(artefactsDir, { recursive: true });
    writeFileSync(join(artefactsDir, 'qa-replay-recorded-session.jsonl'), jsonl);
    expect(frames[0]!.command).toBe('@open');
    expect(frames.filter((f) => f.command === 'CONNECT').every((f) => f.headers['Authorization'] === REDACTED)).toBe(true);
    expect(frames.filter((f) => f.command === 'CONNECTED').every((f) => f.headers['user-name'] === REDACTED)).toBe(true);
    expect(jsonl).not.toContain(broker1);
    expect(jsonl).not.toContain('Andrei Popescu');
    await context.close();

    const qa = await newPage(browser);
    await signIn(qa.page, t, 'qa1');
    await qa.page.goto(appUrl(t, 'en', 'qa/replay'));
    await qa.page.getByLabel(words.en.upload, { exact: true }).setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/x-ndjson', buffer: Buffer.from(jsonl) });
    await qa.page.locator('.qa-status').waitFor();
    const { lastFrame } = await playToEnd(qa.page, 'en');
    expect(lastFrame).toEqual(live);
    await qa.context.close();
  });
});
