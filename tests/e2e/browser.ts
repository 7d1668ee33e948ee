import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const artefactsDir = join(process.cwd(), 'artefacts', 'screenshots');

/**
 * Debian's Chromium with the flags that work on this machine (no sandbox as root, no background network).
 * Playwright gives every launch a fresh, empty profile directory.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artefactsDir, { recursive: true });
  await page.screenshot({ path: join(artefactsDir, `${name}.png`), fullPage: true });
}
