/** The operator console's feed with a fake engine and gateway: figures, rates, when it publishes and to whom. */
import { afterEach, describe, expect, it } from 'vitest';
import { destinations, operatorSnapshotSchema, type Market, type SessionPhase } from '../../../protocol/index.ts';
import type { EngineEvent, ScheduleEntry } from '../../../server/engine/types.ts';
import type { GatewayStats, Principal, SessionInfo } from '../../../server/gateway/stomp-gateway.ts';
import { OperatorFeed, type OperatorFeedOptions } from '../../../server/operator/operator-feed.ts';
import type { AssetRecord } from '../../../server/store/reference.repository.ts';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const admin: Principal = { userId: 'u-admin', username: 'admin', roles: ['administrator'], clientCodes: [], marketIds: ['M1'] };
const broker: Principal = { userId: 'u-broker', username: 'broker1', roles: ['broker'], clientCodes: ['C1'], marketIds: ['M1'] };
const market = { id: 'M1', name: 'Spot', kind: 'spot' } as Market;
const asset = { id: 'A1', marketId: 'M1', name: 'Base' } as AssetRecord;

function rig() {
  const phases = new Map<string, SessionPhase>([['M1', 'trading'], ['A1', 'trading']]);
  const listeners: Array<(events: EngineEvent[]) => void> = [];
  const sent: Array<{ userId: string; destination: string; body: unknown }> = [];
  const stats: GatewayStats = { connections: 0, subscriptions: 0, slowConsumersDropped: 0, messagesSent: 0 };
  const sessions: SessionInfo[] = [];
  let subscribers = 0;
  let monotonic = 0;
  const sequencer = {
    engine: {
      getMarketPhase: (id: string) => (phases.has(id) ? { phase: phases.get(id)!, sessionDate: '2026-11-27' } : undefined),
      getPhase: (id: string) => phases.get(id),
      getNextScheduledPhase: (): ScheduleEntry | null => ({ at: T0 + 3_600_000, phase: 'closing' }),
    },
    lastJournalSeq: 42,
    orderCommands: 0,
    journalSyncP99Ms: () => 1.23456,
    lastSnapshot: { seq: 40, at: T0 - 1000 } as { seq: number; at: number | null } | null,
    onEvents(listener: (events: EngineEvent[]) => void) {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
  };
  const options: OperatorFeedOptions = {
    sequencer: sequencer as unknown as OperatorFeedOptions['sequencer'],
    gateway: {
      sendToUser: (userId, destination, body) => sent.push({ userId, destination, body }),
      stats: () => ({ ...stats }),
      sessions: () => sessions,
      subscriberCount: (destination) => (destination === destinations.operator ? subscribers : 0),
    },
    reference: { markets: async () => [market], assets: async () => [asset] },
    participants: async () => [{ kind: 'client', id: 'C1', name: 'Client 1', suspended: false, suspendedAt: null, suspendedBy: null, reason: null }],
    readModelBehindBy: () => 3,
    lastSettlementRuns: async () => [{ settlementRunId: 'R1', marketId: 'M1', sessionDate: '2026-11-26', status: 'completed', startedAt: '2026-11-26T22:00:00.000Z', completedAt: '2026-11-26T22:00:05.000Z', clients: 2, resultHash: 'h' }],
    openMarginCalls: () => [{ clientCode: 'C1', amount: 1_000_00, currency: 'RON' }],
    userNames: async () => new Map([['u-broker', 'Broker One']]),
    timetables: null,
    now: () => T0,
    intervalMs: 20,
    changeDelayMs: 5,
    monotonic: () => monotonic,
  };
  const feed = new OperatorFeed(options);
  feed.start();
  return {
    feed,
    phases,
    sent,
    stats,
    sessions,
    sequencer,
    setSubscribers: (n: number) => (subscribers = n),
    advance: (ms: number) => (monotonic += ms),
    emit: (events: EngineEvent[]) => listeners.forEach((listener) => listener(events)),
  };
}

const until = async (predicate: () => boolean) => {
  for (let i = 0; i < 500 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(predicate()).toBe(true);
};

let feeds: OperatorFeed[] = [];
afterEach(() => {
  for (const feed of feeds) feed.close();
  feeds = [];
});

describe('OperatorFeed', () => {
  it('builds a snapshot of the contract: markets with their assets and schedule, participants, users, health and clearing', async () => {
    const r = rig();
    feeds.push(r.feed);
    r.sessions.push({ principal: broker, since: T0 - 60_000, subscriptions: 3 }, { principal: broker, since: T0 - 5_000, subscriptions: 2 });
    Object.assign(r.stats, { connections: 3, subscriptions: 5, slowConsumersDropped: 1 });
    const snapshot = operatorSnapshotSchema.parse(await r.feed.snapshot());
    expect(snapshot.markets).toEqual([
      {
        marketId: 'M1',
        name: 'Spot',
        phase: 'trading',
        sessionDate: '2026-11-27',
        // No timetable and no change seen: since the feed started.
        since: new Date(T0).toISOString(),
        nextPhase: 'closing',
        nextPhaseAt: new Date(T0 + 3_600_000).toISOString(),
        assets: [{ assetId: 'A1', name: 'Base', phase: 'trading' }],
      },
    ]);
    expect(snapshot.participants).toHaveLength(1);
    expect(snapshot.connectedUsers).toEqual([
      { userId: 'u-broker', name: 'Broker One', roles: ['broker'], sessions: 2, subscriptions: 5, since: new Date(T0 - 60_000).toISOString() },
    ]);
    expect(snapshot.gateway).toEqual({ connections: 3, subscriptions: 5, slowConsumersDropped: 1, messagesPerSecond: 0 });
    expect(snapshot.engine).toEqual({
      ordersPerSecond: 0,
      journalSyncP99Ms: 1.235,
      journalLastSeq: 42,
      readModelBehindBy: 3,
      lastSnapshotAt: new Date(T0 - 1000).toISOString(),
      lastSnapshotSeq: 40,
    });
    expect(snapshot.clearing).toEqual({
      lastRuns: [{ marketId: 'M1', sessionDate: '2026-11-26', status: 'completed', finishedAt: '2026-11-26T22:00:05.000Z' }],
      openMarginCalls: [{ clientCode: 'C1', amount: 1_000_00, currency: 'RON' }],
    });
  });

  it('reads rates over at least a second: order commands and messages sent per second', async () => {
    const r = rig();
    feeds.push(r.feed);
    r.sequencer.orderCommands = 30;
    r.stats.messagesSent = 500;
    r.advance(500);
    // Under a second since the last reading: the previous rate (none yet).
    expect((await r.feed.snapshot()).engine.ordersPerSecond).toBe(0);
    r.advance(1500);
    const two = await r.feed.snapshot();
    expect(two.engine.ordersPerSecond).toBe(15);
    expect(two.gateway.messagesPerSecond).toBe(250);
    r.sequencer.orderCommands = 31;
    r.advance(400);
    // Kept until the next full second.
    expect((await r.feed.snapshot()).engine.ordersPerSecond).toBe(15);
    r.advance(600);
    expect((await r.feed.snapshot()).engine.ordersPerSecond).toBe(1);
  });

  it('answers a subscription to the operator queue with a snapshot, and leaves other destinations to the next hook', async () => {
    const r = rig();
    feeds.push(r.feed);
    const replies: unknown[] = [];
    expect(r.feed.onSubscribe(admin, destinations.book('A1'), (body) => replies.push(body))).toBe(false);
    r.setSubscribers(1);
    expect(r.feed.onSubscribe(admin, destinations.operator, (body) => replies.push(body))).toBe(true);
    await until(() => replies.length === 1);
    expect(operatorSnapshotSchema.parse(replies[0]).markets[0]!.phase).toBe('trading');
    // Taken, and not answered, for anyone else (the gateway refuses them first).
    expect(r.feed.onSubscribe(broker, destinations.operator, (body) => replies.push(body))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(replies).toHaveLength(1);
    expect(r.sent.every((message) => message.userId === admin.userId)).toBe(true);
  });

  it('publishes to the listening administrators after a phase change and on the interval, and stops when nobody listens', async () => {
    const r = rig();
    feeds.push(r.feed);
    // Nobody subscribed: a change publishes nothing.
    r.emit([{ type: 'phase', marketId: 'M1', assetId: null, phase: 'suspended', previous: 'trading', sessionDate: '2026-11-27', at: T0 + 5_000 }]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(r.sent).toHaveLength(0);

    r.setSubscribers(1);
    r.feed.onSubscribe(admin, destinations.operator, () => {});
    await until(() => r.sent.length >= 2);
    expect(r.sent.every((message) => message.userId === admin.userId && message.destination === destinations.operator)).toBe(true);

    r.phases.set('M1', 'suspended');
    r.emit([{ type: 'phase', marketId: 'M1', assetId: null, phase: 'suspended', previous: 'trading', sessionDate: '2026-11-27', at: T0 + 7_000 }]);
    await until(() => r.sent.some((message) => operatorSnapshotSchema.parse(message.body).markets[0]!.phase === 'suspended'));
    const suspended = r.sent.map((message) => operatorSnapshotSchema.parse(message.body)).find((snapshot) => snapshot.markets[0]!.phase === 'suspended')!;
    // The phase event's time is when the market entered its phase.
    expect(suspended.markets[0]!.since).toBe(new Date(T0 + 7_000).toISOString());

    r.setSubscribers(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await r.feed.idle();
    const count = r.sent.length;
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(r.sent).toHaveLength(count);
  });
});
