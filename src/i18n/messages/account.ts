/** Messages of one feature (account); spread into en.ts and ro.ts. Same keys in both (the type enforces it). */
export const accountEn = {} as const satisfies Record<string, string>;

export const accountRo: Record<keyof typeof accountEn, string> = {};
