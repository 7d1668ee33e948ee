/** WCAG 2.x contrast of two sRGB colours (#rgb or #rrggbb): 1 to 21. */
export function relativeLuminance(hex: string): number {
  const clean = hex.replace('#', '');
  const full = clean.length === 3 ? [...clean].map((c) => c + c).join('') : clean;
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new Error(`not a hex colour: ${hex}`);
  const channel = (offset: number) => {
    const value = parseInt(full.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

export function contrastRatio(foreground: string, background: string): number {
  const a = relativeLuminance(foreground);
  const b = relativeLuminance(background);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** WCAG AA for normal text. */
export const AA_TEXT = 4.5;

/**
 * Every pair of tokens the stylesheet draws text with: [text token, background token].
 * Keep this list in step with styles.css when a new combination appears.
 */
export const textTokenPairs: ReadonlyArray<readonly [string, string]> = [
  ['--color-text', '--color-background'],
  ['--color-text', '--color-surface'],
  ['--color-text', '--color-surface-2'],
  ['--color-text-muted', '--color-background'],
  ['--color-text-muted', '--color-surface'],
  ['--color-text-muted', '--color-surface-2'],
  ['--color-header-text', '--color-header-bg'],
  ['--color-text-muted', '--color-header-bg'],
  ['--color-primary-text', '--color-header-bg'],
  ['--color-error-text', '--color-header-bg'],
  ['--color-text', '--color-primary-soft'],
  ['--color-primary-text', '--color-surface'],
  ['--color-primary-text', '--color-background'],
  ['--color-primary-text', '--color-primary-soft'],
  ['--color-primary-contrast', '--color-primary'],
  ['--color-primary-contrast', '--color-primary-hover'],
  ['--color-error-text', '--color-surface'],
  ['--color-error-text', '--color-error-soft'],
  ['--color-success-text', '--color-surface'],
  ['--color-success-text', '--color-success-soft'],
  ['--color-warning-text', '--color-surface'],
  ['--color-warning-text', '--color-warning-soft'],
];

export type ButtonName = 'primary' | 'secondary' | 'danger' | 'buy' | 'sell' | 'ghost';

/** One look of a button: its text token over its background token (or the surfaces a transparent one sits on). */
export interface ButtonLook {
  /** The rule in styles.css that draws it. */
  selector: string;
  text: string;
  /** The background token; null for a transparent button, read against `over`. */
  background: string | null;
  over?: readonly string[];
}

/**
 * Every button variant of styles.css, at rest and hovered (disabled buttons are exempt from WCAG
 * contrast). The contrast test checks each in both themes and that styles.css draws it with these
 * tokens, so a colour changed in either place is checked.
 */
export const buttonLooks: Record<ButtonName, readonly ButtonLook[]> = {
  primary: [
    { selector: '.button-primary', text: '--color-primary-contrast', background: '--color-primary' },
    { selector: '.button-primary:hover:not(:disabled)', text: '--color-primary-contrast', background: '--color-primary-hover' },
  ],
  secondary: [
    { selector: '.button-secondary', text: '--color-text', background: '--color-surface' },
    { selector: '.button-secondary:hover:not(:disabled)', text: '--color-text', background: '--color-surface-2' },
  ],
  danger: [
    { selector: '.button-danger', text: '--button-danger-text', background: '--button-danger-bg' },
    { selector: '.button-danger:hover:not(:disabled)', text: '--button-danger-text', background: '--button-danger-hover-bg' },
  ],
  buy: [
    { selector: '.button-bid', text: '--button-buy-text', background: '--button-buy-bg' },
    { selector: '.button-bid:hover:not(:disabled)', text: '--button-buy-text', background: '--button-buy-hover-bg' },
  ],
  sell: [
    { selector: '.button-ask', text: '--button-sell-text', background: '--button-sell-bg' },
    { selector: '.button-ask:hover:not(:disabled)', text: '--button-sell-text', background: '--button-sell-hover-bg' },
  ],
  ghost: [
    { selector: '.button-ghost', text: '--color-text-muted', background: null, over: ['--color-background', '--color-surface', '--color-surface-2', '--color-header-bg'] },
    { selector: '.button-ghost:hover', text: '--color-text', background: '--color-surface-2' },
  ],
};
