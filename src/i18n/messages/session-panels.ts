/** Messages of one feature (session-panels); spread into en.ts and ro.ts. Same keys in both (the type enforces it). */
export const sessionPanelsEn = {} as const satisfies Record<string, string>;

export const sessionPanelsRo: Record<keyof typeof sessionPanelsEn, string> = {};
