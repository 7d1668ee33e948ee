import { describe, expect, it } from 'vitest';
import { linksThatFit } from '../../../src/layouts/nav-fold.ts';

// Widths of the signed-in links in Romanian (px): Spațiu de lucru, Cont de tranzacționare, Contul meu, API.
const ro = [132, 186, 101, 44];
const all = 132 + 186 + 101 + 44 + 3 * 4; // 475 with three 4 px gaps

describe('linksThatFit', () => {
  it('keeps every link when they fit side by side, without room kept for the menu button', () => {
    expect(linksThatFit(ro, all, 4, 32)).toBe(4);
    expect(linksThatFit(ro, 2000, 4, 32)).toBe(4);
  });

  it('does not fold a link over a sub-pixel difference', () => {
    expect(linksThatFit(ro, all - 0.4, 4, 32)).toBe(4);
    expect(linksThatFit(ro, all - 1, 4, 32)).toBe(3);
  });

  it('folds from the end, leaving room for the menu button', () => {
    // Three links and the button: 132 + 186 + 101 + 2 gaps + gap + 32 = 463.
    expect(linksThatFit(ro, 463, 4, 32)).toBe(3);
    expect(linksThatFit(ro, 462, 4, 32)).toBe(2);
    expect(linksThatFit(ro, 132 + 4 + 32, 4, 32)).toBe(1);
  });

  it('folds everything when not even one link fits beside the button', () => {
    expect(linksThatFit(ro, 100, 4, 32)).toBe(0);
    expect(linksThatFit(ro, 0, 4, 32)).toBe(0);
    expect(linksThatFit([], 0, 4, 32)).toBe(0);
  });
});
