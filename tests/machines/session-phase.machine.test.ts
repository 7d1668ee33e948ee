/** Session phase machine: coverage, the permission table, and the phase stream feeding it. */
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { destinations } from '../../protocol/destinations.ts';
import { sessionPhases, type SessionPhase } from '../../protocol/enums.ts';
import type { PhaseUpdate } from '../../protocol/reference.ts';
import {
  orderActionTags,
  phasePermissions,
  phaseRefusal,
  sessionPhaseMachine,
  sessionPhaseMachineFor,
  sessionPhaseMachineFrom,
} from '../../machines/session-phase.machine.ts';
import { createConnection } from '../../streams/connection.ts';
import { FakeStompServer, uniqueUrl } from '../streams/fake-stomp-server.ts';
import { coverMachine } from './coverage.ts';

const at = '2026-01-01T09:00:00.000Z';
const phaseEvent = (phase: SessionPhase) => ({ type: 'PHASE' as const, phase, sessionDate: '2026-01-01', at, nextPhase: null, nextPhaseAt: null });
const update = (phase: SessionPhase, assetId: string | null = null, marketId = 'M1'): PhaseUpdate => ({ marketId, assetId, phase, sessionDate: '2026-01-01', at });

afterEach(() => {
  vi.useRealTimers();
});

describe('sessionPhaseMachine coverage', () => {
  it('reaches every state and every transition', () => {
    const report = coverMachine(sessionPhaseMachine, { input: { marketId: 'M1' }, samples: { PHASE: sessionPhases.map(phaseEvent) } });
    expect(report.states).toEqual(['sessionPhase.closed', 'sessionPhase.closing', 'sessionPhase.opening', 'sessionPhase.suspended', 'sessionPhase.trading', 'sessionPhase.unknown']);
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.transitions).toHaveLength(5);
  });
});

describe('what each phase allows', () => {
  it('matches the engine: opening and trading all, closing no place/price/activate, suspended and closed nothing', () => {
    const actor = createActor(sessionPhaseMachine, { input: { marketId: 'M1' } }).start();
    expect(phasePermissions(actor.getSnapshot())).toBeNull();
    const table: Record<string, string[]> = {};
    for (const phase of sessionPhases) {
      actor.send(phaseEvent(phase));
      const snapshot = actor.getSnapshot();
      expect(snapshot.value).toBe(phase);
      expect(snapshot.context.phase).toBe(phase);
      table[phase] = orderActionTags.filter((tag) => snapshot.hasTag(tag));
    }
    expect(table).toEqual({
      opening: ['canPlace', 'canModify', 'canChangePrice', 'canCancel', 'canSuspend', 'canActivate'],
      trading: ['canPlace', 'canModify', 'canChangePrice', 'canCancel', 'canSuspend', 'canActivate'],
      closing: ['canModify', 'canCancel', 'canSuspend'],
      suspended: [],
      closed: [],
    });
    actor.stop();
  });

  it('phaseRefusal gives the code the server would give', () => {
    const actor = createActor(sessionPhaseMachine, { input: { marketId: 'M1' } }).start();
    const permissionsIn = (phase: SessionPhase) => {
      actor.send(phaseEvent(phase));
      return phasePermissions(actor.getSnapshot());
    };
    expect(phaseRefusal(null, 'place')).toBeNull();
    expect(phaseRefusal(permissionsIn('opening'), 'place')).toBeNull();
    expect(phaseRefusal(permissionsIn('closing'), 'place')).toEqual({ code: 'SESSION_PHASE_FORBIDS', params: { phase: 'closing' } });
    expect(phaseRefusal(permissionsIn('closing'), 'modify', false)).toBeNull();
    expect(phaseRefusal(permissionsIn('closing'), 'modify', true)).toEqual({ code: 'SESSION_CLOSING_NO_PRICE_CHANGE', params: {} });
    expect(phaseRefusal(permissionsIn('closing'), 'cancel')).toBeNull();
    expect(phaseRefusal(permissionsIn('closing'), 'activate')).toEqual({ code: 'SESSION_PHASE_FORBIDS', params: { phase: 'closing' } });
    for (const action of ['place', 'modify', 'cancel', 'suspend', 'activate'] as const) {
      expect(phaseRefusal(permissionsIn('suspended'), action)).toEqual({ code: 'SESSION_SUSPENDED', params: {} });
      expect(phaseRefusal(permissionsIn('closed'), action)).toEqual({ code: 'SESSION_PHASE_FORBIDS', params: { phase: 'closed' } });
    }
    actor.stop();
  });
});

describe('fed by the phase stream', () => {
  it("a market machine takes only its market-level updates; an asset machine its market's and then its own, which win", () => {
    const updates = new Subject<PhaseUpdate>();
    const market = createActor(sessionPhaseMachineFrom(updates), { input: { marketId: 'M1' } }).start();
    const asset = createActor(sessionPhaseMachineFrom(updates), { input: { marketId: 'M1', assetId: 'A1' } }).start();
    // On subscribe the server sends the market's phase and only the assets that differ from it.
    updates.next(update('trading'));
    updates.next(update('suspended', null, 'M2'));
    expect(market.getSnapshot().value).toBe('trading');
    expect(asset.getSnapshot().value).toBe('trading');
    // The operator suspends the asset alone; another asset's update is not ours.
    updates.next(update('suspended', 'A1'));
    updates.next(update('closed', 'A2'));
    expect(market.getSnapshot().value).toBe('trading');
    expect(asset.getSnapshot().value).toBe('suspended');
    updates.next(update('trading', 'A1'));
    // A market change comes first, then the asset changes it causes.
    updates.next(update('closing'));
    updates.next(update('closing', 'A1'));
    expect(market.getSnapshot().value).toBe('closing');
    expect(asset.getSnapshot().value).toBe('closing');
    updates.next(update('closed'));
    updates.next(update('closed', 'A1'));
    expect(asset.getSnapshot().value).toBe('closed');
    expect(asset.getSnapshot().context).toMatchObject({ marketId: 'M1', assetId: 'A1', phase: 'closed', since: at });
    // Reconnected while the asset was apart: the market's phase, then the asset's that differs.
    updates.next(update('trading'));
    updates.next(update('suspended', 'A1'));
    expect(market.getSnapshot().value).toBe('trading');
    expect(asset.getSnapshot().value).toBe('suspended');
    market.stop();
    asset.stop();
  });

  it("keeps the market's next scheduled phase from each update, and forgets it when an update has none", () => {
    const updates = new Subject<PhaseUpdate>();
    const asset = createActor(sessionPhaseMachineFrom(updates), { input: { marketId: 'M1', assetId: 'A1' } }).start();
    updates.next({ ...update('trading'), nextPhase: 'closing', nextPhaseAt: '2026-01-01T21:40:00.000Z' });
    expect(asset.getSnapshot().context).toMatchObject({ phase: 'trading', nextPhase: 'closing', nextPhaseAt: '2026-01-01T21:40:00.000Z' });
    // An asset-level update carries the market's schedule too.
    updates.next({ ...update('suspended', 'A1'), nextPhase: 'closing', nextPhaseAt: '2026-01-01T21:40:00.000Z' });
    expect(asset.getSnapshot().context).toMatchObject({ phase: 'suspended', nextPhase: 'closing' });
    // A server without a schedule (or an older payload) leaves no stale countdown behind.
    updates.next(update('closing'));
    expect(asset.getSnapshot().context).toMatchObject({ phase: 'closing', nextPhase: null, nextPhaseAt: null });
    asset.stop();
  });

  it('subscribes to /topic/phase.<market> over the connection', async () => {
    vi.useFakeTimers();
    const url = uniqueUrl('phase');
    const server = new FakeStompServer(url);
    const connection = createConnection({ url, getToken: () => 't', webSocketFactory: server.webSocketFactory, heartbeatMs: 0, backoff: { initialMs: 10, maxMs: 10 } });
    const actor = createActor(sessionPhaseMachineFor(connection), { input: { marketId: 'M1' } }).start();
    connection.connect();
    await vi.advanceTimersByTimeAsync(20);
    expect(server.subscribeCount(destinations.phase('M1'))).toBe(1);
    server.publish(destinations.phase('M1'), update('opening'));
    expect(actor.getSnapshot().value).toBe('opening');
    server.publish(destinations.phase('M1'), update('suspended'));
    expect(actor.getSnapshot().value).toBe('suspended');
    expect(phasePermissions(actor.getSnapshot())).toMatchObject({ phase: 'suspended', canPlace: false, canCancel: false });
    actor.stop();
    await vi.advanceTimersByTimeAsync(20);
    expect(server.frames('UNSUBSCRIBE')).toHaveLength(1);
    const done = connection.disconnect();
    await vi.advanceTimersByTimeAsync(20);
    await done;
    server.close();
  });
});
