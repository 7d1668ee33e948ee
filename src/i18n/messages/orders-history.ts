/** Messages of one feature (orders-history); spread into en.ts and ro.ts. Same keys in both (the type enforces it). */
export const ordersHistoryEn = {} as const satisfies Record<string, string>;

export const ordersHistoryRo: Record<keyof typeof ordersHistoryEn, string> = {};
