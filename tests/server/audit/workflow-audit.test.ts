import { afterEach, describe, expect, it } from 'vitest';
import { auditQuerySchema } from '../../../protocol/audit.ts';
import { ExchangeError } from '../../../protocol/error-codes.ts';
import { AuditLog } from '../../../server/audit/audit-log.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { openWorkflowStore, type WorkflowStore } from '../../helpers/workflow-store.ts';

const otcData = {
  assetId: 'GFWD-M-2027-01', way: 'bid', qty: 1000, price: 15000, firstDeliveryDate: '2027-01-01', lastDeliveryDate: '2027-01-31', noDeliveryDays: 31,
  settlementPrice: null, initiatedAt: null, transactionId: null, txDate: null, txTime: null,
};
const parties = { initiatorClient: 'RO-HIDRO', partnerClient: 'RO-TERMO' };

/** The workflow runner's audit entries (server/workflows/workflow-runner.ts, recordEvent): one per transition, in its transaction. */
describe.each(testDatabases)('workflow transitions in the audit trail on $name', (database) => {
  let ws: WorkflowStore;
  afterEach(async () => ws?.close());

  const trail = async (instanceId: string) =>
    (await new AuditLog(ws.store.db).query(auditQuerySchema.parse({ category: 'workflow', q: instanceId, limit: 500 }))).items.reverse();

  it('keeps exactly one entry per transition, the system as a null actor, and none for a transaction rolled back', async () => {
    ws = await openWorkflowStore(database);
    const [broker1, broker2, admin] = [await ws.actor('broker1'), await ws.actor('broker2'), await ws.actor('admin')];
    const created = await ws.runner.create('otc', parties, otcData, broker1);
    await ws.runner.act(created.instanceId, 'activate', broker1);
    await ws.runner.act(created.instanceId, 'acceptActivation', broker2);

    // The side effect fails inside the transaction: neither the state change nor its audit entry stays.
    const rolledBack = ws.runner.act(created.instanceId, 'approve', admin, {}, {
      apply: async () => {
        throw new ExchangeError({ code: 'SERVICE_UNAVAILABLE', params: {} });
      },
    });
    await expect(rolledBack).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await trail(created.instanceId)).toHaveLength(3);

    // A failed check is the system's decision.
    await ws.runner.act(created.instanceId, 'approve', admin, {}, { check: async () => ({ failed: { code: 'OTC_PARTNER_INSUFFICIENT_FUNDS', params: {} } }) });
    const entries = await trail(created.instanceId);
    const instance = await ws.runner.get(created.instanceId, admin);
    expect(entries).toHaveLength(instance.history.length);
    expect(entries.map((entry) => [entry.details.action, entry.details.from, entry.details.to, entry.actorUserId])).toEqual(
      instance.history.map((event) => [event.action, event.fromStatus, event.toStatus, event.actorUserId]),
    );
    expect(entries[0]).toMatchObject({ category: 'workflow', action: 'workflow.action', subject: `otc ${created.instanceId}`, actorUserId: broker1.userId, actorRole: 'broker', outcome: 'ok', details: { kind: 'otc', instanceId: created.instanceId, from: null, to: 'new', reason: null } });
    expect(entries.at(-1)).toMatchObject({ actorUserId: null, actorRole: null, code: 'OTC_PARTNER_INSUFFICIENT_FUNDS', details: { action: 'checksFailed', to: 'rejected', reason: 'OTC_PARTNER_INSUFFICIENT_FUNDS' } });
  });

  it('keeps a reason given in words', async () => {
    ws = await openWorkflowStore(database);
    const [broker1, broker2, admin] = [await ws.actor('broker1'), await ws.actor('broker2'), await ws.actor('admin')];
    const created = await ws.runner.create('otc', parties, otcData, broker1);
    await ws.runner.act(created.instanceId, 'activate', broker1);
    await ws.runner.act(created.instanceId, 'acceptActivation', broker2);
    await ws.runner.act(created.instanceId, 'reject', admin, { reason: ' wrong price ' });
    expect((await trail(created.instanceId)).at(-1)).toMatchObject({ actorUserId: admin.userId, actorRole: 'administrator', code: null, details: { action: 'reject', reason: 'wrong price' } });
  });
});
