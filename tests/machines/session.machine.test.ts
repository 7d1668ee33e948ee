/** The root session machine: its children at start, one shared phase actor per market or asset. */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { referenceMachineWith } from '../../machines/reference.machine.ts';

import { myOrdersMachineFrom, selectOpenOrders } from '../../machines/my-orders.machine.ts';
import { sessionPhaseMachineFrom } from '../../machines/session-phase.machine.ts';
import { phaseKey, sessionMachine, watchPhase } from '../../machines/session.machine.ts';
import type { OrderUpdate } from '../../protocol/market-data.ts';
import type { PhaseUpdate } from '../../protocol/reference.ts';
import { wireOrder } from '../helpers/wire-order.ts';
import { coverMachine } from './coverage.ts';

const at = '2026-01-01T09:00:00.000Z';

function started() {
  const orders = new Subject<OrderUpdate>();
  const phases = new Subject<PhaseUpdate>();
  const machine = sessionMachine.provide({
    actors: { myOrders: myOrdersMachineFrom(orders), phase: sessionPhaseMachineFrom(phases) },
  });
  return { session: createActor(machine).start(), orders, phases };
}

describe('sessionMachine', () => {
  it('covers its one transition', () => {
    const report = coverMachine(sessionMachine, { samples: { WATCH_PHASE: [{ type: 'WATCH_PHASE', marketId: 'M1' }] } });
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
  });

  it('starts with the connection and my orders, fed by the streams it is given', () => {
    const { session, orders } = started();
    const { connection, myOrders } = session.getSnapshot().context;
    expect(connection.getSnapshot().value).toBeDefined();
    orders.next({ seq: 4, order: wireOrder({ status: 'tradedPartially', tradedQty: 10 }) });
    expect(selectOpenOrders(myOrders.getSnapshot()).map((entry) => entry.order.status)).toEqual(['tradedPartially']);
    session.stop();
  });

  it('spawns one phase actor per market or asset, shared by whoever asks again', () => {
    const { session, phases } = started();
    const market = watchPhase(session, 'M1');
    const asset = watchPhase(session, 'M1', 'A1');
    expect(watchPhase(session, 'M1')).toBe(market);
    expect(asset).not.toBe(market);
    expect(Object.keys(session.getSnapshot().context.phases).sort()).toEqual([phaseKey('M1'), phaseKey('M1', 'A1')].sort());
    phases.next({ marketId: 'M1', assetId: null, phase: 'trading', sessionDate: '2026-01-01', at });
    phases.next({ marketId: 'M1', assetId: 'A1', phase: 'suspended', sessionDate: '2026-01-01', at });
    expect(market.getSnapshot().context.phase).toBe('trading');
    expect(asset.getSnapshot().context.phase).toBe('suspended');
    session.stop();
    expect(market.getSnapshot().status).toBe('stopped');
  });
});


describe('sessionMachine reference data', () => {
  it('loads the session reference once, with its state', async () => {
    const reference = { markets: [], rings: [], assets: [] };
    let loads = 0;
    const session = createActor(
      sessionMachine.provide({
        actors: {
          reference: referenceMachineWith(async () => {
            loads += 1;
            return reference;
          }),
        },
      }),
    ).start();
    const actor = session.getSnapshot().context.reference;
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.data).toBe(reference);
    expect(loads).toBe(1);
    session.stop();
  });
});
