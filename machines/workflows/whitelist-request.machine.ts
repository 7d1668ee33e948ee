/**
 * A whitelist request (SPEC §4, §5): a client asks a partner to ALLOW_TRADING (the partner approves or
 * rejects; the requester may cancel while it is PENDING). A DENY_TRADING request needs no consent: no one
 * can be made to keep trading with a counterparty, so the server approves it at once as the system.
 * The four request rules (one pending per partner, no existing partner added, no non-partner removed,
 * not the latest approved again) need the relation table and run in the server before the request exists.
 */
import { assign, setup } from 'xstate';
import { isInitiatorSide, isPartnerSide, isSystem } from './workflow-actor.ts';
import { reasonOf, type WorkflowContext, type WorkflowInput, type WorkflowUserEvent } from './workflow-events.ts';

export type WhitelistRequestEvent = WorkflowUserEvent<'approve' | 'reject' | 'cancel'> | { type: 'approveAtOnce'; actor: WorkflowUserEvent<string>['actor'] };

export const whitelistRequestMachine = setup({
  types: {
    context: {} as WorkflowContext,
    events: {} as WhitelistRequestEvent,
    input: {} as WorkflowInput,
    tags: {} as 'waitsOnInitiator' | 'waitsOnPartner' | 'waitsOnAdministrator',
  },
  guards: {
    isInitiator: ({ context, event }) => isInitiatorSide(event.actor, context),
    isPartner: ({ context, event }) => isPartnerSide(event.actor, context),
    isSystem: ({ event }) => isSystem(event.actor),
    partnerRejectsWithReason: ({ context, event }) => isPartnerSide(event.actor, context) && reasonOf(event) !== null,
  },
  actions: {
    recordReason: assign({ lastReason: ({ event }) => reasonOf(event) }),
  },
}).createMachine({
  id: 'whitelistRequest',
  context: ({ input }) => ({ initiatorClient: input.initiatorClient, partnerClient: input.partnerClient, lastReason: null }),
  initial: 'PENDING',
  states: {
    PENDING: {
      tags: ['waitsOnPartner'],
      on: {
        approve: { guard: 'isPartner', target: 'APPROVED' },
        approveAtOnce: { guard: 'isSystem', target: 'APPROVED' },
        reject: { guard: 'partnerRejectsWithReason', target: 'REJECTED', actions: 'recordReason' },
        cancel: { guard: 'isInitiator', target: 'CANCELLED' },
      },
    },
    APPROVED: { type: 'final' },
    REJECTED: { type: 'final' },
    CANCELLED: { type: 'final' },
  },
});
