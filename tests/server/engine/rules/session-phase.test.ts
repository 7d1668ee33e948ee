import { describe, expect, it } from 'vitest';
import { phaseActions, phaseAllows } from '../../../../protocol/phase-actions.ts';
import type { SessionPhase } from '../../../../protocol/enums.ts';
import { phaseAllowsAction, phaseRefusal } from '../../../../server/engine/rules/session-phase.ts';

const phases: SessionPhase[] = ['opening', 'trading', 'closing', 'suspended', 'closed'];

describe('rules/session-phase', () => {
  it('allows exactly what protocol/phase-actions.ts allows', () => {
    for (const phase of phases) {
      for (const action of phaseActions) {
        expect(phaseAllowsAction(phase, action), `${phase} ${action}`).toBe(phaseAllows[phase][action]);
        expect(phaseRefusal(phase, action) === null, `${phase} ${action}`).toBe(phaseAllows[phase][action]);
      }
    }
  });

  it('places in opening and trading; immediate orders and matching in trading only', () => {
    expect(phaseRefusal('opening', 'place')).toBeNull();
    expect(phaseRefusal('opening', 'placeImmediate')).toMatchObject({ result: 'SESSION_PHASE_FORBIDS', params: { phase: 'opening' } });
    expect(phaseRefusal('closing', 'place')).toMatchObject({ result: 'SESSION_PHASE_FORBIDS', params: { phase: 'closing' } });
    expect(phaseAllowsAction('trading', 'matching')).toBe(true);
    expect(phaseAllowsAction('opening', 'matching')).toBe(false);
  });

  it('suspended refuses as suspended; a price change in closing has its own code', () => {
    expect(phaseRefusal('suspended', 'cancel')).toMatchObject({ result: 'SESSION_SUSPENDED', params: {} });
    expect(phaseRefusal('closing', 'changePrice')).toMatchObject({ result: 'SESSION_CLOSING_NO_PRICE_CHANGE', params: {} });
    expect(phaseRefusal('closing', 'modify')).toBeNull();
    expect(phaseRefusal('closed', 'modify')).toMatchObject({ result: 'SESSION_PHASE_FORBIDS', params: { phase: 'closed' } });
  });
});
