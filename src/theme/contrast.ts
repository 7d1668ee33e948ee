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
