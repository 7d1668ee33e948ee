export * from './connection.ts';
export * from './book.ts';
export * from './frame.ts';
export * from './market-data.ts';
export * from './orders.ts';
export * from './api.ts';
export * from './recorder.ts';
export * from './stomp-frames.ts';
