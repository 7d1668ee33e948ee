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

/**
 * Tables wider than a box they sit in (up to the page's main area, or the `area` asked for, such as a
 * dialog), a button, status chip or status message cut by its table cell, and a page that scrolls sideways.
 */
export async function tableProblems(page: Page, area = 'main'): Promise<string[]> {
  return page.evaluate((area) => {
    const problems: string[] = [];
    const main = document.querySelector(area);
    for (const table of document.querySelectorAll(`${area} table, ${area} [role="table"]`)) {
      const label = table.getAttribute('aria-label') ?? table.className;
      for (let box = table.parentElement; box; box = box.parentElement) {
        if (box.scrollWidth > box.clientWidth + 1) problems.push(`table "${label}": ${box.className || box.tagName} ${box.scrollWidth} > ${box.clientWidth}`);
        if (box === main) break;
      }
    }
    // Text may end in an ellipsis in a tight cell (its whole text in the title), but a control, a status chip or a
    // status message is never cut by its cell: its right edge stays inside the cell.
    for (const element of document.querySelectorAll(`${area} td button, ${area} td [role="status"], ${area} td [role="alert"], ${area} td .workflow-chip`)) {
      const cell = element.closest('td')!;
      const right = element.getBoundingClientRect().right;
      const edge = cell.getBoundingClientRect().right;
      if (right > edge + 1) problems.push(`cell cuts "${(element.textContent ?? '').trim().slice(0, 60)}": ${Math.round(right)} > ${Math.round(edge)}`);
    }
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) problems.push(`the page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    return problems;
  }, area);
}
