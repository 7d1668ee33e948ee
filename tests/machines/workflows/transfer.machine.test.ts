import { describe, expect, it } from 'vitest';
import { transferStatuses } from '../../../protocol/workflows.ts';
import { transferMachine } from '../../../machines/workflows/transfer.machine.ts';
import { applyWorkflowEvent, offeredActions, startWorkflow, statusOf, waitingOnOf } from '../../../machines/workflows/workflow-definitions.ts';
import { coverMachine } from '../coverage.ts';
import { actors, parties, samplesFor } from './actors.ts';

describe('transferMachine', () => {
  it('reaches every state and transition, and its states are the transfer statuses', () => {
    const report = coverMachine(transferMachine, {
      input: parties,
      samples: {
        accept: samplesFor('accept'),
        cancel: samplesFor('cancel'),
        approve: samplesFor('approve'),
        approveWithoutChecks: samplesFor('approveWithoutChecks'),
        reject: samplesFor('reject', true),
        expire: samplesFor('expire', false, { code: 'TRANSFER_LIMIT_DATE_EXCEEDED' }),
        checksFailed: samplesFor('checksFailed', false, { code: 'TRANSFER_PARTNER_INSUFFICIENT_FUNDS' }),
        nonTransferable: samplesFor('nonTransferable', false, { code: 'TRANSFER_GAS_RELEASE' }),
      },
    });
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.states.map((id) => id.replace('transfer.', '')).sort()).toEqual([...transferStatuses].sort());
  });

  it('tells a partner\'s rejection from the operator\'s', () => {
    const requested = startWorkflow('transfer', parties);
    expect(statusOf(applyWorkflowEvent('transfer', requested, { type: 'reject', actor: actors.partner, reason: 'no' })!)).toBe('rejectedByPartner');
    expect(statusOf(applyWorkflowEvent('transfer', requested, { type: 'reject', actor: actors.administrator, reason: 'no' })!)).toBe('rejectedByOperator');
    expect(applyWorkflowEvent('transfer', requested, { type: 'reject', actor: actors.initiator, reason: 'no' })).toBeNull();
  });

  it('offers approval with and without checks to the administrator only, once the partner accepted', () => {
    let transfer = startWorkflow('transfer', parties);
    expect(waitingOnOf(transfer)).toBe('partner');
    expect(offeredActions('transfer', transfer, actors.initiator)).toEqual(['cancel']);
    expect(offeredActions('transfer', transfer, actors.partner)).toEqual(['accept', 'reject']);
    expect(offeredActions('transfer', transfer, actors.administrator)).toEqual(['reject']);
    transfer = applyWorkflowEvent('transfer', transfer, { type: 'accept', actor: actors.partner })!;
    expect(offeredActions('transfer', transfer, actors.administrator)).toEqual(['approve', 'approveWithoutChecks', 'reject']);
    expect(offeredActions('transfer', transfer, actors.partner)).toEqual([]);
    expect(offeredActions('transfer', transfer, actors.terminal)).toEqual([]);
    expect(statusOf(applyWorkflowEvent('transfer', transfer, { type: 'checksFailed', actor: actors.system, code: 'TRANSFER_NO_SESSION' })!)).toBe('failed');
  });
});
