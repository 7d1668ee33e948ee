import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.ts';
import { newPage, settle, signIn, startAppAndBrowser, stopAppAndBrowser } from './app.ts';
import { screenshot } from './browser.ts';

let t: TestServer;
let browser: Browser;
beforeAll(async () => ({ t, browser } = await startAppAndBrowser()));
afterAll(() => stopAppAndBrowser(t, browser));

const words = {
  en: { chat: 'Chat', unreadOne: 'Chat, 1 unread message', active: 'Active brokers', compose: (name: string) => `Message to ${name}`, seen: 'Seen', counter: '11 / 2,000' },
  ro: { chat: 'Chat', unreadOne: 'Chat, 1 mesaj necitit', active: 'Brokeri activi', compose: (name: string) => `Mesaj către ${name}`, seen: 'Văzut', counter: '11 / 2.000' },
} as const;

async function openChatWith(page: Page, locale: 'ro' | 'en', name: string, buttonName: string): Promise<void> {
  await page.getByRole('button', { name: buttonName, exact: true }).click();
  const panel = page.getByRole('complementary', { name: words[locale].chat });
  await panel.getByRole('button', { name: new RegExp(name) }).first().click();
  await page.getByRole('textbox', { name: words[locale].compose(name) }).waitFor();
}

describe('chat between two brokers', () => {
  for (const locale of ['ro', 'en'] as const) {
    it(`broker1 writes to broker2, who sees the unread count, reads and answers (${locale})`, async () => {
      const w = words[locale];
      const one = await newPage(browser);
      const two = await newPage(browser);
      try {
        await signIn(one.page, t, 'broker1', locale);
        await signIn(two.page, t, 'broker2', locale);
        await settle(one.page);

        // broker2 is online: listed under active brokers in broker1's panel.
        await one.page.getByRole('button', { name: w.chat, exact: true }).click();
        const panel = one.page.getByRole('complementary', { name: w.chat });
        await panel.getByRole('region', { name: w.active }).getByRole('button', { name: /Mihai Ionescu/ }).waitFor({ timeout: 10_000 });
        await panel.getByRole('region', { name: w.active }).getByRole('button', { name: /Mihai Ionescu/ }).click();
        const input = one.page.getByRole('textbox', { name: w.compose('Mihai Ionescu') });
        const text = `Salut ${locale}, aveți 100 MWh pe GSPOT-DA?`;
        await input.fill('Oferta 150,');
        await one.page.getByText(w.counter).waitFor();
        await input.fill(text);
        await input.press('Enter');
        await one.page.locator('.chat-bubble-mine:not(.chat-bubble-sending)', { hasText: text }).waitFor({ timeout: 10_000 });
        expect(await input.inputValue()).toBe('');

        // broker2: the header says one unread message; opening the conversation reads it.
        await two.page.getByRole('button', { name: w.unreadOne, exact: true }).waitFor({ timeout: 10_000 });
        await openChatWith(two.page, locale, 'Andrei Popescu', w.unreadOne);
        await two.page.locator('.chat-bubble-theirs', { hasText: text }).waitFor();
        await two.page.getByRole('button', { name: w.chat, exact: true }).waitFor();
        const answer = two.page.getByRole('textbox', { name: w.compose('Andrei Popescu') });
        await answer.type('Da, 100 MWh.');
        await answer.press('Shift+Enter');
        await answer.type(`La 150,00 RON (${locale}).`);
        expect(await answer.inputValue()).toBe(`Da, 100 MWh.\nLa 150,00 RON (${locale}).`);
        await answer.press('Enter');

        // broker1 has the conversation open: the answer arrives (two lines) and broker2 has seen broker1's message.
        await one.page.locator('.chat-bubble-theirs', { hasText: `La 150,00 RON (${locale}).` }).waitFor({ timeout: 10_000 });
        expect(await one.page.locator('.chat-bubble-theirs .chat-text').last().innerText()).toBe(`Da, 100 MWh.\nLa 150,00 RON (${locale}).`);
        await one.page.locator('.chat-bubble-mine .chat-meta', { hasText: w.seen }).last().waitFor({ timeout: 10_000 });
        await screenshot(one.page, `chat-conversation-${locale}`);
        await screenshot(two.page, `chat-conversation-broker2-${locale}`);

        // Back to the lists: the conversation shows the latest message.
        await one.page.getByRole('button', { name: locale === 'en' ? 'Back to conversations' : 'Înapoi la conversații' }).click();
        await one.page.getByRole('region', { name: locale === 'en' ? 'Conversations' : 'Conversații' }).getByText(`La 150,00 RON (${locale}).`, { exact: false }).waitFor();
        await screenshot(one.page, `chat-lists-${locale}`);
      } finally {
        await one.context.close();
        await two.context.close();
      }
    });
  }
});
