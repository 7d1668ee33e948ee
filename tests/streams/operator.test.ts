/** The operator stream: typed snapshots from /user/queue/operator, one subscription however many watch, the latest replayed, bad payloads dropped. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { destinations } from '../../protocol/destinations.ts';
import type { OperatorSnapshot } from '../../protocol/operator.ts';
import { createConnection, type Connection, type StreamError } from '../../streams/connection.ts';
import { operator$ } from '../../streams/operator.ts';
import { FakeStompServer, uniqueUrl } from './fake-stomp-server.ts';

const tick = async (ms = 20): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};

let server: FakeStompServer;
let connection: Connection;
let errors: StreamError[];

beforeEach(() => {
  vi.useFakeTimers();
  const url = uniqueUrl('operator');
  server = new FakeStompServer(url);
  connection = createConnection({ url, getToken: () => 't', webSocketFactory: server.webSocketFactory, heartbeatMs: 0, backoff: { initialMs: 10, maxMs: 10 } });
  errors = [];
  connection.errors$.subscribe((e) => errors.push(e));
  connection.connect();
});

afterEach(async () => {
  const done = connection.disconnect({ timeoutMs: 50 });
  await tick(100);
  await done;
  server.close();
  vi.useRealTimers();
});

const snapshot: OperatorSnapshot = {
  at: '2026-11-27T10:00:00.000Z',
  markets: [{ marketId: 'GAS-SPOT', name: 'Gas spot', phase: 'trading', sessionDate: '2026-11-27', since: '2026-11-27T07:00:00.000Z', nextPhase: 'closing', nextPhaseAt: '2026-11-27T15:00:00.000Z', assets: [] }],
  participants: [],
  connectedUsers: [],
  gateway: { connections: 1, subscriptions: 2, slowConsumersDropped: 0, messagesPerSecond: 3 },
  engine: { ordersPerSecond: 0, journalSyncP99Ms: null, journalLastSeq: 0, readModelBehindBy: 0, lastSnapshotAt: null, lastSnapshotSeq: null },
  clearing: { lastRuns: [], openMarginCalls: [] },
};

describe('operator$', () => {
  it('parses the operator queue, shares one subscription and replays the latest snapshot to a later watcher', async () => {
    const first: OperatorSnapshot[] = [];
    const a = operator$(connection).subscribe((value) => first.push(value));
    const b = operator$(connection).subscribe(() => undefined);
    await tick();
    expect(server.subscribeCount(destinations.operator)).toBe(1);
    server.publish(destinations.operator, snapshot);
    server.publish(destinations.operator, { ...snapshot, markets: 'not markets' });
    await tick();
    expect(first).toEqual([snapshot]);
    expect(errors).toHaveLength(1);
    const later: OperatorSnapshot[] = [];
    const c = operator$(connection).subscribe((value) => later.push(value));
    expect(later).toEqual([snapshot]);
    a.unsubscribe();
    b.unsubscribe();
    c.unsubscribe();
  });
});
