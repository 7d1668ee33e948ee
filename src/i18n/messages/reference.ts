/** Labels of reference data codes (asset types); spread into en.ts and ro.ts. Same keys in both (the type enforces it). */
export const referenceEn = {
  'reference.assetType.hour': 'Hour',
  'reference.assetType.day': 'Day',
  'reference.assetType.week': 'Week',
  'reference.assetType.month': 'Month',
  'reference.assetType.quarter': 'Quarter',
  'reference.assetType.year': 'Year',
} as const satisfies Record<string, string>;

export const referenceRo: Record<keyof typeof referenceEn, string> = {
  'reference.assetType.hour': 'Oră',
  'reference.assetType.day': 'Zi',
  'reference.assetType.week': 'Săptămână',
  'reference.assetType.month': 'Lună',
  'reference.assetType.quarter': 'Trimestru',
  'reference.assetType.year': 'An',
};
