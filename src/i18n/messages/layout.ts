/** Messages of the page frame (header folding); spread into en.ts and ro.ts. Same keys in both. */
export const layoutEn = {
  'nav.more': 'More',
} as const;

export const layoutRo: Record<keyof typeof layoutEn, string> = {
  'nav.more': 'Mai multe',
};
