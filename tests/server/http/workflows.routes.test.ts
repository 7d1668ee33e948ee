import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, notificationSchema } from '../../../protocol/index.ts';
import { workflowChangeSchema, workflowInstanceSchema, workflowRoutes, type WorkflowChange } from '../../../protocol/workflows.ts';
import { MemoryLedger } from '../../helpers/memory-ledger.ts';
import { connectCollector } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const draft = {
  clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', assetId: 'GFWD-M-2027-01', way: 'bid', qty: 1000, price: 15000,
  firstDeliveryDate: '2027-01-01', lastDeliveryDate: '2027-01-31', noDeliveryDays: 31,
};

describe('workflow routes', () => {
  let t: TestServer;
  let ledger: MemoryLedger;
  let tokens: Record<'broker1' | 'broker2' | 'admin' | 'simNord', string>;

  beforeAll(async () => {
    ledger = new MemoryLedger();
    t = await startTestServer({ workflowLedger: () => ledger, workflowTimerIntervalMs: 0 });
    tokens = { broker1: await t.login('broker1'), broker2: await t.login('broker2'), admin: await t.login('admin'), simNord: await t.login('sim-nord') };
  });
  afterAll(async () => t?.server.close());

  async function post(path: string, body: unknown, token: string, key?: string) {
    const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    if (key) headers['idempotency-key'] = key;
    const response = await fetch(t.api + path, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  }

  it('runs an OTC deal to finalized over REST, publishing each change to both sides and the administrators', async () => {
    const partner = await connectCollector(t.server.port, tokens.broker2);
    const admin = await connectCollector(t.server.port, tokens.admin);
    try {
      await partner.subscribe(destinations.workflows);
      await partner.subscribe(destinations.notifications);
      await admin.subscribe(destinations.workflowApprovals);
      const created = await post(workflowRoutes.otc, draft, tokens.broker1, 'otc-1');
      expect(created.status).toBe(201);
      const id = created.body.instanceId as string;
      expect(workflowInstanceSchema.parse(created.body).status).toBe('new');
      expect((await post(workflowRoutes.action(id), { action: 'activate', version: 1 }, tokens.broker1)).body.status).toBe('awaiting_partner_accept');
      expect((await post(workflowRoutes.action(id), { action: 'acceptActivation' }, tokens.broker2)).body.status).toBe('awaiting_admin_approval');
      const finalized = await post(workflowRoutes.action(id), { action: 'approve' }, tokens.admin);
      expect(finalized.body).toMatchObject({ status: 'finalized', data: { transactionId: expect.any(String) } });
      const changes = await partner.waitFor<WorkflowChange>(destinations.workflows, (messages) => messages.some((m) => m.instance.status === 'finalized'));
      expect(changes.map((change) => workflowChangeSchema.parse(change).event.action)).toEqual(['create', 'activate', 'acceptActivation', 'approve']);
      await admin.waitFor<WorkflowChange>(destinations.workflowApprovals, (messages) => messages.length === 4);
      // broker2 is told of what others did, not of its own acceptance.
      const notes = await partner.waitFor<unknown>(destinations.notifications, (messages) => messages.length >= 3);
      expect(notes.map((note) => notificationSchema.parse(note)).map((note) => note.values.action)).toEqual(['create', 'activate', 'approve']);
      expect(notificationSchema.parse(notes[0]).messageKey).toBe('notifications.workflow');
      // Each carries the number users know the item by: none while the deal is not a transaction, the transaction it became once approved.
      expect(notes.map((note) => notificationSchema.parse(note)).map((note) => note.values.transactionId)).toEqual(['', '', finalized.body.data.transactionId]);
    } finally {
      await partner.close();
      await admin.close();
    }
  });

  it('answers a retried POST with the same key from the store, and refuses the key with another body', async () => {
    const first = await post(workflowRoutes.otc, draft, tokens.broker1, 'otc-retry');
    const again = await post(workflowRoutes.otc, draft, tokens.broker1, 'otc-retry');
    expect(again).toEqual(first);
    expect(await post(workflowRoutes.otc, { ...draft, qty: 2000 }, tokens.broker1, 'otc-retry')).toEqual({ status: 422, body: { error: { code: 'WORKFLOW_IDEMPOTENCY_KEY_REUSED', params: {} } } });
    const act = await post(workflowRoutes.action(first.body.instanceId), { action: 'activate' }, tokens.broker1, 'act-1');
    expect(await post(workflowRoutes.action(first.body.instanceId), { action: 'activate' }, tokens.broker1, 'act-1')).toEqual(act);
    expect((await t.get(workflowRoutes.instance(first.body.instanceId), tokens.broker1)).body.history).toHaveLength(2);
  });

  it('lists by visibility and query, hides instances of others, and refuses actions of another kind with their codes', async () => {
    const created = await post(workflowRoutes.otc, draft, tokens.broker1);
    const id = created.body.instanceId as string;
    expect((await t.get(workflowRoutes.instance(id), tokens.simNord))).toEqual({ status: 404, body: { error: { code: 'WORKFLOW_NOT_FOUND', params: { instanceId: id } } } });
    expect((await t.get(`${workflowRoutes.list}?kind=otc`, tokens.simNord)).body.instances).toEqual([]);
    const mine = (await t.get(`${workflowRoutes.list}?kind=otc&status=new&awaiting=initiator`, tokens.broker2)).body.instances as Array<{ instanceId: string }>;
    expect(mine.map((instance) => instance.instanceId)).toContain(id);
    expect(await post(workflowRoutes.action(id), { action: 'accept' }, tokens.broker1)).toEqual({ status: 409, body: { error: { code: 'WORKFLOW_ACTION_NOT_ALLOWED', params: { action: 'accept', status: 'new' } } } });
    expect(await post(workflowRoutes.action(id), { action: 'activate', version: 9 }, tokens.broker1)).toEqual({ status: 409, body: { error: { code: 'WORKFLOW_CONFLICT', params: { instanceId: id, version: 1 } } } });
    expect((await post(workflowRoutes.action(id), { action: 'reject' }, tokens.admin)).body.error).toEqual({ code: 'WORKFLOW_REASON_REQUIRED', params: { action: 'reject' } });
    expect((await t.get(`${workflowRoutes.list}?kind=nothing`, tokens.admin)).body.error.code).toBe('REQUEST_INVALID');
  });

  it('requests a transfer and a margin activation by transaction, and runs the OTC simulator', async () => {
    const transaction = ledger.seed();
    const transfer = await post(workflowRoutes.transfer, { transactionId: transaction.transactionId, qty: 500 }, tokens.broker1);
    expect(transfer).toMatchObject({ status: 201, body: { kind: 'transfer', status: 'awaitingPartnerAccept', data: { targetAssetId: 'GCCP-M-2027-01' } } });
    expect(await post(workflowRoutes.transfer, { transactionId: transaction.transactionId }, tokens.simNord)).toEqual({
      status: 403,
      body: { error: { code: 'TRANSFER_NOT_PARTICIPANT', params: { transactionId: transaction.transactionId } } },
    });
    const activation = await post(workflowRoutes.marginActivation, { transactionId: transaction.transactionId }, tokens.broker2);
    expect(activation).toMatchObject({ status: 201, body: { kind: 'marginActivation', status: 'awaitingApproval', waitingOn: 'administrator' } });
    const simulation = await post(workflowRoutes.otcSimulation, draft, tokens.broker1);
    expect(simulation).toMatchObject({ status: 200, body: { value: 1_500_000, initiator: { clientCode: 'RO-HIDRO', margin: 150_000 }, partner: null } });
  });
});
