/**
 * The layouts' `main` takes only classes the stylesheet styles: a class without a rule (the api
 * layout's old `app-main-wide`) promises a width the page never gets.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const layoutsDir = join(root, 'src/layouts');
const css = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.css'))
  .map((file) => readFileSync(join(root, 'src', file), 'utf8'))
  .join('\n');

describe('layout classes', () => {
  it("every class on a layout's main element has a rule in the stylesheets", () => {
    const unstyled: string[] = [];
    for (const file of readdirSync(layoutsDir).filter((name) => name.endsWith('.tsx'))) {
      const source = readFileSync(join(layoutsDir, file), 'utf8');
      for (const main of source.matchAll(/<main\b[^>]*?className=(\{[^}]*\}|"[^"]*")/g)) {
        for (const literal of (main[1] ?? '').matchAll(/(['"])([^'"]+)\1/g)) {
          for (const name of (literal[2] ?? '').split(/\s+/).filter(Boolean)) {
            if (!new RegExp(`\\.${name}(?![\\w-])`).test(css)) unstyled.push(`${file}: ${name}`);
          }
        }
      }
    }
    expect(unstyled).toEqual([]);
  });
});
