/**
 * The operator's participant suspension over REST against a real server (PGlite): administrators
 * only; a suspended broker's resting orders are gone and his next order is refused with
 * PARTICIPANT_SUSPENDED until reinstated; a suspended client likewise; each change is audited and
 * told to the users concerned; a restart replays the journal to the same suspensions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, notificationSchema, type Notification } from '../../../protocol/index.ts';
import { participantChangeSchema, participantListSchema, type Participant } from '../../../protocol/participants.ts';
import { workflowRoutes } from '../../../protocol/workflows.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const GAS = 'GSPOT-DA';
let serial = 0;

function order(clientCode: string, price = 14_000) {
  return { idempotencyKey: `susp-${String(++serial).padStart(6, '0')}`, assetId: GAS, way: 'bid', price, qty: 10, validityType: 'GTC', clientCode };
}

async function place(t: TestServer, token: string, clientCode: string): Promise<string> {
  const answer = await t.post('/orders', order(clientCode), token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.order.orderId as string;
}

async function liveIds(t: TestServer, token: string): Promise<string[]> {
  const answer = await t.get('/orders/mine', token);
  return (answer.body.items as Array<{ orderId: string }>).map((o) => o.orderId).sort();
}

/** A POST without a body, sent as common HTTP clients send it: Content-Type application/json and nothing. */
async function emptyPost(t: TestServer, path: string, token: string) {
  const response = await fetch(t.api + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  return { status: response.status, body: (await response.json()) as { participant: Participant; cancelledOrders: number } };
}

describe('/admin/participants', () => {
  let t: TestServer;
  let admin: string;
  let broker1: string;
  let broker2: string;
  let broker1Id: string;
  let adminId: string;
  let collector: CollectingClient;
  beforeAll(async () => {
    t = await startTestServer({ tickIntervalMs: 0 });
    admin = await t.login('admin');
    broker1 = await t.login('broker1');
    broker2 = await t.login('broker2');
    broker1Id = (await t.server.store.users.findByUsername('broker1'))!.id;
    adminId = (await t.server.store.users.findByUsername('admin'))!.id;
    collector = await connectCollector(t.server.port, broker1);
    await collector.subscribe(destinations.notifications);
  });
  afterAll(async () => {
    await collector?.close();
    await t?.server.close();
  });

  it('answers FORBIDDEN to anyone but an administrator', async () => {
    for (const token of [broker1, await t.login('agency1')]) {
      expect((await t.get('/admin/participants', token)).body.error.code).toBe('FORBIDDEN');
      const suspend = await t.post(`/admin/participants/broker/${broker1Id}/suspend`, { reason: 'x' }, token);
      expect([suspend.status, suspend.body.error.code]).toEqual([403, 'FORBIDDEN']);
      expect((await t.post(`/admin/participants/client/RO-HIDRO/reinstate`, {}, token)).status).toBe(403);
    }
    expect(t.server.sequencer.engine.getSuspension('broker', broker1Id)).toBeUndefined();
  });

  it('lists the clients and the brokers with their names and suspension', async () => {
    const answer = await t.get('/admin/participants', admin);
    expect(answer.status).toBe(200);
    const { participants } = participantListSchema.parse(answer.body);
    expect(participants.find((p) => p.kind === 'client' && p.id === 'RO-HIDRO')).toMatchObject({ suspended: false, suspendedAt: null, suspendedBy: null, reason: null });
    expect(participants.find((p) => p.kind === 'broker' && p.id === broker1Id)).toMatchObject({ name: 'Andrei Popescu', suspended: false });
    // brokers are users with the broker role: not the administrator, an agency or a client user
    expect(participants.filter((p) => p.kind === 'broker').map((p) => p.id)).not.toContain(adminId);
  });

  it("suspends a broker: his resting orders are gone, his next order is refused; reinstated, it is accepted", async () => {
    const mine = [await place(t, broker1, 'RO-HIDRO'), await place(t, broker1, 'RO-GAZEST')];
    const theirs = await place(t, broker2, 'RO-TERMO');
    expect((await liveIds(t, broker1)).sort()).toEqual([...mine].sort());

    const suspended = await t.post(`/admin/participants/broker/${broker1Id}/suspend`, { reason: '  Margin call unpaid  ' }, admin);
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
    expect(participantChangeSchema.parse(suspended.body)).toMatchObject({
      cancelledOrders: 2,
      participant: { kind: 'broker', id: broker1Id, suspended: true, suspendedBy: adminId, reason: 'Margin call unpaid' },
    });
    expect(await liveIds(t, broker1)).toEqual([]);
    expect(await liveIds(t, broker2)).toContain(theirs);

    const refused = await t.post('/orders', order('RO-HIDRO'), broker1);
    expect([refused.status, refused.body.error]).toEqual([403, { code: 'PARTICIPANT_SUSPENDED', params: { participant: broker1Id } }]);
    const listed = participantListSchema.parse((await t.get('/admin/participants', admin)).body).participants.find((p) => p.id === broker1Id);
    expect(listed).toMatchObject({ suspended: true, reason: 'Margin call unpaid' });
    expect(Date.parse(listed!.suspendedAt!)).toBeGreaterThan(0);

    const twice = await t.post(`/admin/participants/broker/${broker1Id}/suspend`, { reason: 'again' }, admin);
    expect([twice.status, twice.body.error.code]).toEqual([409, 'PARTICIPANT_ALREADY_SUSPENDED']);

    // told: the suspension (with the code's message) and each cancelled order, cancelled by the operator
    const messages = await collector.waitFor<Notification>(destinations.notifications, (list) => list.some((n) => n.kind === 'system') && list.filter((n) => n.kind === 'orderCancelled').length >= 2);
    for (const message of messages) expect(notificationSchema.parse(message)).toEqual(message);
    expect(messages.find((n) => n.kind === 'system')).toMatchObject({ messageKey: 'error.PARTICIPANT_SUSPENDED', values: { participant: broker1Id, code: 'PARTICIPANT_SUSPENDED' } });
    expect(messages.filter((n) => n.kind === 'orderCancelled').map((n) => [n.values.orderId, n.values.reason]).sort()).toEqual(mine.map((id) => [id, 'operator']).sort());

    const reinstated = await emptyPost(t, `/admin/participants/broker/${broker1Id}/reinstate`, admin);
    expect(reinstated.status).toBe(200);
    expect(reinstated.body).toMatchObject({ cancelledOrders: 0, participant: { suspended: false, suspendedAt: null, reason: null } });
    expect((await t.post('/orders', order('RO-HIDRO'), broker1)).status).toBe(201);
    const told = await collector.waitFor<Notification>(destinations.notifications, (list) => list.some((n) => n.messageKey === 'notifications.participantReinstated'));
    expect(told.find((n) => n.messageKey === 'notifications.participantReinstated')).toMatchObject({ kind: 'system', values: { participant: broker1Id, participantKind: 'broker' } });
    const notSuspended = await emptyPost(t, `/admin/participants/broker/${broker1Id}/reinstate`, admin);
    expect(notSuspended.status).toBe(409);
  });

  it("suspends a client: every user's orders for it are gone and refused; others trade on", async () => {
    const termo = await place(t, broker2, 'RO-TERMO');
    const other = await place(t, broker2, 'RO-INDUS');
    const answer = await t.post('/admin/participants/client/RO-TERMO/suspend', { reason: 'Insolvency' }, admin);
    expect(answer.status).toBe(200);
    expect(answer.body.cancelledOrders).toBeGreaterThanOrEqual(1);
    const live = await liveIds(t, broker2);
    expect(live).not.toContain(termo);
    expect(live).toContain(other);
    const refused = await t.post('/orders', order('RO-TERMO'), broker2);
    expect(refused.body.error).toEqual({ code: 'PARTICIPANT_SUSPENDED', params: { participant: 'RO-TERMO' } });
    expect((await t.post('/orders', order('RO-INDUS'), broker2)).status).toBe(201);
    expect((await emptyPost(t, '/admin/participants/client/RO-TERMO/reinstate', admin)).status).toBe(200);
    expect((await t.post('/orders', order('RO-TERMO'), broker2)).status).toBe(201);
  });

  it('a pending OTC deal of a suspended client is refused at approval and goes through once reinstated', async () => {
    const draft = {
      clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', assetId: 'GFWD-M-2027-01', way: 'bid', qty: 1000, price: 15000,
      firstDeliveryDate: '2027-01-01', lastDeliveryDate: '2027-01-31', noDeliveryDays: 31,
    };
    const created = await t.post(workflowRoutes.otc, draft, broker1);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.instanceId as string;
    expect((await t.post(workflowRoutes.action(id), { action: 'activate', version: 1 }, broker1)).body.status).toBe('awaiting_partner_accept');
    expect((await t.post(workflowRoutes.action(id), { action: 'acceptActivation' }, broker2)).body.status).toBe('awaiting_admin_approval');
    expect((await t.post('/admin/participants/client/RO-TERMO/suspend', { reason: 'OTC' }, admin)).status).toBe(200);
    const refused = await t.post(workflowRoutes.action(id), { action: 'approve' }, admin);
    expect(refused.body.error).toEqual({ code: 'PARTICIPANT_SUSPENDED', params: { participant: 'RO-TERMO' } });
    expect((await t.get(`/workflows/${id}`, admin)).body.status).toBe('awaiting_admin_approval');
    expect((await emptyPost(t, '/admin/participants/client/RO-TERMO/reinstate', admin)).status).toBe(200);
    expect((await t.post(workflowRoutes.action(id), { action: 'approve' }, admin)).body).toMatchObject({ status: 'finalized', data: { transactionId: expect.any(String) } });
  });

  it('answers PARTICIPANT_NOT_FOUND for an unknown client or broker, and a non-broker user is no broker', async () => {
    const unknown = await t.post('/admin/participants/client/RO-NOBODY/suspend', { reason: 'x' }, admin);
    expect([unknown.status, unknown.body.error]).toEqual([404, { code: 'PARTICIPANT_NOT_FOUND', params: { participant: 'RO-NOBODY' } }]);
    expect((await t.post(`/admin/participants/broker/${adminId}/suspend`, { reason: 'x' }, admin)).body.error.code).toBe('PARTICIPANT_NOT_FOUND');
    expect((await t.post('/admin/participants/agency/AG-NORD/suspend', { reason: 'x' }, admin)).status).toBe(400);
    expect((await t.post('/admin/participants/client/RO-HIDRO/suspend', { reason: '   ' }, admin)).status).toBe(400);
  });

  it('keeps an audit entry of every suspend and reinstate, accepted or refused', async () => {
    const { items } = await t.server.audit.query({ category: 'operator', offset: 0, limit: 100 });
    const mine = items.filter((e) => e.action === 'participant.suspend' || e.action === 'participant.reinstate').reverse();
    expect(mine.map((e) => [e.action, e.subject, e.outcome, e.code])).toEqual([
      ['participant.suspend', `broker:${broker1Id}`, 'ok', null],
      ['participant.suspend', `broker:${broker1Id}`, 'refused', 'PARTICIPANT_ALREADY_SUSPENDED'],
      ['participant.reinstate', `broker:${broker1Id}`, 'ok', null],
      ['participant.reinstate', `broker:${broker1Id}`, 'refused', 'PARTICIPANT_NOT_SUSPENDED'],
      ['participant.suspend', 'client:RO-TERMO', 'ok', null],
      ['participant.reinstate', 'client:RO-TERMO', 'ok', null],
      ['participant.suspend', 'client:RO-TERMO', 'ok', null],
      ['participant.reinstate', 'client:RO-TERMO', 'ok', null],
      ['participant.suspend', 'client:RO-NOBODY', 'refused', 'PARTICIPANT_NOT_FOUND'],
      ['participant.suspend', `broker:${adminId}`, 'refused', 'PARTICIPANT_NOT_FOUND'],
    ]);
    expect(mine[0]).toMatchObject({ category: 'operator', actorUserId: adminId, actorRole: 'administrator', details: { kind: 'broker', id: broker1Id, reason: 'Margin call unpaid', cancelledOrders: 2 } });
    expect(mine[0]!.remoteAddress).toBeTruthy();
    expect(mine[2]!.details).toMatchObject({ reason: null, cancelledOrders: 0 });
  });
});

describe('a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'exchange-participants-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('replays the journal to the same suspensions and state hash', async () => {
    const first = await startTestServer({ dataDir, tickIntervalMs: 0 });
    let hash: string;
    try {
      const admin = await first.login('admin');
      const broker2 = await first.login('broker2');
      await place(first, broker2, 'RO-TERMO');
      expect((await first.post('/admin/participants/client/RO-TERMO/suspend', { reason: 'restart' }, admin)).body.cancelledOrders).toBe(1);
      hash = first.server.sequencer.engine.stateHash();
    } finally {
      await first.server.close();
    }
    const second = await startTestServer({ dataDir, tickIntervalMs: 0 });
    try {
      second.clock.advance(first.clock.now() - second.clock.now() + 1000);
      expect(second.server.sequencer.engine.stateHash()).toBe(hash);
      expect(second.server.sequencer.engine.validateInternalState()).toEqual([]);
      const admin = await second.login('admin');
      const listed = participantListSchema.parse((await second.get('/admin/participants', admin)).body).participants.find((p) => p.id === 'RO-TERMO');
      expect(listed).toMatchObject({ suspended: true, reason: 'restart' });
      const refused = await second.post('/orders', order('RO-TERMO'), await second.login('broker2'));
      expect(refused.body.error.code).toBe('PARTICIPANT_SUSPENDED');
    } finally {
      await second.server.close();
    }
  }, 120_000);
});
