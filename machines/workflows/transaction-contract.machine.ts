/**
 * A transaction's contract (SPEC §4): NOT_INITIALIZED until a participant uploads the PDF, then the
 * other participant accepts, then the administrator approves. The other participant or the
 * administrator may reject with a reason: the file is discarded and the contract is NOT_INITIALIZED
 * again, so a corrected one can be uploaded (one contract per transaction).
 */
import { assign, setup } from 'xstate';
import { isAdministrator, isInitiatorSide, isPartnerSide, type WorkflowActor } from './workflow-actor.ts';
import { reasonOf, type WorkflowInput, type WorkflowUserEvent } from './workflow-events.ts';

export type TransactionContractEvent = WorkflowUserEvent<'upload' | 'accept' | 'approve' | 'reject'>;

/** The two participants of the transaction, and which of them uploaded (the other one accepts). */
export interface TransactionContractContext {
  initiatorClient: string;
  partnerClient: string;
  /** The client the uploader acted for; null before an upload. */
  uploaderClient: string | null;
  lastReason: string | null;
}

/** The participant's client the actor acts for, the uploader's side first when it holds both. */
function sideOf(actor: WorkflowActor, context: TransactionContractContext): string | null {
  if (isInitiatorSide(actor, context)) return context.initiatorClient;
  if (isPartnerSide(actor, context)) return context.partnerClient;
  return null;
}

/** The participant who did not upload. */
function isCounterparty(actor: WorkflowActor, context: TransactionContractContext): boolean {
  if (context.uploaderClient === null) return false;
  const other = context.uploaderClient === context.initiatorClient ? context.partnerClient : context.initiatorClient;
  return actor.userId !== null && (other === context.initiatorClient ? isInitiatorSide(actor, context) : isPartnerSide(actor, context));
}

export const transactionContractMachine = setup({
  types: {
    context: {} as TransactionContractContext,
    events: {} as TransactionContractEvent,
    input: {} as { initiatorClient: string; partnerClient: string },
    tags: {} as 'waitsOnInitiator' | 'waitsOnPartner' | 'waitsOnAdministrator',
  },
  guards: {
    isParticipant: ({ context, event }) => sideOf(event.actor, context) !== null,
    isCounterparty: ({ context, event }) => isCounterparty(event.actor, context),
    isAdministrator: ({ event }) => isAdministrator(event.actor),
    counterpartyRejectsWithReason: ({ context, event }) => isCounterparty(event.actor, context) && reasonOf(event) !== null,
    administratorRejectsWithReason: ({ event }) => isAdministrator(event.actor) && reasonOf(event) !== null,
  },
  actions: {
    recordUploader: assign({ uploaderClient: ({ context, event }) => sideOf(event.actor, context), lastReason: null }),
    recordReason: assign({ lastReason: ({ event }) => reasonOf(event), uploaderClient: null }),
  },
}).createMachine({
  id: 'transactionContract',
  context: ({ input }: { input: WorkflowInput }) => ({ initiatorClient: input.initiatorClient, partnerClient: input.partnerClient, uploaderClient: null, lastReason: null }),
  initial: 'NOT_INITIALIZED',
  states: {
    NOT_INITIALIZED: {
      on: { upload: { guard: 'isParticipant', target: 'AWAITING_PARTNER_ACCEPT', actions: 'recordUploader' } },
    },
    AWAITING_PARTNER_ACCEPT: {
      tags: ['waitsOnPartner'],
      on: {
        accept: { guard: 'isCounterparty', target: 'AWAITING_ADMIN_APPROVAL' },
        reject: [
          { guard: 'counterpartyRejectsWithReason', target: 'NOT_INITIALIZED', actions: 'recordReason' },
          { guard: 'administratorRejectsWithReason', target: 'NOT_INITIALIZED', actions: 'recordReason' },
        ],
      },
    },
    AWAITING_ADMIN_APPROVAL: {
      tags: ['waitsOnAdministrator'],
      on: {
        approve: { guard: 'isAdministrator', target: 'FINALIZED' },
        reject: { guard: 'administratorRejectsWithReason', target: 'NOT_INITIALIZED', actions: 'recordReason' },
      },
    },
    FINALIZED: { type: 'final' },
  },
});
