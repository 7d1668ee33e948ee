/**
 * The operator console's server side (issue 16, item 1) on a real server: GET /admin/operator's figures,
 * the snapshot on /user/queue/operator (on subscribe, and again straight after a suspend), the
 * destination refused to a broker, suspend / resume and their codes, and the audit entries.
 */
import { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { destinations, operatorSnapshotSchema, type OperatorSnapshot } from '../../../protocol/index.ts';
import { connectCollector } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const MARKET = 'EL-SPOT';
const OTHER_MARKET = 'GAS-BG';
let t: TestServer;
let admin: string;
let broker: string;
let adminId: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login('admin');
  broker = await t.login('broker1');
  adminId = (await t.get('/user/info', admin)).body.userId as string;
});
afterAll(async () => {
  await t?.server.close();
});

const marketOf = (snapshot: OperatorSnapshot, marketId: string) => snapshot.markets.find((market) => market.marketId === marketId)!;

describe('GET /admin/operator', () => {
  it("answers the administrator the snapshot: the engine's phases, every participant, the connected users and the health figures", async () => {
    const brokerSession = await connectCollector(t.server.port, broker);
    try {
      await brokerSession.subscribe(destinations.myOrders);
      await brokerSession.subscribe(destinations.notifications);
      const placed = await t.post('/orders', { idempotencyKey: 'operator-000001', assetId: 'GSPOT-DA', way: 'bid', price: 14_000, qty: 10, validityType: 'GTC', clientCode: 'RO-HIDRO' }, broker);
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      await t.server.projector.flushed(5_000);

      const answer = await t.get('/admin/operator', admin);
      expect(answer.status).toBe(200);
      const snapshot = operatorSnapshotSchema.parse(answer.body);
      const { sequencer, store } = t.server;
      const markets = await store.reference.markets();
      expect(snapshot.markets.map((market) => market.marketId).sort()).toEqual(markets.map((market) => market.id).sort());
      for (const market of snapshot.markets) {
        expect(market.phase).toBe(sequencer.engine.getMarketPhase(market.marketId)!.phase);
        // The test server has no timetables: no next phase.
        expect(market.nextPhase).toBeNull();
        for (const asset of market.assets) expect(asset.phase).toBe(sequencer.engine.getPhase(asset.assetId));
      }
      const assets = await store.reference.assets();
      expect(snapshot.markets.flatMap((market) => market.assets).length).toBe(assets.length);

      // Every client and every broker (the fallback until participant suspension is wired in), none suspended.
      const clients = await store.reference.clients();
      expect(snapshot.participants.filter((p) => p.kind === 'client').map((p) => p.id).sort()).toEqual(clients.map((client) => client.code).sort());
      const brokerInfo = (await t.get('/user/info', broker)).body as { userId: string };
      expect(snapshot.participants.some((p) => p.kind === 'broker' && p.id === brokerInfo.userId)).toBe(true);
      expect(snapshot.participants.every((p) => !p.suspended)).toBe(true);

      const connected = snapshot.connectedUsers.find((user) => user.userId === brokerInfo.userId);
      expect(connected).toMatchObject({ sessions: 1, subscriptions: 2, roles: expect.arrayContaining(['broker']) });
      expect(snapshot.gateway.connections).toBe(t.server.gateway.stats().connections);
      expect(snapshot.gateway.subscriptions).toBeGreaterThanOrEqual(2);
      expect(snapshot.gateway.slowConsumersDropped).toBe(0);

      expect(snapshot.engine.journalLastSeq).toBe(sequencer.lastJournalSeq);
      expect(snapshot.engine.journalLastSeq).toBeGreaterThan(0);
      expect(snapshot.engine.readModelBehindBy).toBe(0);
      // Syncs were timed in the last minute (the order's own, at least).
      expect(snapshot.engine.journalSyncP99Ms).not.toBeNull();
      expect(snapshot.clearing.lastRuns).toEqual([]);
    } finally {
      await brokerSession.close();
    }
  });

  it('refuses anyone else with FORBIDDEN {scope}', async () => {
    const answer = await t.get('/admin/operator', broker);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toEqual({ code: 'FORBIDDEN', params: { scope: 'administrator' } });
    expect((await t.post(`/admin/markets/${MARKET}/suspend`, undefined, broker)).body.error.code).toBe('FORBIDDEN');
  });
});

describe('/user/queue/operator', () => {
  it("sends the administrator a snapshot on subscribe and a new one straight after a suspend; the resume too", async () => {
    const operatorQueue = await connectCollector(t.server.port, admin);
    try {
      await operatorQueue.subscribe(destinations.operator);
      const [first] = await operatorQueue.waitFor<OperatorSnapshot>(destinations.operator, (messages) => messages.length >= 1);
      expect(marketOf(operatorSnapshotSchema.parse(first), MARKET).phase).toBe('trading');

      expect((await t.post(`/admin/markets/${MARKET}/suspend`, undefined, admin)).status).toBe(204);
      // Within a second, well before the health interval's next snapshot (OPERATOR_HEALTH_INTERVAL_MS).
      const afterSuspend = await operatorQueue.waitFor<OperatorSnapshot>(destinations.operator, (messages) => messages.some((m) => marketOf(m, MARKET).phase === 'suspended'), 1000);
      const suspended = marketOf(afterSuspend.find((m) => marketOf(m, MARKET).phase === 'suspended')!, MARKET);
      expect(suspended.assets.every((asset) => asset.phase === 'suspended')).toBe(true);

      expect((await t.post(`/admin/markets/${MARKET}/resume`, undefined, admin)).status).toBe(204);
      const seen = (await operatorQueue.waitFor<OperatorSnapshot>(destinations.operator, (messages) => marketOf(messages.at(-1)!, MARKET).phase === 'trading', 1000)).length;
      expect(t.server.sequencer.engine.getMarketPhase(MARKET)?.phase).toBe('trading');
      expect(seen).toBeGreaterThanOrEqual(3);
    } finally {
      await operatorQueue.close();
    }
  });

  it('shows a participant suspended and reinstated from the participants service, each in a new snapshot', async () => {
    const operatorQueue = await connectCollector(t.server.port, admin);
    const participantOf = (snapshot: OperatorSnapshot) => snapshot.participants.find((p) => p.kind === 'client' && p.id === 'RO-TERMO');
    try {
      await operatorQueue.subscribe(destinations.operator);
      const [first] = await operatorQueue.waitFor<OperatorSnapshot>(destinations.operator, (messages) => messages.length >= 1);
      expect(participantOf(first!)).toMatchObject({ suspended: false });

      expect((await t.post('/admin/participants/client/RO-TERMO/suspend', { reason: 'unpaid margin call' }, admin)).status).toBe(200);
      const suspended = await operatorQueue.waitFor<OperatorSnapshot>(destinations.operator, (messages) => participantOf(messages.at(-1)!)?.suspended === true, 1000);
      expect(participantOf(suspended.at(-1)!)).toMatchObject({ suspended: true, reason: 'unpaid margin call', suspendedBy: adminId });

      expect((await t.post('/admin/participants/client/RO-TERMO/reinstate', undefined, admin)).status).toBe(200);
      await operatorQueue.waitFor<OperatorSnapshot>(destinations.operator, (messages) => participantOf(messages.at(-1)!)?.suspended === false, 1000);
    } finally {
      await operatorQueue.close();
    }
  });

  it('is refused to a broker with STOMP_DESTINATION_FORBIDDEN', async () => {
    const client = new Client({
      webSocketFactory: () => new WebSocket(`ws://127.0.0.1:${t.server.port}/session/ws`, ['v12.stomp']),
      connectHeaders: { Authorization: `Bearer ${broker}` },
      reconnectDelay: 0,
      heartbeatIncoming: 0,
      heartbeatOutgoing: 0,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        client.onConnect = () => resolve();
        client.onStompError = (frame) => reject(new Error(frame.headers.code));
        client.activate();
      });
      const refused = new Promise<{ code: string | undefined; body: string }>((resolve) => (client.onStompError = (frame) => resolve({ code: frame.headers.code, body: frame.body })));
      client.subscribe(destinations.operator, () => {});
      const frame = await refused;
      expect(frame.code).toBe('STOMP_DESTINATION_FORBIDDEN');
      expect(JSON.parse(frame.body)).toEqual({ code: 'STOMP_DESTINATION_FORBIDDEN', params: { destination: destinations.operator } });
    } finally {
      await client.deactivate();
    }
  });
});

describe('POST /admin/markets/:marketId/suspend and /resume', () => {
  it('refuse with MARKET_PHASE_CHANGE_NOT_ALLOWED: suspend of a suspended or closed market, resume of one not suspended; every attempt audited', async () => {
    const notAllowed = (phase: string, marketId = OTHER_MARKET) => ({ code: 'MARKET_PHASE_CHANGE_NOT_ALLOWED', params: { marketId, phase } });

    const resumeTrading = await t.post(`/admin/markets/${OTHER_MARKET}/resume`, undefined, admin);
    expect(resumeTrading).toEqual({ status: 409, body: { error: notAllowed('trading') } });

    expect((await t.post(`/admin/markets/${OTHER_MARKET}/suspend`, undefined, admin)).status).toBe(204);
    expect(await t.post(`/admin/markets/${OTHER_MARKET}/suspend`, undefined, admin)).toEqual({ status: 409, body: { error: notAllowed('suspended') } });
    expect((await t.post(`/admin/markets/${OTHER_MARKET}/resume`, undefined, admin)).status).toBe(204);
    expect(t.server.sequencer.engine.getMarketPhase(OTHER_MARKET)?.phase).toBe('trading');

    expect((await t.post(`/admin/markets/${OTHER_MARKET}/phase`, { phase: 'closed' }, admin)).status).toBe(204);
    expect(await t.post(`/admin/markets/${OTHER_MARKET}/suspend`, undefined, admin)).toEqual({ status: 409, body: { error: notAllowed('closed') } });

    const { items } = await t.server.audit.query({ category: 'operator', q: OTHER_MARKET, offset: 0, limit: 100 });
    const trail = items.reverse().map((entry) => [entry.action, entry.outcome, entry.code, entry.details.from, entry.details.to]);
    expect(trail).toEqual([
      ['market.resume', 'refused', 'MARKET_PHASE_CHANGE_NOT_ALLOWED', 'trading', null],
      ['market.suspend', 'ok', null, 'trading', 'suspended'],
      ['market.suspend', 'refused', 'MARKET_PHASE_CHANGE_NOT_ALLOWED', 'suspended', null],
      ['market.resume', 'ok', null, 'suspended', 'trading'],
      ['market.phase', 'ok', null, 'trading', 'closed'],
      ['market.suspend', 'refused', 'MARKET_PHASE_CHANGE_NOT_ALLOWED', 'closed', null],
    ]);
    const suspend = items.find((entry) => entry.action === 'market.suspend' && entry.outcome === 'ok')!;
    expect(suspend).toMatchObject({
      category: 'operator',
      actorUserId: adminId,
      actorRole: 'administrator',
      subject: `market ${OTHER_MARKET}`,
      remoteAddress: '127.0.0.1',
      details: { marketId: OTHER_MARKET, assetId: null, from: 'trading', to: 'suspended' },
    });
  });
});

describe('clearing status', () => {
  it("shows the closed market's settlement run as its last", async () => {
    // The market closed above: its settlement runs after the close.
    expect(t.server.sequencer.engine.getMarketPhase(OTHER_MARKET)?.phase).toBe('closed');
    await t.server.settlement.idle();
    const run = await t.server.settlement.settlement.run(OTHER_MARKET, t.server.sequencer.engine.getMarketPhase(OTHER_MARKET)!.sessionDate);
    expect(run?.status).toBe('completed');
    const snapshot = operatorSnapshotSchema.parse((await t.get('/admin/operator', admin)).body);
    expect(snapshot.clearing.lastRuns).toEqual([{ marketId: OTHER_MARKET, sessionDate: run!.sessionDate, status: 'completed', finishedAt: run!.completedAt }]);
  });
});
