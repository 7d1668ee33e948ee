import { describe, expect, it } from 'vitest';
import { suspensionFree, suspensionRefusal } from '../../../../server/engine/rules/participant-suspension.ts';
import { ParticipantSuspensions } from '../../../../server/engine/state.ts';

const record = (kind: 'client' | 'broker', id: string) => ({ kind, id, at: 1, by: 'u-admin', reason: 'r' });

describe('rules/participant-suspension', () => {
  it('nobody suspended: free, no refusal', () => {
    const s = new ParticipantSuspensions();
    expect(suspensionFree(s)).toBe(true);
    expect(suspensionRefusal(s, 'C1', 'u-broker1')).toBeNull();
  });

  it('a suspended client is refused, naming its code; others pass', () => {
    const s = new ParticipantSuspensions();
    s.clients.set('C1', record('client', 'C1'));
    expect(suspensionFree(s)).toBe(false);
    expect(suspensionRefusal(s, 'C1', 'u-broker1')).toMatchObject({ result: 'PARTICIPANT_SUSPENDED', params: { participant: 'C1' }, events: [] });
    expect(suspensionRefusal(s, 'C2', 'u-broker1')).toBeNull();
  });

  it('a suspended broker is refused by user id, for any client; no user (the operator, a replayed legacy command) passes', () => {
    const s = new ParticipantSuspensions();
    s.brokers.set('u-broker1', record('broker', 'u-broker1'));
    expect(suspensionFree(s)).toBe(false);
    expect(suspensionRefusal(s, 'C2', 'u-broker1')).toMatchObject({ result: 'PARTICIPANT_SUSPENDED', params: { participant: 'u-broker1' } });
    expect(suspensionRefusal(s, 'C2', 'u-broker2')).toBeNull();
    expect(suspensionRefusal(s, 'C2', undefined)).toBeNull();
  });
});
