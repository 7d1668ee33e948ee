/**
 * Transfer of a transaction to the central counterparty (SPEC §4): a participant requests it, the other
 * participant accepts, the administrator approves (the server's checks run, then the transaction is
 * novated into the CCP market) or approves without checks. Outcomes are the states. A request the
 * server finds structurally impossible (gas release, no asset in the CCP market) is non-transferable at
 * once; checks that fail at approval, or the limit date passing, make it failed.
 */
import { assign, setup } from 'xstate';
import type { ErrorCode } from '../../protocol/error-codes.ts';
import type { WorkflowActor } from './workflow-actor.ts';
import { reasonOf, sideGuards, type WorkflowContext, type WorkflowInput, type WorkflowSystemEvent, type WorkflowUserEvent } from './workflow-events.ts';

export type TransferEvent =
  | WorkflowUserEvent<'cancel' | 'accept' | 'approve' | 'approveWithoutChecks' | 'reject'>
  | WorkflowSystemEvent
  /** The server found the request impossible (gas release, no twin asset in the CCP market). */
  | { type: 'nonTransferable'; actor: WorkflowActor; code: ErrorCode };

export const transferMachine = setup({
  types: {
    context: {} as WorkflowContext,
    events: {} as TransferEvent,
    input: {} as WorkflowInput,
    tags: {} as 'waitsOnInitiator' | 'waitsOnPartner' | 'waitsOnAdministrator',
  },
  guards: sideGuards,
  actions: {
    recordReason: assign({ lastReason: ({ event }) => reasonOf(event) }),
  },
}).createMachine({
  id: 'transfer',
  context: ({ input }) => ({ initiatorClient: input.initiatorClient, partnerClient: input.partnerClient, lastReason: null }),
  initial: 'awaitingPartnerAccept',
  states: {
    awaitingPartnerAccept: {
      tags: ['waitsOnPartner'],
      on: {
        accept: { guard: 'isPartner', target: 'awaitingAdminApproval' },
        reject: [
          { guard: 'partnerRejectsWithReason', target: 'rejectedByPartner', actions: 'recordReason' },
          { guard: 'administratorRejectsWithReason', target: 'rejectedByOperator', actions: 'recordReason' },
        ],
        cancel: { guard: 'isInitiator', target: 'cancelled' },
        nonTransferable: { guard: 'isSystem', target: 'nonTransferable', actions: 'recordReason' },
        expire: { guard: 'isSystem', target: 'failed', actions: 'recordReason' },
      },
    },
    awaitingAdminApproval: {
      tags: ['waitsOnAdministrator'],
      on: {
        approve: { guard: 'isAdministrator', target: 'finalized' },
        approveWithoutChecks: { guard: 'isAdministrator', target: 'finalized' },
        reject: { guard: 'administratorRejectsWithReason', target: 'rejectedByOperator', actions: 'recordReason' },
        cancel: { guard: 'isInitiator', target: 'cancelled' },
        checksFailed: { guard: 'isSystem', target: 'failed', actions: 'recordReason' },
        expire: { guard: 'isSystem', target: 'failed', actions: 'recordReason' },
      },
    },
    finalized: { type: 'final' },
    rejectedByOperator: { type: 'final' },
    rejectedByPartner: { type: 'final' },
    failed: { type: 'final' },
    nonTransferable: { type: 'final' },
    cancelled: { type: 'final' },
  },
});
