import { describe, expect, it } from 'vitest';
import { whitelistRequestStatuses } from '../../../protocol/enums.ts';
import { whitelistRequestMachine } from '../../../machines/workflows/whitelist-request.machine.ts';
import { applyWorkflowEvent, offeredActions, startWorkflow, statusOf } from '../../../machines/workflows/workflow-definitions.ts';
import { coverMachine } from '../coverage.ts';
import { actors, parties, samplesFor } from './actors.ts';

describe('whitelistRequestMachine', () => {
  it('reaches every state and transition, and its states are the request statuses', () => {
    const report = coverMachine(whitelistRequestMachine, {
      input: parties,
      samples: { approve: samplesFor('approve'), reject: samplesFor('reject', true), cancel: samplesFor('cancel'), approveAtOnce: samplesFor('approveAtOnce') },
    });
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.states.map((id) => id.replace('whitelistRequest.', '')).sort()).toEqual([...whitelistRequestStatuses].sort());
  });

  it('lets the partner decide and the initiator withdraw; the administrator has no part', () => {
    const pending = startWorkflow('whitelist', parties);
    expect(offeredActions('whitelist', pending, actors.partner)).toEqual(['approve', 'reject']);
    expect(offeredActions('whitelist', pending, actors.initiator)).toEqual(['cancel']);
    expect(offeredActions('whitelist', pending, actors.administrator)).toEqual([]);
    expect(offeredActions('whitelist', pending, actors.bothSides)).toEqual(['approve', 'reject', 'cancel']);
    expect(statusOf(applyWorkflowEvent('whitelist', pending, { type: 'approveAtOnce', actor: actors.system })!)).toBe('APPROVED');
    expect(applyWorkflowEvent('whitelist', pending, { type: 'approveAtOnce', actor: actors.partner })).toBeNull();
  });
});
