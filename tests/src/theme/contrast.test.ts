import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AA_TEXT, buttonLooks, contrastRatio, textTokenPairs } from '../../../src/theme/contrast.ts';

const css = readFileSync(fileURLToPath(new URL('../../../src/theme/tokens.css', import.meta.url)), 'utf8');
const styles = readFileSync(fileURLToPath(new URL('../../../src/styles.css', import.meta.url)), 'utf8');

/** The colour tokens of each theme block of tokens.css: hex values, and `var(--other)` resolved to the other's. */
function themeTokens(): Record<'light' | 'dark', Record<string, string>> {
  const result: Record<string, Record<string, string>> = {};
  for (const [, selector = '', body = ''] of css.matchAll(/(:root[^{]*)\{([^}]*)\}/g)) {
    const theme = selector.includes("'dark'") ? 'dark' : 'light';
    const hex = Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{3,6})\s*;/gi)].map((m) => [m[1], m[2]]));
    for (const [, name = '', target = ''] of body.matchAll(/(--[\w-]+):\s*var\((--[\w-]+)\)\s*;/g)) {
      if (hex[target] !== undefined) hex[name] = hex[target];
    }
    result[theme] = hex;
  }
  return result as Record<'light' | 'dark', Record<string, string>>;
}

/** The declarations of a rule of styles.css, by exact selector (`null` when there is no such rule). */
function ruleOf(selector: string): Record<string, string> | null {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(?:^|\\n)${escaped}\\s*\\{([^}]*)\\}`).exec(styles);
  if (!match) return null;
  return Object.fromEntries([...(match[1] ?? '').matchAll(/([\w-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1], (m[2] ?? '').trim()]));
}

describe('theme colours', () => {
  const tokens = themeTokens();

  it('uses the SPEC colours (primary #1976D2 in light, error #ef5350, success #66CC66)', () => {
    expect(tokens.light['--color-primary']).toBe('#1976d2');
    for (const theme of ['light', 'dark'] as const) {
      expect(tokens[theme]['--color-error']).toBe('#ef5350');
      expect(tokens[theme]['--color-success']).toBe('#66cc66');
    }
  });

  it('defines the same tokens in both themes', () => {
    expect(Object.keys(tokens.dark).sort()).toEqual(Object.keys(tokens.light).sort());
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`meets WCAG AA text contrast (4.5:1) in the ${theme} theme`, () => {
      const failures: string[] = [];
      for (const [text, background] of textTokenPairs) {
        const fg = tokens[theme][text];
        const bg = tokens[theme][background];
        expect(fg, `${theme} ${text}`).toBeDefined();
        expect(bg, `${theme} ${background}`).toBeDefined();
        const ratio = contrastRatio(fg!, bg!);
        if (ratio < AA_TEXT) failures.push(`${text} on ${background}: ${ratio.toFixed(2)}`);
      }
      expect(failures).toEqual([]);
    });
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`meets WCAG AA (4.5:1) for every button, at rest and hovered, in the ${theme} theme`, () => {
      const failures: string[] = [];
      for (const [name, looks] of Object.entries(buttonLooks)) {
        for (const look of looks) {
          const fg = tokens[theme][look.text];
          expect(fg, `${theme} ${look.text}`).toBeDefined();
          for (const background of look.background ? [look.background] : (look.over ?? [])) {
            const bg = tokens[theme][background];
            expect(bg, `${theme} ${background}`).toBeDefined();
            const ratio = contrastRatio(fg!, bg!);
            if (ratio < AA_TEXT) failures.push(`${name} (${look.selector}): ${look.text} on ${background}: ${ratio.toFixed(2)}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('covers primary, secondary, danger, buy, sell and ghost', () => {
    expect(Object.keys(buttonLooks).sort()).toEqual(['buy', 'danger', 'ghost', 'primary', 'secondary', 'sell']);
  });

  it('styles.css draws each button with the tokens the test checks, and no theme overrides them', () => {
    for (const looks of Object.values(buttonLooks)) {
      for (const look of looks) {
        const rule = ruleOf(look.selector);
        expect(rule, look.selector).not.toBeNull();
        expect(rule!.color, `${look.selector} color`).toBe(`var(${look.text})`);
        if (look.background) expect(rule!.background, `${look.selector} background`).toBe(`var(${look.background})`);
        else expect(rule!.background, `${look.selector} background`).toBe('transparent');
        expect(rule!.filter, `${look.selector} filter`).toBeUndefined();
      }
    }
    // A per-theme rule would bypass the tokens (the dark Sell button was white on #ff8a80: 2.3:1).
    expect(styles).not.toMatch(/data-theme[^{]*\.button-(primary|secondary|danger|bid|ask|ghost)\b/);
  });

  it('the dark Sell button that failed is fixed', () => {
    expect(contrastRatio('#ffffff', '#ff8a80')).toBeLessThan(AA_TEXT);
    expect(contrastRatio(tokens.dark['--button-sell-text']!, tokens.dark['--button-sell-bg']!)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('computes WCAG ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#fff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#1976d2', '#ffffff')).toBeCloseTo(4.6, 1);
    // Why the SPEC's accents need text variants: on white they are below 4.5:1.
    expect(contrastRatio('#ef5350', '#ffffff')).toBeLessThan(AA_TEXT);
    expect(contrastRatio('#66cc66', '#ffffff')).toBeLessThan(AA_TEXT);
  });
});
