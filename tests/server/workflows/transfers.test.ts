import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../helpers/test-databases.ts';
import { refusalOf } from '../../helpers/refusal.ts';
import { openWorkflowStore, type WorkflowStore } from '../../helpers/workflow-store.ts';

describe.each(testDatabases)('transfers on $name', (database) => {
  let ws: WorkflowStore;
  afterEach(async () => ws?.close());

  async function setup() {
    ws = await openWorkflowStore(database);
    const env = ws.service();
    return { ...env, broker1: await ws.actor('broker1'), broker2: await ws.actor('broker2'), admin: await ws.actor('admin'), sim: await ws.actor('sim-nord') };
  }

  it('requests, accepts and approves a partial transfer into the twin CCP asset, splitting the transaction', async () => {
    const { service, ledger, broker1, broker2, admin } = await setup();
    const original = ledger.seed();
    const transfer = await service.transfers.request({ transactionId: original.transactionId, qty: 400 }, broker2);
    expect(transfer).toMatchObject({
      kind: 'transfer', status: 'awaitingPartnerAccept', initiatorClient: 'RO-TERMO', partnerClient: 'RO-HIDRO', waitingOn: 'partner', limitAt: '2026-12-31T13:00:00.000Z',
      data: { transactionId: original.transactionId, targetAssetId: 'GCCP-M-2027-01', qty: 400, transactionQty: 1000, buyer: 'RO-HIDRO', seller: 'RO-TERMO' },
    });
    await service.act(transfer.instanceId, { action: 'accept' }, broker1);
    const finalized = await service.act(transfer.instanceId, { action: 'approve' }, admin);
    expect(finalized).toMatchObject({ status: 'finalized', data: { checksSkipped: false } });
    const transferred = ledger.transactions.get((finalized.data as Record<string, unknown>).transferredTransactionId as string)!;
    const remainder = ledger.transactions.get((finalized.data as Record<string, unknown>).remainderTransactionId as string)!;
    expect(transferred).toMatchObject({ assetId: 'GCCP-M-2027-01', qty: 400, parentTransactionId: original.transactionId, transferTimestamp: expect.any(String) });
    expect(remainder).toMatchObject({ assetId: 'GFWD-M-2027-01', qty: 600, parentTransactionId: original.transactionId, splitTimestamp: expect.any(String) });
    expect(ledger.calls.map((call) => call.method)).toEqual(['novateTransaction']);
    // Transferred: a new request on the original is refused (it would take the same novation again), the transferred one is in CCP.
    expect(await refusalOf(service.transfers.request({ transactionId: original.transactionId }, broker1))).toEqual({ code: 'TRANSFER_ALREADY_DONE', params: { transactionId: original.transactionId } });
  });

  it('refuses a non-participant and an unknown transaction alike, a second transfer in flight, and a quantity over the transaction', async () => {
    const { service, ledger, broker1, sim, admin } = await setup();
    const original = ledger.seed();
    expect(await refusalOf(service.transfers.request({ transactionId: original.transactionId }, sim))).toEqual({ code: 'TRANSFER_NOT_PARTICIPANT', params: { transactionId: original.transactionId } });
    expect(await refusalOf(service.transfers.request({ transactionId: '999999' }, broker1))).toEqual({ code: 'TRANSFER_NOT_PARTICIPANT', params: { transactionId: '999999' } });
    expect((await refusalOf(service.transfers.request({ transactionId: original.transactionId }, admin))).code).toBe('TRANSFER_NOT_PARTICIPANT');
    expect((await refusalOf(service.transfers.request({ transactionId: original.transactionId, qty: 1001 }, broker1))).code).toBe('REQUEST_INVALID');
    const first = await service.transfers.request({ transactionId: original.transactionId }, broker1);
    expect(first.initiatorClient).toBe('RO-HIDRO');
    expect(await refusalOf(service.transfers.request({ transactionId: original.transactionId }, broker1))).toEqual({ code: 'TRANSFER_IN_PROGRESS', params: { transactionId: original.transactionId } });
    await service.act(first.instanceId, { action: 'cancel' }, broker1);
    expect((await service.transfers.request({ transactionId: original.transactionId }, broker1)).status).toBe('awaitingPartnerAccept');
  });

  it('makes a gas release or twinless transaction non-transferable at once', async () => {
    const { service, ledger, broker1 } = await setup();
    const release = ledger.seed({ assetId: 'GREL-M-2027-01' });
    const gas = await service.transfers.request({ transactionId: release.transactionId }, broker1);
    expect(gas).toMatchObject({ status: 'nonTransferable', waitingOn: 'none', reason: { code: 'TRANSFER_GAS_RELEASE', params: { transactionId: release.transactionId } } });
    expect(gas.history.map((event) => [event.action, event.toStatus, event.actorRole])).toEqual([
      ['create', 'awaitingPartnerAccept', 'broker'],
      ['nonTransferable', 'nonTransferable', 'system'],
    ]);
    const quarter = ledger.seed({ assetId: 'GFWD-Q1-2027' });
    expect((await service.transfers.request({ transactionId: quarter.transactionId }, broker1)).reason).toMatchObject({ code: 'TRANSFER_ASSET_NOT_IN_MARKET' });
    const ccp = ledger.seed({ assetId: 'GCCP-M-2027-01' });
    expect((await service.transfers.request({ transactionId: ccp.transactionId }, broker1)).status).toBe('nonTransferable');
  });

  it('fails at approval with each check code, and approving without checks skips all but the structural ones', async () => {
    const { service, ledger, clearing, broker1, broker2, admin } = await setup();
    async function awaitingApproval() {
      const transaction = ledger.seed();
      const transfer = await service.transfers.request({ transactionId: transaction.transactionId }, broker1);
      await service.act(transfer.instanceId, { action: 'accept' }, broker2);
      return { transfer, transaction };
    }
    const cases: Array<{ code: string; arrange: () => Promise<void>; undo: () => Promise<void>; params?: Record<string, string> }> = [
      { code: 'TRANSFER_BUYER_NOT_ACTIVE', arrange: () => setActive('RO-HIDRO', false), undo: () => setActive('RO-HIDRO', true) },
      { code: 'TRANSFER_SELLER_NOT_ACTIVE', arrange: () => setActive('RO-TERMO', false), undo: () => setActive('RO-TERMO', true) },
      { code: 'TRANSFER_NO_SESSION', arrange: async () => void (clearing.sessions = false), undo: async () => void (clearing.sessions = true), params: { date: '2026-11-23' } },
      { code: 'TRANSFER_NO_SELL_AGENCY_BROKER', arrange: () => brokers('AG-CARP', '"client"'), undo: () => brokers('AG-CARP', '"broker"') },
      { code: 'TRANSFER_NO_BUY_AGENCY_BROKER', arrange: () => brokers('AG-NORD', '"client"'), undo: () => brokers('AG-NORD', '"broker"') },
      { code: 'TRANSFER_INITIATOR_INSUFFICIENT_FUNDS', arrange: async () => void clearing.funds.set('RO-HIDRO', 0), undo: async () => void clearing.funds.delete('RO-HIDRO') },
      { code: 'TRANSFER_PARTNER_INSUFFICIENT_FUNDS', arrange: async () => void clearing.funds.set('RO-TERMO', 0), undo: async () => void clearing.funds.delete('RO-TERMO') },
    ];
    async function setActive(code: string, active: boolean) {
      await ws.store.db.query('update clients set active = $2 where code = $1', [code, active]);
    }
    async function brokers(agency: string, role: string) {
      await ws.store.db.query(`update users set roles = $2::jsonb where agency_id = $1 and (roles ? 'broker' or roles ? 'client')`, [agency, `[${role}]`]);
    }
    for (const { code, arrange, undo, params } of cases) {
      const { transfer, transaction } = await awaitingApproval();
      await arrange();
      const failed = await service.act(transfer.instanceId, { action: 'approve' }, admin);
      expect({ code, status: failed.status, reason: failed.reason }).toEqual({ code, status: 'failed', reason: { text: null, code, params: { transactionId: transaction.transactionId, ...params } } });
      // The same failure does not stop the administrator who approves without checks.
      const other = await awaitingApproval();
      const skipped = await service.act(other.transfer.instanceId, { action: 'approveWithoutChecks' }, admin);
      expect({ code, status: skipped.status, checksSkipped: (skipped.data as Record<string, unknown>).checksSkipped }).toEqual({ code, status: 'finalized', checksSkipped: true });
      await undo();
    }
    // Structural: the limit date is not skipped.
    const { transfer } = await awaitingApproval();
    ws.clock.advance(40 * 86_400_000);
    const late = await service.act(transfer.instanceId, { action: 'approveWithoutChecks' }, admin);
    expect(late).toMatchObject({ status: 'failed', reason: { code: 'TRANSFER_LIMIT_DATE_EXCEEDED' } });
    expect(ledger.calls.filter((call) => call.method === 'novateTransaction')).toHaveLength(cases.length);
  });

  it('novates once when the commit is lost after the engine call', async () => {
    const { service, ledger, broker1, broker2, admin } = await setup();
    const original = ledger.seed();
    const transfer = await service.transfers.request({ transactionId: original.transactionId }, broker1);
    await service.act(transfer.instanceId, { action: 'accept' }, broker2);
    ledger.crashAfterNext();
    await expect(service.act(transfer.instanceId, { action: 'approve' }, admin)).rejects.toThrow(/crashed/);
    const finalized = await service.act(transfer.instanceId, { action: 'approve' }, admin);
    expect(ledger.calls.filter((call) => call.method === 'novateTransaction')).toHaveLength(1);
    expect(finalized.data).toMatchObject({ transferredTransactionId: expect.any(String), remainderTransactionId: null });
  });
});
