/** Connection machine: full coverage, then fed by a real connection over a fake STOMP server. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { connectionMachine, connectionMachineFor, connectionStateToEvent, isOnline } from '../../machines/connection.machine.ts';
import { createConnection } from '../../streams/connection.ts';
import { FakeStompServer, uniqueUrl } from '../streams/fake-stomp-server.ts';
import { coverMachine } from './coverage.ts';

describe('connectionMachine coverage', () => {
  it('reaches every state and every transition', () => {
    const report = coverMachine(connectionMachine, {
      samples: {
        CONNECTING: [{ type: 'CONNECTING', attempt: 0 }],
        CONNECTED: [{ type: 'CONNECTED', generation: 1 }],
        RECONNECTING: [{ type: 'RECONNECTING', attempt: 1, nextDelayMs: 250 }],
        OFFLINE: [{ type: 'OFFLINE', reason: 'gaveUp' }],
      },
    });
    expect(report.states).toEqual(['connection.connected', 'connection.connecting', 'connection.offline', 'connection.reconnecting']);
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.transitions).toHaveLength(4);
    expect(report.paths).toContainEqual(['RECONNECTING']);
  });
});

describe('connectionMachine fed by connectionState$', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('mirrors connecting, connected, reconnecting with attempt and delay, and offline', async () => {
    const url = uniqueUrl('cm');
    const server = new FakeStompServer(url);
    const connection = createConnection({
      url,
      getToken: () => 't',
      webSocketFactory: server.webSocketFactory,
      heartbeatMs: 0,
      backoff: { initialMs: 300, maxMs: 300, random: () => 0 },
    });
    const actor = createActor(connectionMachineFor(connection)).start();
    const values: string[] = [];
    actor.subscribe((s) => values.push(String(s.value)));
    expect(actor.getSnapshot().value).toBe('offline');
    connection.connect();
    expect(actor.getSnapshot().value).toBe('connecting');
    await vi.advanceTimersByTimeAsync(20);
    expect(actor.getSnapshot().value).toBe('connected');
    expect(isOnline(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ generation: 1, attempt: 0 });
    server.drop();
    await vi.advanceTimersByTimeAsync(10);
    expect(actor.getSnapshot().value).toBe('reconnecting');
    expect(actor.getSnapshot().context).toMatchObject({ attempt: 1, nextDelayMs: 300 });
    expect(isOnline(actor.getSnapshot())).toBe(false);
    await vi.advanceTimersByTimeAsync(320);
    expect(actor.getSnapshot().context).toMatchObject({ generation: 2, attempt: 0, nextDelayMs: null });
    const done = connection.disconnect();
    await vi.advanceTimersByTimeAsync(20);
    await done;
    expect(actor.getSnapshot().value).toBe('offline');
    expect(actor.getSnapshot().context.offlineReason).toBe('disconnected');
    expect(values).toEqual(['connecting', 'connected', 'reconnecting', 'connecting', 'connected', 'offline']);
    actor.stop();
    server.close();
  });

  it('maps every stream state to its event', () => {
    expect(connectionStateToEvent({ status: 'reconnecting', attempt: 3, nextDelayMs: 7 })).toEqual({ type: 'RECONNECTING', attempt: 3, nextDelayMs: 7 });
    expect(connectionStateToEvent({ status: 'offline', reason: 'idle' })).toEqual({ type: 'OFFLINE', reason: 'idle' });
    expect(connectionStateToEvent({ status: 'connected', generation: 4, heartbeatIncomingMs: 0, server: null })).toEqual({ type: 'CONNECTED', generation: 4 });
    expect(connectionStateToEvent({ status: 'connecting', attempt: 2 })).toEqual({ type: 'CONNECTING', attempt: 2 });
  });
});
