/**
 * An OTC deal (SPEC §3, §4): registered by a broker for its own client with a partner client, sent to
 * the partner, accepted, then approved by the administrator; or rejected with a reason, deleted by its
 * initiator before the end, or expired when its limit date passes. State names are the statuses of
 * protocol/workflows.ts. The server's own checks (funds, the price band, active clients) run outside
 * the machine; their refusal at approval is the system's `checksFailed` (docs/workflows.md).
 */
import { assign, setup } from 'xstate';
import { reasonOf, sideGuards, type WorkflowContext, type WorkflowInput, type WorkflowSystemEvent, type WorkflowUserEvent } from './workflow-events.ts';

export type OtcDealEvent = WorkflowUserEvent<'activate' | 'acceptActivation' | 'delete' | 'approve' | 'reject'> | WorkflowSystemEvent;

export const otcDealMachine = setup({
  types: {
    context: {} as WorkflowContext,
    events: {} as OtcDealEvent,
    input: {} as WorkflowInput,
    tags: {} as 'waitsOnInitiator' | 'waitsOnPartner' | 'waitsOnAdministrator',
  },
  guards: sideGuards,
  actions: {
    recordReason: assign({ lastReason: ({ event }) => reasonOf(event) }),
  },
}).createMachine({
  id: 'otcDeal',
  context: ({ input }) => ({ initiatorClient: input.initiatorClient, partnerClient: input.partnerClient, lastReason: null }),
  initial: 'new',
  states: {
    new: {
      tags: ['waitsOnInitiator'],
      on: {
        activate: { guard: 'isInitiator', target: 'awaiting_partner_accept' },
        delete: { guard: 'isInitiator', target: 'deleted' },
        expire: { guard: 'isSystem', target: 'expired', actions: 'recordReason' },
      },
    },
    awaiting_partner_accept: {
      tags: ['waitsOnPartner'],
      on: {
        acceptActivation: { guard: 'isPartner', target: 'awaiting_admin_approval' },
        reject: [
          { guard: 'partnerRejectsWithReason', target: 'rejected', actions: 'recordReason' },
          { guard: 'administratorRejectsWithReason', target: 'rejected', actions: 'recordReason' },
        ],
        delete: { guard: 'isInitiator', target: 'deleted' },
        checksFailed: { guard: 'isSystem', target: 'rejected', actions: 'recordReason' },
        expire: { guard: 'isSystem', target: 'expired', actions: 'recordReason' },
      },
    },
    awaiting_admin_approval: {
      tags: ['waitsOnAdministrator'],
      on: {
        approve: { guard: 'isAdministrator', target: 'finalized' },
        reject: { guard: 'administratorRejectsWithReason', target: 'rejected', actions: 'recordReason' },
        checksFailed: { guard: 'isSystem', target: 'rejected', actions: 'recordReason' },
        expire: { guard: 'isSystem', target: 'expired', actions: 'recordReason' },
      },
    },
    finalized: { type: 'final' },
    rejected: { type: 'final' },
    expired: { type: 'final' },
    deleted: { type: 'final' },
  },
});
