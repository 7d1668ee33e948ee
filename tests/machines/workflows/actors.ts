import type { EventObject } from 'xstate';
import { systemActor, type WorkflowActor } from '../../../machines/workflows/workflow-actor.ts';

/** The sides of every sample instance: A (the initiator's client) and B (the partner's). */
export const parties = { initiatorClient: 'A', partnerClient: 'B' };

export const actors = {
  initiator: { userId: 'broker-a', roles: ['broker'], scopes: ['trading:read', 'trading:write'], clientCodes: ['A'] },
  partner: { userId: 'broker-b', roles: ['broker'], scopes: ['trading:read', 'trading:write'], clientCodes: ['B'] },
  bothSides: { userId: 'agency-ab', roles: ['agency'], scopes: ['trading:read', 'trading:write'], clientCodes: ['A', 'B'] },
  outsider: { userId: 'broker-c', roles: ['broker'], scopes: ['trading:read', 'trading:write'], clientCodes: ['C'] },
  terminal: { userId: 'terminal-a', roles: ['terminal'], scopes: ['trading:read'], clientCodes: ['A'] },
  administrator: { userId: 'admin', roles: ['administrator'], scopes: ['admin', 'trading:read', 'workflows:approve'], clientCodes: [] },
  system: systemActor,
} satisfies Record<string, WorkflowActor>;

/** Sample events of a type for every actor, with and without a reason where one matters. */
export function samplesFor(type: string, withReason = false, extra: Record<string, unknown> = {}): EventObject[] {
  return Object.values(actors).flatMap((actor) => {
    const base = { type, actor, ...extra };
    return withReason ? [base, { ...base, reason: 'not agreed' }] : [base];
  });
}
