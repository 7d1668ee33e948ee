import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeError } from '../../../protocol/error-codes.ts';
import { workflowInstanceSchema } from '../../../protocol/workflows.ts';
import { requestHash, systemUser } from '../../../server/workflows/workflow-runner.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { openWorkflowStore, type WorkflowStore } from '../../helpers/workflow-store.ts';

const otcData = {
  assetId: 'GFWD-M-2027-01', way: 'bid', qty: 1000, price: 15000, firstDeliveryDate: '2027-01-01', lastDeliveryDate: '2027-01-31', noDeliveryDays: 31,
  settlementPrice: null, initiatedAt: null, transactionId: null, txDate: null, txTime: null,
};
const parties = { initiatorClient: 'RO-HIDRO', partnerClient: 'RO-TERMO' };

async function refusal(promise: Promise<unknown>): Promise<{ code: string; params: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ExchangeError) return { code: error.code, params: error.params };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe.each(testDatabases)('workflow runner on $name', (database) => {
  let ws: WorkflowStore;
  afterEach(async () => ws?.close());

  it('creates, acts, records the history and publishes each change', async () => {
    ws = await openWorkflowStore(database);
    const broker1 = await ws.actor('broker1');
    const broker2 = await ws.actor('broker2');
    const admin = await ws.actor('admin');
    const created = await ws.runner.create('otc', parties, otcData, broker1);
    expect(workflowInstanceSchema.parse(created)).toMatchObject({ status: 'new', version: 1, waitingOn: 'initiator', initiatorName: expect.any(String) });
    const activated = await ws.runner.act(created.instanceId, 'activate', broker1, { version: 1 });
    expect(activated).toMatchObject({ status: 'awaiting_partner_accept', waitingOn: 'partner', version: 2 });
    const accepted = await ws.runner.act(created.instanceId, 'acceptActivation', broker2);
    expect(accepted.status).toBe('awaiting_admin_approval');
    const rejected = await ws.runner.act(created.instanceId, 'reject', admin, { reason: '  wrong price ' });
    expect(rejected).toMatchObject({ status: 'rejected', waitingOn: 'none', reason: { text: 'wrong price', code: null } });
    expect(rejected.history.map((event) => [event.action, event.fromStatus, event.toStatus, event.actorRole])).toEqual([
      ['create', null, 'new', 'broker'],
      ['activate', 'new', 'awaiting_partner_accept', 'broker'],
      ['acceptActivation', 'awaiting_partner_accept', 'awaiting_admin_approval', 'broker'],
      ['reject', 'awaiting_admin_approval', 'rejected', 'administrator'],
    ]);
    expect(rejected.history[3]!.actorName).toBe(admin.name);
    expect(ws.published.map((change) => change.status)).toEqual(['new', 'awaiting_partner_accept', 'awaiting_admin_approval', 'rejected']);
  });

  it('refuses unknown and invisible instances alike, a missing reason, a stale version and an action the machine does not take', async () => {
    ws = await openWorkflowStore(database);
    const broker1 = await ws.actor('broker1');
    const sim = await ws.actor('sim-nord');
    const admin = await ws.actor('admin');
    const created = await ws.runner.create('otc', parties, otcData, broker1);
    expect(await refusal(ws.runner.act('wf-none', 'activate', broker1))).toEqual({ code: 'WORKFLOW_NOT_FOUND', params: { instanceId: 'wf-none' } });
    expect(await refusal(ws.runner.act(created.instanceId, 'activate', sim))).toEqual({ code: 'WORKFLOW_NOT_FOUND', params: { instanceId: created.instanceId } });
    expect(await refusal(ws.runner.get(created.instanceId, sim))).toMatchObject({ code: 'WORKFLOW_NOT_FOUND' });
    expect(await refusal(ws.runner.act(created.instanceId, 'reject', admin))).toEqual({ code: 'WORKFLOW_REASON_REQUIRED', params: { action: 'reject' } });
    expect(await refusal(ws.runner.act(created.instanceId, 'activate', broker1, { version: 7 }))).toEqual({ code: 'WORKFLOW_CONFLICT', params: { instanceId: created.instanceId, version: 1 } });
    expect(await refusal(ws.runner.act(created.instanceId, 'approve', admin))).toEqual({ code: 'WORKFLOW_ACTION_NOT_ALLOWED', params: { action: 'approve', status: 'new' } });
    expect((await ws.runner.get(created.instanceId, broker1)).history).toHaveLength(1);
  });

  it('turns a failed check into checksFailed and keeps a thrown refusal out of the store', async () => {
    ws = await openWorkflowStore(database);
    const broker1 = await ws.actor('broker1');
    const broker2 = await ws.actor('broker2');
    const admin = await ws.actor('admin');
    const created = await ws.runner.create('otc', parties, otcData, broker1);
    await ws.runner.act(created.instanceId, 'activate', broker1);
    await ws.runner.act(created.instanceId, 'acceptActivation', broker2);
    const applied: string[] = [];
    const thrown = await refusal(
      ws.runner.act(created.instanceId, 'approve', admin, {}, {
        check: async () => {
          throw new ExchangeError({ code: 'OTC_PRICE_VARIATION', params: { maxPercent: 25, settlementPrice: '1.00' } });
        },
      }),
    );
    expect(thrown.code).toBe('OTC_PRICE_VARIATION');
    expect((await ws.runner.get(created.instanceId, admin)).version).toBe(3);
    const failed = await ws.runner.act(created.instanceId, 'approve', admin, {}, {
      check: async () => ({ failed: { code: 'OTC_PARTNER_INSUFFICIENT_FUNDS', params: {} } }),
      apply: async () => void applied.push('ledger'),
    });
    expect(failed).toMatchObject({ status: 'rejected', reason: { code: 'OTC_PARTNER_INSUFFICIENT_FUNDS' } });
    expect(failed.history.at(-1)).toMatchObject({ action: 'checksFailed', actorUserId: null, actorRole: 'system' });
    expect(applied).toEqual([]);
  });

  it('lets exactly one of two concurrent approvals win, with one event and one side effect', async () => {
    ws = await openWorkflowStore(database);
    const broker1 = await ws.actor('broker1');
    const broker2 = await ws.actor('broker2');
    const admin = await ws.actor('admin');
    const created = await ws.runner.create('otc', parties, otcData, broker1);
    await ws.runner.act(created.instanceId, 'activate', broker1);
    await ws.runner.act(created.instanceId, 'acceptActivation', broker2);
    let ledgerCalls = 0;
    const sideEffects = {
      apply: async () => {
        ledgerCalls++;
        return { data: { transactionId: '900' }, transactionId: '900' };
      },
    };
    const results = await Promise.allSettled([
      ws.runner.act(created.instanceId, 'approve', admin, {}, sideEffects),
      ws.runner.act(created.instanceId, 'approve', admin, {}, sideEffects),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((result) => result.status === 'rejected')!;
    expect(['WORKFLOW_CONFLICT', 'WORKFLOW_ACTION_NOT_ALLOWED']).toContain((lost as PromiseRejectedResult).reason.code);
    expect(ledgerCalls).toBe(1);
    const finalized = await ws.runner.get(created.instanceId, admin);
    expect(finalized.history.filter((event) => event.action === 'approve')).toHaveLength(1);
    expect(finalized).toMatchObject({ status: 'finalized', data: { transactionId: '900' } });
  });

  it('answers a retry with the same idempotency key from the store, and refuses the key with another body', async () => {
    ws = await openWorkflowStore(database);
    const broker1 = await ws.actor('broker1');
    const idem = { key: 'k-1', bodyHash: requestHash('/workflows/otc', otcData) };
    const first = await ws.runner.create('otc', parties, otcData, broker1, { idempotency: idem });
    const again = await ws.runner.create('otc', parties, otcData, broker1, { idempotency: idem });
    expect(again.instanceId).toBe(first.instanceId);
    expect(await ws.runner.repository.list(ws.store.db, {}, broker1)).toHaveLength(1);
    expect(await refusal(ws.runner.create('otc', parties, { ...otcData, qty: 1 }, broker1, { idempotency: { key: 'k-1', bodyHash: requestHash('/workflows/otc', { qty: 1 }) } }))).toEqual({
      code: 'WORKFLOW_IDEMPOTENCY_KEY_REUSED',
      params: {},
    });
    const act = { key: 'k-2', bodyHash: requestHash('/x', { action: 'activate' }) };
    const concurrent = await Promise.all([ws.runner.act(first.instanceId, 'activate', broker1, { idempotency: act }), ws.runner.act(first.instanceId, 'activate', broker1, { idempotency: act })]);
    expect(concurrent.map((instance) => instance.version)).toEqual([2, 2]);
    expect((await ws.runner.get(first.instanceId, broker1)).history).toHaveLength(2);
  });

  it('lists by visibility and filters; the system may send expire with a code', async () => {
    ws = await openWorkflowStore(database);
    const broker1 = await ws.actor('broker1');
    const broker2 = await ws.actor('broker2');
    const sim = await ws.actor('sim-nord');
    const admin = await ws.actor('admin');
    const one = await ws.runner.create('otc', parties, otcData, broker1);
    await ws.runner.create('otc', { initiatorClient: 'SIM-NORD-1', partnerClient: 'SIM-CARP-1' }, otcData, sim);
    expect((await ws.runner.repository.list(ws.store.db, {}, admin)).length).toBe(2);
    expect((await ws.runner.repository.list(ws.store.db, {}, broker2)).map((instance) => instance.instanceId)).toEqual([one.instanceId]);
    expect(await ws.runner.repository.list(ws.store.db, { status: 'finalized' }, admin)).toEqual([]);
    expect((await ws.runner.repository.list(ws.store.db, { clientCode: 'SIM-CARP-1' }, admin)).length).toBe(1);
    expect((await ws.runner.repository.list(ws.store.db, { awaiting: 'initiator', from: '2026-11-23', to: '2026-11-23' }, admin)).length).toBe(2);
    expect((await ws.runner.repository.list(ws.store.db, { from: '2026-11-24' }, admin)).length).toBe(0);
    const expired = await ws.runner.act(one.instanceId, 'expire', systemUser, { code: 'OTC_LIMIT_DATE_EXCEEDED' });
    expect(expired).toMatchObject({ status: 'expired', reason: { code: 'OTC_LIMIT_DATE_EXCEEDED', text: null } });
  });
});
