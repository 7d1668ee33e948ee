import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../helpers/test-databases.ts';
import { refusalOf } from '../../helpers/refusal.ts';
import { openWorkflowStore, type WorkflowStore } from '../../helpers/workflow-store.ts';

describe.each(testDatabases)('margin activations on $name', (database) => {
  let ws: WorkflowStore;
  afterEach(async () => ws?.close());

  it('activates, is rejected, is asked again on the same instance and approved into the ledger', async () => {
    ws = await openWorkflowStore(database);
    const { service, ledger } = ws.service();
    const [broker1, broker2, admin] = [await ws.actor('broker1'), await ws.actor('broker2'), await ws.actor('admin')];
    const transaction = ledger.seed();
    const first = await service.marginActivations.request({ transactionId: transaction.transactionId }, broker1);
    expect(first).toMatchObject({ kind: 'marginActivation', status: 'awaitingApproval', waitingOn: 'administrator', data: { transactionId: transaction.transactionId, activatedAt: null } });
    expect(first.history.map((event) => event.action)).toEqual(['create', 'activate']);
    expect(await refusalOf(service.marginActivations.request({ transactionId: transaction.transactionId }, broker2))).toEqual({ code: 'WORKFLOW_ACTION_NOT_ALLOWED', params: { action: 'activate', status: 'awaitingApproval' } });
    await service.act(first.instanceId, { action: 'reject', reason: 'no collateral yet' }, admin);
    const again = await service.marginActivations.request({ transactionId: transaction.transactionId }, broker2);
    expect(again.instanceId).toBe(first.instanceId);
    expect(again.status).toBe('awaitingApproval');
    const active = await service.act(first.instanceId, { action: 'approve' }, admin);
    expect(active).toMatchObject({ status: 'active', data: { activatedAt: expect.any(String) } });
    expect(ledger.calls).toEqual([{ method: 'setTransactionMarginsExposure', transactionId: transaction.transactionId, active: true }]);
    expect(await refusalOf(service.marginActivations.request({ transactionId: transaction.transactionId }, broker1))).toEqual({ code: 'MARGIN_EXPOSURE_ALREADY_ACTIVE', params: { transactionId: transaction.transactionId } });
  });

  it('refuses a transaction already counted, and a non-participant like an unknown transaction', async () => {
    ws = await openWorkflowStore(database);
    const { service, ledger } = ws.service();
    const counted = ledger.seed({ marginsExposureActive: true });
    expect((await refusalOf(service.marginActivations.request({ transactionId: counted.transactionId }, await ws.actor('broker1')))).code).toBe('MARGIN_EXPOSURE_ALREADY_ACTIVE');
    const open = ledger.seed();
    expect(await refusalOf(service.marginActivations.request({ transactionId: open.transactionId }, await ws.actor('sim-nord')))).toEqual({ code: 'FORBIDDEN', params: { scope: 'participant' } });
    expect(await refusalOf(service.marginActivations.request({ transactionId: '424242' }, await ws.actor('broker1')))).toEqual({ code: 'FORBIDDEN', params: { scope: 'participant' } });
  });
});
