import { afterEach, describe, expect, it } from 'vitest';
import { otcSimulationSchema, type OtcDealDraft } from '../../../protocol/workflows.ts';
import { priceBand } from '../../../server/workflows/otc-deals.ts';
import { ReadModelLedger } from '../../../server/workflows/workflow-environment.ts';
import type { OffBookTradeCommand } from '../../../server/workflows/workflow-ledger.ts';
import { MemoryLedger } from '../../helpers/memory-ledger.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { refusalOf } from '../../helpers/refusal.ts';
import { openWorkflowStore, type WorkflowStore } from '../../helpers/workflow-store.ts';

const draft: OtcDealDraft = {
  clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', assetId: 'GFWD-M-2027-01', way: 'bid', qty: 1000, price: 15000,
  firstDeliveryDate: '2027-01-01', lastDeliveryDate: '2027-01-31', noDeliveryDays: 31,
};
// 150.00 × 100.0 MWh = 15,000.00 RON; 10 % initial margin = 1,500.00 RON = 150000 bani.
const MARGIN = 150_000;

describe('OTC price band', () => {
  it('is 25 % either side of the settlement price, inside whole minor units', () => {
    expect(priceBand(10_000)).toEqual({ min: 7_500, max: 12_500 });
    expect(priceBand(10_001)).toEqual({ min: 7_501, max: 12_501 });
    expect(priceBand(null)).toBeNull();
  });
});

describe.each(testDatabases)('OTC deals on $name', (database) => {
  let ws: WorkflowStore;
  afterEach(async () => ws?.close());

  it('registers, activates, is accepted and approved into one transaction of origin otc', async () => {
    ws = await openWorkflowStore(database);
    const { service, ledger, clearing } = ws.service();
    clearing.prices.set('GFWD-M-2027-01', 14_000);
    const [broker1, broker2, admin] = [await ws.actor('broker1'), await ws.actor('broker2'), await ws.actor('admin')];
    const deal = await service.otc.register(draft, broker1);
    // limitAt: 15:00 Bucharest (EET, UTC+2) on 31 December 2026.
    expect(deal).toMatchObject({ kind: 'otc', status: 'new', limitAt: '2026-12-31T13:00:00.000Z', data: { settlementPrice: 14_000, transactionId: null } });
    const activated = await service.act(deal.instanceId, { action: 'activate' }, broker1);
    expect(activated.data).toMatchObject({ initiatedAt: expect.any(String) });
    await service.act(deal.instanceId, { action: 'acceptActivation' }, broker2);
    const finalized = await service.act(deal.instanceId, { action: 'approve' }, admin);
    expect(finalized).toMatchObject({ status: 'finalized', data: { transactionId: expect.any(String), txDate: expect.any(String), txTime: expect.any(String) } });
    expect(ledger.calls).toEqual([
      {
        method: 'registerOffBookTrade',
        cmd: {
          assetId: 'GFWD-M-2027-01', buyer: 'RO-HIDRO', seller: 'RO-TERMO', price: 15000, qty: 1000, origin: 'otc', parentTransactionId: null, grandParentTransactionId: null,
          transferTimestamp: null, splitTimestamp: null, externalTransactionId: deal.instanceId, marginsExposureActive: false,
        },
      },
    ]);
    const [listed] = await ws.runner.repository.list(ws.store.db, { transactionId: (finalized.data as Record<string, unknown>).transactionId as string }, admin);
    expect(listed?.instanceId).toBe(deal.instanceId);
  });

  it('refuses a draft for a client the user does not act for, the same client, bad dates, excluded assets, the band and a passed limit', async () => {
    ws = await openWorkflowStore(database);
    const { service, clearing } = ws.service();
    clearing.prices.set('GFWD-M-2027-01', 10_000);
    const broker1 = await ws.actor('broker1');
    expect(await refusalOf(service.otc.register({ ...draft, clientCode: 'RO-TERMO', partnerClientCode: 'RO-HIDRO', price: 10_000 }, broker1))).toEqual({ code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-TERMO' } });
    expect(await refusalOf(service.otc.register({ ...draft, partnerClientCode: 'RO-HIDRO', price: 10_000 }, broker1))).toEqual({ code: 'OTC_SAME_CLIENT', params: { clientCode: 'RO-HIDRO' } });
    expect(await refusalOf(service.otc.register({ ...draft, price: 10_000, lastDeliveryDate: '2026-12-31' }, broker1))).toEqual({
      code: 'OTC_DELIVERY_DATES_INVALID',
      params: { firstDeliveryDate: '2027-01-01', lastDeliveryDate: '2026-12-31' },
    });
    expect((await refusalOf(service.otc.register({ ...draft, price: 10_000, noDeliveryDays: 40 }, broker1))).code).toBe('OTC_DELIVERY_DATES_INVALID');
    expect(await refusalOf(service.otc.register({ ...draft, price: 10_000, assetId: 'GREL-M-2027-01' }, broker1))).toEqual({ code: 'OTC_ASSET_NOT_ALLOWED', params: { assetId: 'GREL-M-2027-01' } });
    expect((await refusalOf(service.otc.register({ ...draft, price: 10_000, assetId: 'PMC-BASE-W49', firstDeliveryDate: '2026-11-30', lastDeliveryDate: '2026-12-06', noDeliveryDays: 7 }, broker1))).code).toBe('OTC_ASSET_NOT_ALLOWED');
    expect(await refusalOf(service.otc.register({ ...draft, price: 13_000 }, broker1))).toEqual({ code: 'OTC_PRICE_VARIATION', params: { maxPercent: 25, settlementPrice: '100.00' } });
    expect((await refusalOf(service.otc.register({ ...draft, price: 7_499 }, broker1))).code).toBe('OTC_PRICE_VARIATION');
    expect((await service.otc.register({ ...draft, price: 12_500 }, broker1)).status).toBe('new');
    // Delivery on 24 November: the limit was 15:00 on the 23rd; the clock is the 23rd at 16:00 Bucharest.
    ws.clock.advance(5 * 3_600_000);
    expect(await refusalOf(service.otc.register({ ...draft, price: 10_000, firstDeliveryDate: '2026-11-24', lastDeliveryDate: '2026-11-24', noDeliveryDays: 1 }, broker1))).toEqual({
      code: 'OTC_LIMIT_DATE_EXCEEDED',
      params: {},
    });
  });

  it('refuses activation and acceptance without funds or with an inactive client, and rejects at approval when the checks fail', async () => {
    ws = await openWorkflowStore(database);
    const { service, clearing, ledger } = ws.service();
    const [broker1, broker2, admin] = [await ws.actor('broker1'), await ws.actor('broker2'), await ws.actor('admin')];
    const deal = await service.otc.register(draft, broker1);
    clearing.funds.set('RO-HIDRO', MARGIN - 1);
    expect(await refusalOf(service.act(deal.instanceId, { action: 'activate' }, broker1))).toEqual({ code: 'OTC_INITIATOR_INSUFFICIENT_FUNDS', params: {} });
    clearing.funds.set('RO-HIDRO', MARGIN);
    await ws.store.db.query(`update clients set active = false where code = 'RO-HIDRO'`);
    expect((await refusalOf(service.act(deal.instanceId, { action: 'activate' }, broker1))).code).toBe('OTC_INITIATOR_NOT_ACTIVE');
    await ws.store.db.query(`update clients set active = true where code = 'RO-HIDRO'`);
    await service.act(deal.instanceId, { action: 'activate' }, broker1);
    clearing.funds.set('RO-TERMO', 0);
    expect((await refusalOf(service.act(deal.instanceId, { action: 'acceptActivation' }, broker2))).code).toBe('OTC_PARTNER_INSUFFICIENT_FUNDS');
    await ws.store.db.query(`update clients set active = false where code = 'RO-TERMO'`);
    expect((await refusalOf(service.act(deal.instanceId, { action: 'acceptActivation' }, broker2))).code).toBe('OTC_PARTNER_NOT_ACTIVE');
    await ws.store.db.query(`update clients set active = true where code = 'RO-TERMO'`);
    clearing.funds.delete('RO-TERMO');
    expect((await service.act(deal.instanceId, { action: 'acceptActivation' }, broker2)).status).toBe('awaiting_admin_approval');
    // Funds spent meanwhile: the approval turns into the system's checksFailed.
    clearing.funds.set('RO-TERMO', 10);
    const rejected = await service.act(deal.instanceId, { action: 'approve' }, admin);
    expect(rejected).toMatchObject({ status: 'rejected', reason: { code: 'OTC_PARTNER_INSUFFICIENT_FUNDS', text: null } });
    expect(rejected.history.at(-1)).toMatchObject({ action: 'checksFailed', fromStatus: 'awaiting_admin_approval', toStatus: 'rejected' });
    expect(ledger.calls).toEqual([]);
  });

  it('registers the transaction once when the commit is lost after the engine call', async () => {
    ws = await openWorkflowStore(database);
    const { service, ledger } = ws.service();
    const [broker1, broker2, admin] = [await ws.actor('broker1'), await ws.actor('broker2'), await ws.actor('admin')];
    const deal = await service.otc.register(draft, broker1);
    await service.act(deal.instanceId, { action: 'activate' }, broker1);
    await service.act(deal.instanceId, { action: 'acceptActivation' }, broker2);
    ledger.crashAfterNext();
    await expect(service.act(deal.instanceId, { action: 'approve' }, admin)).rejects.toThrow(/crashed/);
    expect((await ws.runner.get(deal.instanceId, admin)).status).toBe('awaiting_admin_approval');
    const finalized = await service.act(deal.instanceId, { action: 'approve' }, admin);
    expect(ledger.calls.filter((call) => call.method === 'registerOffBookTrade')).toHaveLength(1);
    expect((finalized.data as Record<string, unknown>).transactionId).toBe((await ledger.transactionByExternalId(deal.instanceId))!.transactionId);
  });

  it('takes a trade the read model already holds for the deal, looked up inside the approval transaction', async () => {
    ws = await openWorkflowStore(database);
    const registered: string[] = [];
    const ledger = new (class extends ReadModelLedger {
      override async registerOffBookTrade(cmd: OffBookTradeCommand) {
        registered.push(cmd.externalTransactionId!);
        return new MemoryLedger().seed({ externalTransactionId: cmd.externalTransactionId });
      }
    })(ws.store.db);
    const { service } = ws.service(ledger);
    const [broker1, broker2, admin] = [await ws.actor('broker1'), await ws.actor('broker2'), await ws.actor('admin')];
    const deal = await service.otc.register(draft, broker1);
    await service.act(deal.instanceId, { action: 'activate' }, broker1);
    await service.act(deal.instanceId, { action: 'acceptActivation' }, broker2);
    // The engine registered it before a commit that was lost; the projector wrote it to the read model.
    const landed = new MemoryLedger(ws.clock.now).seed({ transactionId: '8001', externalTransactionId: deal.instanceId });
    await ws.store.db.query('insert into transactions (transaction_id, asset_id, buyer, seller, data, ts) values ($1,$2,$3,$4,$5,$6)', [
      landed.transactionId, landed.assetId, landed.buyer, landed.seller, JSON.stringify(landed), landed.timestamp,
    ]);
    const finalized = await service.act(deal.instanceId, { action: 'approve' }, admin);
    expect(finalized).toMatchObject({ status: 'finalized', data: { transactionId: '8001' } });
    expect(registered).toEqual([]);
  });

  it('simulates the exposure: margin and funds per side, the partner hidden from another agency', async () => {
    ws = await openWorkflowStore(database);
    const { service, clearing } = ws.service();
    clearing.prices.set('GFWD-M-2027-01', 14_000);
    clearing.funds.set('RO-HIDRO', MARGIN - 1);
    const simulation = otcSimulationSchema.parse(await service.otc.simulate(draft, await ws.actor('broker1')));
    expect(simulation).toEqual({
      currency: 'RON', value: 1_500_000, initiator: { clientCode: 'RO-HIDRO', margin: MARGIN, availableFunds: MARGIN - 1, sufficient: false }, partner: null,
      settlementPrice: 14_000, maxVariationPercent: 25, minPrice: 10_500, maxPrice: 17_500, priceWithinBand: true,
    });
    const own = await service.otc.simulate({ ...draft, partnerClientCode: 'RO-GAZEST', price: 20_000 }, await ws.actor('broker1'));
    expect(own).toMatchObject({ partner: { clientCode: 'RO-GAZEST', sufficient: true }, priceWithinBand: false });
    expect((await refusalOf(service.otc.simulate(draft, await ws.actor('broker2')))).code).toBe('ACCOUNT_CLIENT_FORBIDDEN');
  });
});
