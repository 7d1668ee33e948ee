/** Reference data of the session: loaded once, kept; a failed load is kept as a refusal, and RETRY loads again. */
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { referenceMachine, referenceMachineWith, selectAssets, selectMarkets, type ReferenceData } from '../../machines/reference.machine.ts';
import { ApiCallError, NETWORK_ERROR } from '../../streams/api.ts';
import { coverMachine } from './coverage.ts';

const data: ReferenceData = {
  markets: [{ id: 'M1', name: 'Gas spot', names: { ro: 'Gaze naturale spot', en: 'Gas spot' }, commodity: 'gas', kind: 'spot', workspaceType: 'gas', currency: 'RON' }],
  rings: [],
  assets: [],
};

describe('referenceMachine', () => {
  it('reaches every state and every transition', () => {
    const report = coverMachine(referenceMachine, {
      samples: {
        RETRY: [{ type: 'RETRY' }],
        'xstate.done.actor.loadReference': [{ type: 'xstate.done.actor.loadReference', output: data }],
        'xstate.error.actor.loadReference': [{ type: 'xstate.error.actor.loadReference', error: new ApiCallError(NETWORK_ERROR) }],
      },
    });
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.transitions).toHaveLength(3);
  });

  it('keeps what it loaded', async () => {
    const actor = createActor(referenceMachineWith(async () => data)).start();
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(selectMarkets(actor.getSnapshot())).toBe(data.markets);
    expect(selectAssets(actor.getSnapshot())).toBe(data.assets);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('keeps a failed load as a refusal and loads again on RETRY', async () => {
    let calls = 0;
    const actor = createActor(
      referenceMachineWith(async () => {
        calls += 1;
        if (calls === 1) throw new ApiCallError(NETWORK_ERROR);
        return data;
      }),
    ).start();
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ code: NETWORK_ERROR, params: {} });
    expect(selectMarkets(actor.getSnapshot())).toEqual([]);
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context).toEqual({ data, error: null });
    expect(calls).toBe(2);
  });
});
