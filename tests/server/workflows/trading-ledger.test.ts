/**
 * The workflows on the real engine (TradingLedger over TradingService), over REST: an approved OTC deal
 * becomes an off-book transaction the engine and the read model hold, its margin exposure is switched on
 * by an approved activation, a book trade is transferred to the CCP asset with its remainder, and an
 * approved whitelist request makes the engine match the two clients on the bilateral asset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../protocol/market-data.ts';
import { workflowRoutes, type WorkflowInstance } from '../../../protocol/workflows.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const FORWARD = 'GFWD-M-2027-01';
const BILATERAL = 'GBIL-M-2027-01';

let t: TestServer;
let broker1: string;
let broker2: string;
let admin: string;

beforeAll(async () => {
  t = await startTestServer({ workflowTimerIntervalMs: 0 });
  broker1 = await t.login('broker1');
  broker2 = await t.login('broker2');
  admin = await t.login('admin');
});
afterAll(async () => t?.server.close());

async function act(instanceId: string, action: string, token: string): Promise<WorkflowInstance> {
  const answer = await t.post(workflowRoutes.action(instanceId), { action }, token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as WorkflowInstance;
}

async function readModelTransaction(transactionId: string): Promise<Transaction | undefined> {
  await t.server.projector.settled();
  const rows = await t.server.store.db.query<{ data: Transaction }>('select data from transactions where transaction_id = $1', [transactionId]);
  return rows[0]?.data;
}

describe('workflows on the engine', () => {
  let otcTransactionId: string;

  it('turns an approved OTC deal into an off-book transaction, margins off until activated', async () => {
    const created = await t.post(workflowRoutes.otc, {
      clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', assetId: FORWARD, way: 'bid', qty: 200, price: 15_500,
      firstDeliveryDate: '2027-01-01', lastDeliveryDate: '2027-01-31', noDeliveryDays: 31,
    }, broker1);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body as WorkflowInstance).instanceId;
    await act(id, 'activate', broker1);
    await act(id, 'acceptActivation', broker2);
    const finalized = await act(id, 'approve', admin);
    expect(finalized.status).toBe('finalized');
    otcTransactionId = (finalized.data as { transactionId: string }).transactionId;
    const held = t.server.sequencer.engine.getTransaction(Number(otcTransactionId));
    expect(held).toMatchObject({ origin: 'otc', marginsExposureActive: false });
    expect(await readModelTransaction(otcTransactionId)).toMatchObject({ origin: 'otc', buyer: 'RO-HIDRO', seller: 'RO-TERMO', qty: 200, price: 15_500, externalTransactionId: id });
  });

  it('switches the transaction\'s margin exposure on when the administrator approves the activation', async () => {
    const requested = await t.post(workflowRoutes.marginActivation, { transactionId: otcTransactionId }, broker2);
    expect(requested.status, JSON.stringify(requested.body)).toBe(201);
    const instance = requested.body as WorkflowInstance;
    expect(instance.status).toBe('awaitingApproval');
    expect((await act(instance.instanceId, 'approve', admin)).status).toBe('active');
    expect(t.server.sequencer.engine.getTransaction(Number(otcTransactionId))?.marginsExposureActive).toBe(true);
    const again = await t.post(workflowRoutes.marginActivation, { transactionId: otcTransactionId }, broker1);
    expect(again.body).toEqual({ error: { code: 'MARGIN_EXPOSURE_ALREADY_ACTIVE', params: { transactionId: otcTransactionId } } });
  });

  it('transfers a book trade to the CCP asset: the child carries its parent, the remainder stays', async () => {
    expect((await t.post('/orders', { idempotencyKey: 'wf-ask-0001', assetId: FORWARD, way: 'ask', price: 16_300, qty: 100, validityType: 'day', clientCode: 'RO-TERMO' }, broker2)).status).toBe(201);
    const bid = await t.post('/orders', { idempotencyKey: 'wf-bid-0001', assetId: FORWARD, way: 'bid', price: 16_300, qty: 100, validityType: 'day', clientCode: 'RO-HIDRO' }, broker1);
    expect(bid.body.order).toMatchObject({ status: 'traded' });
    await t.server.projector.settled();
    const [trade] = await t.server.store.db.query<{ transaction_id: string }>(`select transaction_id::text from transactions where asset_id = $1 and (data->>'price')::int = 16300`, [FORWARD]);
    const requested = await t.post(workflowRoutes.transfer, { transactionId: trade!.transaction_id, qty: 40 }, broker1);
    expect(requested.status, JSON.stringify(requested.body)).toBe(201);
    const id = (requested.body as WorkflowInstance).instanceId;
    await act(id, 'accept', broker2);
    const finalized = await act(id, 'approve', admin);
    expect(finalized.status).toBe('finalized');
    const data = finalized.data as { transferredTransactionId: string; remainderTransactionId: string; targetAssetId: string };
    expect(await readModelTransaction(data.transferredTransactionId)).toMatchObject({ assetId: data.targetAssetId, qty: 40, origin: 'transfer', parentTransactionId: trade!.transaction_id });
    expect(await readModelTransaction(data.remainderTransactionId)).toMatchObject({ assetId: FORWARD, qty: 60, origin: 'split', parentTransactionId: trade!.transaction_id });
    expect(await readModelTransaction(trade!.transaction_id)).toMatchObject({ status: 'superseded' });
  });

  it('makes the engine match two clients on the bilateral asset once the partner approves the whitelist request', async () => {
    expect((await t.post('/orders', { idempotencyKey: 'wf-bil-ask-1', assetId: BILATERAL, way: 'ask', price: 15_000, qty: 100, validityType: 'day', clientCode: 'RO-TERMO' }, broker2)).status).toBe(201);
    const levels = async () => (await t.get(`/assets/${BILATERAL}/tradeable-levels?clientCode=RO-HIDRO`, broker1)).body as { asks: Array<{ price: number; qty: number }> };
    expect((await levels()).asks.reduce((sum, level) => sum + level.qty, 0)).toBe(0);
    const requested = await t.post(workflowRoutes.whitelist, { clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', type: 'ALLOW_TRADING' }, broker1);
    expect(requested.status, JSON.stringify(requested.body)).toBe(201);
    expect((await act((requested.body as WorkflowInstance).instanceId, 'approve', broker2)).status).toBe('APPROVED');
    expect((await levels()).asks).toEqual([expect.objectContaining({ price: 15_000, qty: 100 })]);
    const bid = await t.post('/orders', { idempotencyKey: 'wf-bil-bid-1', assetId: BILATERAL, way: 'bid', price: 15_000, qty: 100, validityType: 'day', clientCode: 'RO-HIDRO' }, broker1);
    expect(bid.body.order).toMatchObject({ status: 'traded' });
  });
});
