import { describe, expect, it } from 'vitest';
import { sessionPhases } from '../../protocol/enums.ts';
import { allowedActions, phaseAllows, phaseRefusalOf } from '../../protocol/phase-actions.ts';

describe('phase-to-action table', () => {
  it('allows every order action in trading and none while suspended or closed', () => {
    expect(allowedActions('trading')).toEqual(['place', 'placeImmediate', 'modify', 'changePrice', 'cancel', 'suspend', 'activate', 'matching']);
    expect(allowedActions('suspended')).toEqual([]);
    expect(allowedActions('closed')).toEqual([]);
  });

  it('lets closing modify and cancel but not place, change a price or activate', () => {
    expect(allowedActions('closing')).toEqual(['modify', 'cancel', 'suspend']);
    expect(phaseRefusalOf('closing', 'changePrice')).toEqual({ code: 'SESSION_CLOSING_NO_PRICE_CHANGE', params: {} });
    expect(phaseRefusalOf('closing', 'place')).toEqual({ code: 'SESSION_PHASE_FORBIDS', params: { phase: 'closing' } });
  });

  it('refuses immediate orders in the opening (no matching before trading)', () => {
    expect(phaseRefusalOf('opening', 'placeImmediate')).toEqual({ code: 'SESSION_PHASE_FORBIDS', params: { phase: 'opening' } });
    expect(phaseAllows.opening.matching).toBe(false);
  });

  it('answers SESSION_SUSPENDED for every action while suspended', () => {
    for (const action of ['place', 'modify', 'cancel', 'activate'] as const) expect(phaseRefusalOf('suspended', action)?.code).toBe('SESSION_SUSPENDED');
  });

  it('gives a refusal exactly where the table says no', () => {
    for (const phase of sessionPhases) {
      for (const [action, allowed] of Object.entries(phaseAllows[phase])) {
        expect(phaseRefusalOf(phase, action as keyof (typeof phaseAllows)['trading']) === null).toBe(allowed);
      }
    }
  });
});
