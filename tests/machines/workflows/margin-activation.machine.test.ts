import { describe, expect, it } from 'vitest';
import { marginActivationStatuses } from '../../../protocol/workflows.ts';
import { marginActivationMachine } from '../../../machines/workflows/margin-activation.machine.ts';
import { applyWorkflowEvent, offeredActions, startWorkflow, statusOf } from '../../../machines/workflows/workflow-definitions.ts';
import { coverMachine } from '../coverage.ts';
import { actors, parties, samplesFor } from './actors.ts';

describe('marginActivationMachine', () => {
  it('reaches every state and transition, and its states are the activation statuses', () => {
    const report = coverMachine(marginActivationMachine, {
      input: parties,
      samples: { activate: samplesFor('activate'), approve: samplesFor('approve'), reject: samplesFor('reject', true), cancel: samplesFor('cancel') },
    });
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.states.map((id) => id.replace('marginActivation.', '')).sort()).toEqual([...marginActivationStatuses].sort());
  });

  it('lets either participant ask, the administrator approve, and a rejection go back to inactive', () => {
    let activation = startWorkflow('marginActivation', parties);
    expect(offeredActions('marginActivation', activation, actors.partner)).toEqual(['activate']);
    expect(offeredActions('marginActivation', activation, actors.administrator)).toEqual([]);
    activation = applyWorkflowEvent('marginActivation', activation, { type: 'activate', actor: actors.partner })!;
    expect(offeredActions('marginActivation', activation, actors.administrator)).toEqual(['approve', 'reject']);
    expect(offeredActions('marginActivation', activation, actors.initiator)).toEqual(['cancel']);
    const rejected = applyWorkflowEvent('marginActivation', activation, { type: 'reject', actor: actors.administrator, reason: 'no collateral' })!;
    expect(statusOf(rejected)).toBe('inactive');
    expect(rejected.context.lastReason).toBe('no collateral');
    expect(statusOf(applyWorkflowEvent('marginActivation', activation, { type: 'approve', actor: actors.administrator })!)).toBe('active');
  });
});
