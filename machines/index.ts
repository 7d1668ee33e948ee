export * from './auth.machine.ts';
export * from './connection.machine.ts';
export * from './session-phase.machine.ts';
export * from './order-ticket.machine.ts';
export * from './order-lifecycle.machine.ts';
export * from './workspace.machine.ts';
