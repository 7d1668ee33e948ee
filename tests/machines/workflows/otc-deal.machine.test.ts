import { describe, expect, it } from 'vitest';
import { otcDealStatuses } from '../../../protocol/workflows.ts';
import { otcDealMachine } from '../../../machines/workflows/otc-deal.machine.ts';
import { applyWorkflowEvent, offeredActions, startWorkflow, statusOf, waitingOnOf } from '../../../machines/workflows/workflow-definitions.ts';
import { coverMachine } from '../coverage.ts';
import { actors, parties, samplesFor } from './actors.ts';

describe('otcDealMachine', () => {
  it('reaches every state and transition, and its states are the OTC statuses', () => {
    const report = coverMachine(otcDealMachine, {
      input: parties,
      samples: {
        activate: samplesFor('activate'),
        acceptActivation: samplesFor('acceptActivation'),
        delete: samplesFor('delete'),
        approve: samplesFor('approve'),
        reject: samplesFor('reject', true),
        expire: samplesFor('expire', false, { code: 'OTC_LIMIT_DATE_EXCEEDED' }),
        checksFailed: samplesFor('checksFailed', false, { code: 'OTC_PARTNER_INSUFFICIENT_FUNDS' }),
      },
    });
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.states.map((id) => id.replace('otcDeal.', '')).sort()).toEqual([...otcDealStatuses].sort());
  });

  it('offers each side only its own steps, and the administrator only approval', () => {
    let deal = startWorkflow('otc', parties);
    expect(offeredActions('otc', deal, actors.initiator)).toEqual(['activate', 'delete']);
    expect(offeredActions('otc', deal, actors.partner)).toEqual([]);
    expect(offeredActions('otc', deal, actors.terminal)).toEqual([]);
    expect(waitingOnOf(deal)).toBe('initiator');
    deal = applyWorkflowEvent('otc', deal, { type: 'activate', actor: actors.initiator })!;
    expect(offeredActions('otc', deal, actors.partner)).toEqual(['acceptActivation', 'reject']);
    expect(offeredActions('otc', deal, actors.administrator)).toEqual(['reject']);
    expect(offeredActions('otc', deal, actors.outsider)).toEqual([]);
    expect(waitingOnOf(deal)).toBe('partner');
    deal = applyWorkflowEvent('otc', deal, { type: 'acceptActivation', actor: actors.partner })!;
    expect(offeredActions('otc', deal, actors.administrator)).toEqual(['approve', 'reject']);
    expect(offeredActions('otc', deal, actors.initiator)).toEqual([]);
    expect(waitingOnOf(deal)).toBe('administrator');
    deal = applyWorkflowEvent('otc', deal, { type: 'approve', actor: actors.administrator })!;
    expect(statusOf(deal)).toBe('finalized');
    expect(waitingOnOf(deal)).toBe('none');
  });

  it('refuses a rejection without a reason and keeps the reason it is given', () => {
    const sent = applyWorkflowEvent('otc', startWorkflow('otc', parties), { type: 'activate', actor: actors.initiator })!;
    expect(applyWorkflowEvent('otc', sent, { type: 'reject', actor: actors.partner })).toBeNull();
    expect(applyWorkflowEvent('otc', sent, { type: 'reject', actor: actors.partner, reason: '   ' })).toBeNull();
    const rejected = applyWorkflowEvent('otc', sent, { type: 'reject', actor: actors.partner, reason: 'price too high' })!;
    expect(statusOf(rejected)).toBe('rejected');
    expect(rejected.context.lastReason).toBe('price too high');
  });

  it('lets only the system expire a deal or fail its checks', () => {
    const deal = startWorkflow('otc', parties);
    expect(applyWorkflowEvent('otc', deal, { type: 'expire', actor: actors.administrator, code: 'OTC_LIMIT_DATE_EXCEEDED' })).toBeNull();
    const expired = applyWorkflowEvent('otc', deal, { type: 'expire', actor: actors.system, code: 'OTC_LIMIT_DATE_EXCEEDED' })!;
    expect(statusOf(expired)).toBe('expired');
    expect(expired.context.lastReason).toBe('OTC_LIMIT_DATE_EXCEEDED');
  });
});
