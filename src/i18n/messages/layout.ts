/**
 * Messages of the page frame (header folding) and of the common form parts (the date field);
 * spread into en.ts and ro.ts. Same keys in both.
 */
export const layoutEn = {
  'nav.more': 'More',
  'dateField.format': 'Format: {format}',
  'dateField.calendar': 'Calendar: {label}',
  'dateField.impossible': 'There is no such date. Write it as {format}.',
  'dateField.incomplete': 'Write the date as {format}.',
} as const;

export const layoutRo: Record<keyof typeof layoutEn, string> = {
  'nav.more': 'Mai multe',
  'dateField.format': 'Format: {format}',
  'dateField.calendar': 'Calendar: {label}',
  'dateField.impossible': 'Această dată nu există. Scrieți-o ca {format}.',
  'dateField.incomplete': 'Scrieți data ca {format}.',
};
