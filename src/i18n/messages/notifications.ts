/** Messages of one feature (notifications); spread into en.ts and ro.ts. Same keys in both (the type enforces it). */
export const notificationsEn = {} as const satisfies Record<string, string>;

export const notificationsRo: Record<keyof typeof notificationsEn, string> = {};
