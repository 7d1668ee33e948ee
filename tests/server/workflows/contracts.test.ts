import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../protocol/market-data.ts';
import type { WorkflowInstance } from '../../../protocol/workflows.ts';
import { readContractFile, sha256Of } from '../../../server/workflows/contract-files.ts';
import { ContractService } from '../../../server/workflows/contracts.ts';
import type { WorkflowRunner } from '../../../server/workflows/workflow-runner.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { openWorkflowStore, type WorkflowStore } from '../../helpers/workflow-store.ts';

/** A transaction of the read model, as the projector writes it. */
function contractTransaction(transactionId: string, buyer: string, seller: string, timestamp = '2026-11-23T10:00:00.000Z'): Transaction {
  return {
    transactionId,
    assetId: 'GSPOT-DA',
    price: 12_345,
    qty: 10_000,
    noCnt: 10,
    aggressor: 'bid',
    txDate: timestamp.slice(0, 10),
    timestamp,
    buyer,
    seller,
    buyOrderId: '1',
    sellOrderId: '2',
    marginsExposureActive: false,
    externalTransactionId: null,
    gasfwTransactionId: null,
    transferTimestamp: null,
    parentTransactionId: null,
    grandParentTransactionId: null,
    splitTimestamp: null,
  };
}

function pdfBytes(size = 2_000, marker = 'contract'): Buffer {
  const bytes = Buffer.alloc(size, 0x20);
  bytes.write(`%PDF-1.7\n% ${marker}\n`);
  return bytes;
}

/**
 * The contract service on the runner and a real database (the HTTP side, multipart included, is
 * contracts.routes.test.ts). RO-HIDRO is broker1's and client1's client, RO-TERMO broker2's,
 * RO-GAZEST broker1's and terminal1's (read only).
 */
describe.each(testDatabases)('transaction contracts on $name', (database) => {
  let w: WorkflowStore;
  let service: ContractService;
  let logged: string[];

  beforeAll(async () => {
    w = await openWorkflowStore(database);
    await w.store.trading.insertTransactions([
      contractTransaction('7001', 'RO-HIDRO', 'RO-TERMO'),
      contractTransaction('7002', 'RO-GAZEST', 'RO-TERMO'),
      contractTransaction('7003', 'RO-TERMO', 'SIM-NORD-1'),
    ]);
  });
  afterAll(async () => {
    await w.close();
  });
  beforeEach(async () => {
    for (const table of ['transaction_contract_files', 'workflow_events', 'workflow_requests', 'workflow_instances']) await w.store.db.query(`delete from ${table}`);
    logged = [];
    service = new ContractService(w.runner, { db: w.store.db, now: w.clock.now }, (message) => void logged.push(message));
  });

  async function upload(username: string, transactionId: string, bytes = pdfBytes(), fileName = 'contract.pdf', key?: string): Promise<WorkflowInstance> {
    w.clock.advance(1_000);
    return service.upload({ transactionId, fileName, bytes }, await w.actor(username), key);
  }
  async function act(instance: WorkflowInstance, action: string, username: string, reason?: string): Promise<WorkflowInstance> {
    w.clock.advance(1_000);
    return w.runner.act(instance.instanceId, action, await w.actor(username), { reason }, service.sideEffects(action));
  }
  async function refusal(promise: Promise<unknown>): Promise<{ code: string; params: unknown }> {
    const error = (await promise.then(
      () => null,
      (caught: unknown) => caught,
    )) as { code: string; params: unknown } | null;
    if (!error) throw new Error('expected a refusal');
    return { code: error.code, params: error.params };
  }
  const count = async () => (await w.store.db.query<{ n: number }>('select count(*)::int as n from workflow_instances'))[0]!.n;

  it('stores the upload with the state change: bytes, name, size and sha256; the other participant then accepts, the administrator approves', async () => {
    const bytes = pdfBytes(3_000);
    const uploaded = await upload('broker1', '7001', bytes, 'Contract ștampilat.pdf');
    expect(uploaded.kind).toBe('contract');
    expect(uploaded.status).toBe('AWAITING_PARTNER_ACCEPT');
    expect(uploaded.waitingOn).toBe('partner');
    expect([uploaded.initiatorClient, uploaded.partnerClient]).toEqual(['RO-HIDRO', 'RO-TERMO']);
    expect(uploaded.data).toEqual({
      transactionId: '7001',
      assetId: 'GSPOT-DA',
      buyer: 'RO-HIDRO',
      seller: 'RO-TERMO',
      date: '2026-11-23',
      fileName: 'Contract ștampilat.pdf',
      fileSize: 3_000,
      sha256: sha256Of(bytes),
      uploadedAt: uploaded.updatedAt,
    });
    expect(uploaded.history.map((event) => [event.action, event.fromStatus, event.toStatus])).toEqual([
      ['create', null, 'NOT_INITIALIZED'],
      ['upload', 'NOT_INITIALIZED', 'AWAITING_PARTNER_ACCEPT'],
    ]);
    const stored = await readContractFile(w.store.db, uploaded.instanceId);
    expect(stored?.fileName).toBe('Contract ștampilat.pdf');
    expect(stored?.sha256).toBe(sha256Of(bytes));
    expect(stored?.content.equals(bytes)).toBe(true);

    // The uploader's side cannot accept its own upload; the other side can.
    await expect(act(uploaded, 'accept', 'client1')).rejects.toMatchObject({ code: 'WORKFLOW_ACTION_NOT_ALLOWED' });
    const accepted = await act(uploaded, 'accept', 'broker2');
    expect(accepted.status).toBe('AWAITING_ADMIN_APPROVAL');
    expect(accepted.waitingOn).toBe('administrator');
    const finalized = await act(accepted, 'approve', 'admin');
    expect(finalized.status).toBe('FINALIZED');
    expect(finalized.data).toMatchObject({ fileName: 'Contract ștampilat.pdf' });
    // finalized: one contract per transaction
    expect(await refusal(upload('broker2', '7001'))).toEqual({ code: 'CONTRACT_EXISTS', params: { transactionId: '7001' } });
  });

  it('one contract per transaction: a second upload while one waits is CONTRACT_EXISTS and changes nothing', async () => {
    const first = await upload('broker1', '7001', pdfBytes(2_000, 'first'));
    expect(await refusal(upload('broker2', '7001', pdfBytes(2_000, 'second')))).toEqual({ code: 'CONTRACT_EXISTS', params: { transactionId: '7001' } });
    expect(await refusal(upload('client1', '7001', pdfBytes(2_000, 'third')))).toEqual({ code: 'CONTRACT_EXISTS', params: { transactionId: '7001' } });
    expect((await readContractFile(w.store.db, first.instanceId))?.content.equals(pdfBytes(2_000, 'first'))).toBe(true);
    expect(await count()).toBe(1);
  });

  it('two first uploads at once: one contract, the other CONTRACT_EXISTS', async () => {
    const [a, b] = await Promise.allSettled([upload('broker1', '7001', pdfBytes(2_000, 'a')), upload('broker2', '7001', pdfBytes(2_000, 'b'))]);
    const outcomes = [a, b].map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.status : (outcome.reason as { code: string }).code)).sort();
    expect(outcomes).toEqual(['AWAITING_PARTNER_ACCEPT', 'CONTRACT_EXISTS']);
    expect(await count()).toBe(1);
    expect(await w.store.db.query('select instance_id from transaction_contract_files')).toHaveLength(1);
  });

  it('a rejection discards the file and leaves NOT_INITIALIZED: either side may upload a new one, which replaces it', async () => {
    const first = await upload('broker1', '7001', pdfBytes(2_000, 'first'));
    const rejected = await act(first, 'reject', 'broker2', 'wrong delivery point');
    expect(rejected.status).toBe('NOT_INITIALIZED');
    expect(rejected.reason).toEqual({ text: 'wrong delivery point', code: null, params: {} });
    expect(rejected.data).toMatchObject({ fileName: null, fileSize: null, sha256: null, uploadedAt: null });
    expect(await readContractFile(w.store.db, first.instanceId)).toBeNull();
    await expect(service.file(first.instanceId, await w.actor('broker1'))).rejects.toMatchObject({ code: 'WORKFLOW_NOT_FOUND' });

    // This time the other side uploads; the uploader's side accepts.
    const second = await upload('broker2', '7001', pdfBytes(4_000, 'second'), 'contract-v2.pdf');
    expect(second.instanceId).toBe(first.instanceId);
    expect(second.status).toBe('AWAITING_PARTNER_ACCEPT');
    expect(second.data).toMatchObject({ fileName: 'contract-v2.pdf', fileSize: 4_000 });
    expect((await readContractFile(w.store.db, first.instanceId))?.content.equals(pdfBytes(4_000, 'second'))).toBe(true);
    await expect(act(second, 'accept', 'broker2')).rejects.toMatchObject({ code: 'WORKFLOW_ACTION_NOT_ALLOWED' });
    const accepted = await act(second, 'accept', 'broker1');
    // the administrator rejects too, and it starts over
    const again = await act(accepted, 'reject', 'admin', 'unsigned');
    expect(again.status).toBe('NOT_INITIALIZED');
    expect(again.history.map((event) => event.action)).toEqual(['create', 'upload', 'reject', 'upload', 'accept', 'reject']);
    expect(await count()).toBe(1);
  });

  it('the transaction must exist and be the user\'s: unknown and foreign ids answer alike, a terminal and the administrator are no participants', async () => {
    expect(await refusal(upload('broker1', '999999'))).toEqual({ code: 'CONTRACT_TRANSACTION_NOT_FOUND', params: { transactionId: '999999' } });
    expect(await refusal(upload('broker1', '7003'))).toEqual({ code: 'CONTRACT_TRANSACTION_NOT_FOUND', params: { transactionId: '7003' } });
    expect(await refusal(upload('client1', '7002'))).toEqual({ code: 'CONTRACT_TRANSACTION_NOT_FOUND', params: { transactionId: '7002' } });
    expect(await refusal(upload('terminal1', '7002'))).toEqual({ code: 'CONTRACT_NOT_PARTICIPANT', params: { transactionId: '7002' } });
    expect(await refusal(upload('admin', '7001'))).toEqual({ code: 'CONTRACT_NOT_PARTICIPANT', params: { transactionId: '7001' } });
    expect(await count()).toBe(0);
  });

  it('the file goes to the participants\' users and the administrator only', async () => {
    const bytes = pdfBytes(2_500);
    const uploaded = await upload('broker1', '7002', bytes);
    for (const username of ['broker1', 'broker2', 'terminal1', 'owner1', 'admin']) {
      const file = await service.file(uploaded.instanceId, await w.actor(username));
      expect(file.content.equals(bytes), username).toBe(true);
      expect(file.fileName).toBe('contract.pdf');
    }
    for (const username of ['client1', 'sim-nord']) {
      expect(await refusal(service.file(uploaded.instanceId, await w.actor(username))), username).toEqual({ code: 'WORKFLOW_NOT_FOUND', params: { instanceId: uploaded.instanceId } });
    }
    expect(await refusal(service.file('wf-none', await w.actor('admin')))).toEqual({ code: 'WORKFLOW_NOT_FOUND', params: { instanceId: 'wf-none' } });
  });

  it('an Idempotency-Key: the same upload retried gets the first answer, another file under it is refused', async () => {
    const first = await upload('broker1', '7001', pdfBytes(), 'contract.pdf', 'key-1');
    const retried = await upload('broker1', '7001', pdfBytes(), 'contract.pdf', 'key-1');
    expect(retried).toEqual(first);
    expect(await refusal(upload('broker1', '7001', pdfBytes(2_000, 'other'), 'contract.pdf', 'key-1'))).toEqual({ code: 'WORKFLOW_IDEMPOTENCY_KEY_REUSED', params: {} });
    expect(first.history).toHaveLength(2);
  });

  it('anything unexpected while storing is CONTRACT_UNKNOWN_ERROR, logged, and stores no file', async () => {
    const broken = Object.create(w.runner) as WorkflowRunner;
    broken.create = async () => {
      throw new Error('disk on fire');
    };
    service = new ContractService(broken, { db: w.store.db, now: w.clock.now }, (message) => void logged.push(message));
    expect(await refusal(upload('broker1', '7001'))).toEqual({ code: 'CONTRACT_UNKNOWN_ERROR', params: {} });
    expect(logged).toEqual(['contract upload for transaction 7001 failed']);
    expect(await w.store.db.query('select instance_id from transaction_contract_files')).toEqual([]);
  });
});
