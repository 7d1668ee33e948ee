/** The operator's audited phase changes with a fake engine: the schedule's phase on resume, the refusals, the audit entries. */
import { describe, expect, it } from 'vitest';
import { ExchangeError, apiError, type AuditRecord, type SessionPhase } from '../../../protocol/index.ts';
import { MarketPhaseControl, scheduledPhaseAt } from '../../../server/operator/market-phases.ts';
import type { UserRecord } from '../../../server/store/users.repository.ts';
import { sessionTimetables } from '../../../server/trading/engine-setup.ts';

// 12:00 in Bucharest (UTC+2 in November): spot trades from 00:10 to 23:40.
const NOON = Date.parse('2026-11-27T10:00:00Z');
const admin = { id: 'u-admin', roles: ['administrator'] } as UserRecord;
const broker = { id: 'u-broker', roles: ['broker'] } as UserRecord;

describe('scheduledPhaseAt', () => {
  it("gives the timetable's phase in force and since when, across midnight, and null without timetables", () => {
    expect(scheduledPhaseAt(sessionTimetables, 'spot', NOON)).toEqual({ phase: 'trading', at: Date.parse('2026-11-26T22:10:00Z') });
    // 23:55 Bucharest: closed since 23:50.
    expect(scheduledPhaseAt(sessionTimetables, 'spot', Date.parse('2026-11-27T21:55:00Z'))).toEqual({ phase: 'closed', at: Date.parse('2026-11-27T21:50:00Z') });
    // 00:05 Bucharest: the opening auction of the new day.
    expect(scheduledPhaseAt(sessionTimetables, 'spot', Date.parse('2026-11-27T22:05:00Z'))).toEqual({ phase: 'opening', at: Date.parse('2026-11-27T22:00:00Z') });
    expect(scheduledPhaseAt(null, 'spot', NOON)).toBeNull();
  });
});

function rig(phase: SessionPhase) {
  let current = phase;
  const audit: AuditRecord[] = [];
  const commands: string[] = [];
  const control = new MarketPhaseControl({
    engine: { getMarketPhase: (id) => (id === 'M1' ? { phase: current, sessionDate: '2026-11-27' } : undefined), getPhase: () => current },
    trading: {
      async setPhase(_user, _marketId, command) {
        commands.push(command);
        if (command === 'suspend') current = 'suspended';
        else if (command === 'resume') current = 'opening';
        else current = command;
      },
    },
    audit: { record: async (entry) => void audit.push(entry) },
  });
  return { control, audit, commands, phase: () => current };
}

const request = { user: admin, remoteAddress: '10.0.0.1' };

describe('MarketPhaseControl', () => {
  it('suspends, then resumes to the phase before the suspension (the engine’s own resume), auditing both', async () => {
    const r = rig('opening');
    await r.control.suspend(request, 'M1');
    await r.control.resume(request, 'M1');
    expect(r.commands).toEqual(['suspend', 'resume']);
    expect(r.phase()).toBe('opening');
    expect(r.audit).toEqual([
      { category: 'operator', action: 'market.suspend', actorUserId: 'u-admin', actorRole: 'administrator', subject: 'market M1', outcome: 'ok', code: null, remoteAddress: '10.0.0.1', details: { marketId: 'M1', assetId: null, from: 'opening', to: 'suspended' } },
      { category: 'operator', action: 'market.resume', actorUserId: 'u-admin', actorRole: 'administrator', subject: 'market M1', outcome: 'ok', code: null, remoteAddress: '10.0.0.1', details: { marketId: 'M1', assetId: null, from: 'suspended', to: 'opening' } },
    ]);
  });


  it('refuses suspend of a suspended or closed market and resume of one not suspended, with MARKET_PHASE_CHANGE_NOT_ALLOWED, audited as refused', async () => {
    for (const [phase, action] of [['suspended', 'suspend'], ['closed', 'suspend'], ['trading', 'resume']] as const) {
      const r = rig(phase);
      const refusal = await r.control[action](request, 'M1').catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ExchangeError);
      expect(refusal).toMatchObject({ code: 'MARKET_PHASE_CHANGE_NOT_ALLOWED', params: { marketId: 'M1', phase } });
      expect(r.commands).toEqual([]);
      expect(r.audit).toEqual([expect.objectContaining({ action: `market.${action}`, outcome: 'refused', code: 'MARKET_PHASE_CHANGE_NOT_ALLOWED', details: expect.objectContaining({ from: phase, phase }) })]);
    }
  });

  it("audits the phase route's changes and its refusals by the engine; refuses a non-administrator without an operator entry", async () => {
    const r = rig('trading');
    await r.control.setPhase(request, 'M1', 'closing', null);
    expect(r.audit[0]).toMatchObject({ action: 'market.phase', outcome: 'ok', details: { marketId: 'M1', assetId: null, from: 'trading', to: 'closing' } });
    const refusing = rig('trading');
    refusing.control = new MarketPhaseControl({
      engine: { getMarketPhase: () => ({ phase: 'trading', sessionDate: '2026-11-27' }), getPhase: () => 'trading' },
      trading: { setPhase: async () => Promise.reject(new ExchangeError(apiError('SESSION_PHASE_FORBIDS', { phase: 'trading' }))) },
      audit: { record: async (entry) => void refusing.audit.push(entry) },
    });
    await expect(refusing.control.setPhase(request, 'M1', 'resume', 'A1')).rejects.toMatchObject({ code: 'SESSION_PHASE_FORBIDS' });
    expect(refusing.audit).toEqual([expect.objectContaining({ subject: 'asset A1', outcome: 'refused', code: 'SESSION_PHASE_FORBIDS', details: { marketId: 'M1', assetId: 'A1', from: 'trading', to: null, phase: 'trading' } })]);
    await expect(r.control.suspend({ user: broker, remoteAddress: null }, 'M1')).rejects.toMatchObject({ code: 'FORBIDDEN', params: { scope: 'administrator' } });
    expect(r.audit).toHaveLength(1);
  });
});
