import { describe, expect, it } from 'vitest';
import { contractStatuses } from '../../../protocol/enums.ts';
import { transactionContractMachine } from '../../../machines/workflows/transaction-contract.machine.ts';
import { applyWorkflowEvent, offeredActions, startWorkflow, statusOf, storeWorkflow, restoreWorkflow } from '../../../machines/workflows/workflow-definitions.ts';
import { coverMachine } from '../coverage.ts';
import { actors, parties, samplesFor } from './actors.ts';

describe('transactionContractMachine', () => {
  it('reaches every state and transition, and its states are the contract statuses', () => {
    const report = coverMachine(transactionContractMachine, {
      input: parties,
      samples: { upload: samplesFor('upload'), accept: samplesFor('accept'), approve: samplesFor('approve'), reject: samplesFor('reject', true) },
    });
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.states.map((id) => id.replace('transactionContract.', '')).sort()).toEqual([...contractStatuses].sort());
  });

  it('asks the participant who did not upload to accept, whichever side uploaded', () => {
    for (const [uploader, other] of [
      [actors.initiator, actors.partner],
      [actors.partner, actors.initiator],
    ] as const) {
      const uploaded = applyWorkflowEvent('contract', startWorkflow('contract', parties), { type: 'upload', actor: uploader })!;
      expect(statusOf(uploaded)).toBe('AWAITING_PARTNER_ACCEPT');
      expect(offeredActions('contract', uploaded, other)).toEqual(['accept', 'reject']);
      expect(offeredActions('contract', uploaded, uploader)).toEqual([]);
      expect(offeredActions('contract', uploaded, actors.outsider)).toEqual([]);
    }
  });

  it('survives a store and restore, and a rejection lets a new contract be uploaded', () => {
    const uploaded = applyWorkflowEvent('contract', startWorkflow('contract', parties), { type: 'upload', actor: actors.partner })!;
    const restored = restoreWorkflow('contract', JSON.parse(JSON.stringify(storeWorkflow(uploaded))));
    const accepted = applyWorkflowEvent('contract', restored, { type: 'accept', actor: actors.initiator })!;
    expect(offeredActions('contract', accepted, actors.administrator)).toEqual(['approve', 'reject']);
    const rejected = applyWorkflowEvent('contract', accepted, { type: 'reject', actor: actors.administrator, reason: 'unsigned' })!;
    expect(statusOf(rejected)).toBe('NOT_INITIALIZED');
    expect(rejected.context).toMatchObject({ uploaderClient: null, lastReason: 'unsigned' });
    expect(applyWorkflowEvent('contract', rejected, { type: 'upload', actor: actors.initiator })).not.toBeNull();
  });
});
