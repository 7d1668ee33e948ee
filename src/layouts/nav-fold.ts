/**
 * How many of the header's links fit in the bar, in order: all of them when they fit side by side,
 * else as many as leave room for the "more" button that lists the rest. Widths in px; `gap` is the
 * space between neighbours (links and the button).
 */
export function linksThatFit(widths: readonly number[], available: number, gap: number, moreWidth: number): number {
  // Half a pixel of slack: sub-pixel widths must not fold a link that is drawn whole.
  const room = available + 0.5;
  const span = (count: number) => widths.slice(0, count).reduce((sum, width) => sum + width, 0) + gap * Math.max(0, count - 1);
  if (span(widths.length) <= room) return widths.length;
  let count = widths.length - 1;
  while (count > 0 && span(count) + gap + moreWidth > room) count -= 1;
  return count;
}
