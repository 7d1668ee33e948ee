export * from './error-codes.ts';
export * from './enums.ts';
export * from './decimal.ts';
export * from './destinations.ts';
export * from './auth.ts';
export * from './reference.ts';
export * from './market-data.ts';
export * from './orders.ts';
