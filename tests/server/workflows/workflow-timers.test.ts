import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OtcDealDraft } from '../../../protocol/workflows.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { startTestServer } from '../../helpers/test-server.ts';
import { openWorkflowStore, type WorkflowStore } from '../../helpers/workflow-store.ts';

const draft: OtcDealDraft = {
  clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', assetId: 'GFWD-M-2027-01', way: 'ask', qty: 100, price: 15000,
  firstDeliveryDate: '2026-11-25', lastDeliveryDate: '2026-11-25', noDeliveryDays: 1,
};

describe.each(testDatabases)('workflow timers on $name', (database) => {
  let ws: WorkflowStore;
  afterEach(async () => ws?.close());

  it('expire OTC deals and transfers whose limit passed, on the clock given, and leave the rest', async () => {
    ws = await openWorkflowStore(database);
    const { service, ledger } = ws.service();
    const [broker1, broker2] = [await ws.actor('broker1'), await ws.actor('broker2')];
    const soon = await service.otc.register(draft, broker1);
    const later = await service.otc.register({ ...draft, firstDeliveryDate: '2027-01-01', lastDeliveryDate: '2027-01-02', noDeliveryDays: 2 }, broker1);
    const transaction = ledger.seed({ assetId: 'GFWD-M-2027-01' });
    const transfer = await service.transfers.request({ transactionId: transaction.transactionId }, broker2);
    expect(soon.limitAt).toBe('2026-11-24T13:00:00.000Z');
    expect(await service.timers.sweep(Date.parse('2026-11-24T12:59:59Z'))).toBe(0);
    ws.clock.advance(86_400_000 * 2);
    expect(await service.timers.sweep()).toBe(1);
    const expired = await ws.runner.get(soon.instanceId, broker1);
    expect(expired).toMatchObject({ status: 'expired', waitingOn: 'none', reason: { code: 'OTC_LIMIT_DATE_EXCEEDED' } });
    expect(expired.history.at(-1)).toMatchObject({ action: 'expire', actorUserId: null, actorRole: 'system' });
    expect(await service.timers.sweep(Date.parse('2027-01-01T00:00:00Z'))).toBe(2);
    expect((await ws.runner.get(later.instanceId, broker1)).status).toBe('expired');
    expect(await ws.runner.get(transfer.instanceId, broker1)).toMatchObject({ status: 'failed', reason: { code: 'TRANSFER_LIMIT_DATE_EXCEEDED', params: { transactionId: transaction.transactionId } } });
    expect(await service.timers.sweep(Date.parse('2027-02-01T00:00:00Z'))).toBe(0);
  });
});

describe('workflow timers across a restart', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('expire a deal whose limit passed while the server was down, at the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wf-timers-'));
    dirs.push(dataDir);
    const first = await startTestServer({ dataDir, workflowTimerIntervalMs: 0 }, Date.parse('2026-11-23T09:00:00Z'));
    let instanceId: string;
    try {
      const token = await first.login('broker1');
      const created = await first.post('/workflows/otc', draft, token);
      expect(created.status).toBe(201);
      instanceId = created.body.instanceId;
    } finally {
      await first.server.close();
    }
    const second = await startTestServer({ dataDir, workflowTimerIntervalMs: 0 }, Date.parse('2026-11-24T14:00:00Z'));
    try {
      const token = await second.login('broker1');
      const { status, body } = await second.get(`/workflows/${instanceId}`, token);
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'expired', reason: { code: 'OTC_LIMIT_DATE_EXCEEDED' } });
    } finally {
      await second.server.close();
    }
  });
});
