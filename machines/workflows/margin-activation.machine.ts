/**
 * Margin exposure activation of a transaction (SPEC §4): a participant asks, the administrator approves
 * and the transaction's marginsExposureActive is set (clearing starts counting it). A rejection or the
 * requester's cancel puts it back to inactive, so it can be asked again; active is final.
 */
import { assign, setup } from 'xstate';
import { isAdministrator, isInitiatorSide, isPartnerSide } from './workflow-actor.ts';
import { reasonOf, type WorkflowContext, type WorkflowInput, type WorkflowUserEvent } from './workflow-events.ts';

export type MarginActivationEvent = WorkflowUserEvent<'activate' | 'approve' | 'reject' | 'cancel'>;

export const marginActivationMachine = setup({
  types: {
    context: {} as WorkflowContext,
    events: {} as MarginActivationEvent,
    input: {} as WorkflowInput,
    tags: {} as 'waitsOnInitiator' | 'waitsOnPartner' | 'waitsOnAdministrator',
  },
  guards: {
    isParticipant: ({ context, event }) => isInitiatorSide(event.actor, context) || isPartnerSide(event.actor, context),
    isAdministrator: ({ event }) => isAdministrator(event.actor),
    administratorRejectsWithReason: ({ event }) => isAdministrator(event.actor) && reasonOf(event) !== null,
  },
  actions: {
    recordReason: assign({ lastReason: ({ event }) => reasonOf(event) }),
    clearReason: assign({ lastReason: null }),
  },
}).createMachine({
  id: 'marginActivation',
  context: ({ input }) => ({ initiatorClient: input.initiatorClient, partnerClient: input.partnerClient, lastReason: null }),
  initial: 'inactive',
  states: {
    inactive: {
      on: { activate: { guard: 'isParticipant', target: 'awaitingApproval', actions: 'clearReason' } },
    },
    awaitingApproval: {
      tags: ['waitsOnAdministrator'],
      on: {
        approve: { guard: 'isAdministrator', target: 'active' },
        reject: { guard: 'administratorRejectsWithReason', target: 'inactive', actions: 'recordReason' },
        cancel: { guard: 'isParticipant', target: 'inactive' },
      },
    },
    active: { type: 'final' },
  },
});
