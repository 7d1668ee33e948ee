import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearingChangeSchema, destinations, financialReportSchema, warrantySchema } from '../../../protocol/index.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

// The test clock starts on 2026-11-22 (Bucharest); the demo collateral is dated from that day.
let t: TestServer;
let admin: string;
let broker1: string;
let broker2: string;

async function put(path: string, body: unknown, token: string) {
  const response = await fetch(t.api + path, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const fundsOf = (clientCode: string) => t.server.sequencer.engine.getClientFinancials(clientCode)?.funds;
const warranty = (overrides: Record<string, unknown> = {}) => ({
  clientCode: 'RO-GAZEST',
  warrantyNumber: 'SGB-TEST-1',
  warrantyName: 'Scrisoare de garanție bancară de test',
  kind: 'bank_guarantee',
  depositDate: '2026-11-20',
  validityDate: '2027-11-20',
  value: 100_000_000,
  currency: 'RON',
  ...overrides,
});

describe.each(testDatabases)('collateral routes on $name', (database) => {
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const created = await database.create();
    drop = created.drop;
    t = await startTestServer({ tickIntervalMs: 0, dataDir: created.dataDir, databaseUrl: created.databaseUrl });
    admin = await t.login('admin');
    broker1 = await t.login('broker1');
    broker2 = await t.login('broker2');
  });
  afterAll(async () => {
    await t?.server.close();
    await drop();
  });

  describe('warranties', () => {
    it('lists the demo warranties of the caller clients only, with their status on the day', async () => {
      const response = await t.get('/clearing/warranties', broker1);
      expect(response.status).toBe(200);
      expect(response.body.amountDecimals).toBe(2);
      const items = response.body.items.map((item: unknown) => warrantySchema.parse(item));
      expect(new Set(items.map((item: { clientCode: string }) => item.clientCode))).toEqual(new Set(['RO-HIDRO', 'RO-GAZEST']));
      const hidro = items.filter((item: { clientCode: string }) => item.clientCode === 'RO-HIDRO');
      expect(hidro.map((item: { warrantyNumber: string; status: string }) => [item.warrantyNumber, item.status]).sort()).toEqual([
        ['DEP-0042', 'active'],
        ['SGB-BCR-077', 'expired'],
        ['SGB-BRD-118', 'active'],
      ]);
      // The active ones add up to the funds the engine checks.
      expect(hidro.filter((item: { status: string }) => item.status === 'active').reduce((sum: number, item: { value: number }) => sum + item.value, 0)).toBe(fundsOf('RO-HIDRO'));
      expect((await t.get('/clearing/warranties?clientCode=RO-TERMO', broker1)).body.error.code).toBe('CLEARING_CLIENT_NOT_FOUND');
      expect((await t.get('/clearing/warranties?from=2026-12-01&to=2026-11-01', broker1)).body.error.code).toBe('CLEARING_DATE_RANGE_INVALID');
    });

    it('records, edits and releases a warranty, and the engine funds follow each step', async () => {
      const before = fundsOf('RO-GAZEST')!;
      expect((await t.post('/admin/clearing/warranties', warranty(), broker1)).status).toBe(403);

      const created = await t.post('/admin/clearing/warranties', warranty(), admin);
      expect(created.status).toBe(201);
      expect(warrantySchema.parse(created.body)).toMatchObject({ clientCode: 'RO-GAZEST', clientName: 'Gaz Est Distributie SRL', status: 'active', releasedAt: null });
      expect(fundsOf('RO-GAZEST')).toBe(before + 100_000_000);
      const limits = await t.get('/account/limits?clientCode=RO-GAZEST', broker1);
      expect(limits.body.items[0].clearingLimit).toBe(before + 100_000_000);
      const id = created.body.clientWarrantyId as string;

      // Deposited tomorrow: pending, not counting today.
      const edited = await put(`/admin/clearing/warranties/${id}`, warranty({ depositDate: '2026-11-23', value: 250_000_000 }), admin);
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ status: 'pending', value: 250_000_000 });
      expect(fundsOf('RO-GAZEST')).toBe(before);
      expect((await put(`/admin/clearing/warranties/${id}`, warranty({ value: 250_000_000 }), admin)).body.status).toBe('active');
      expect(fundsOf('RO-GAZEST')).toBe(before + 250_000_000);

      const released = await t.post(`/admin/clearing/warranties/${id}/release`, {}, admin);
      expect(released.status).toBe(200);
      expect(released.body.status).toBe('released');
      expect(released.body.releasedAt).toBe(new Date(t.clock.now()).toISOString());
      expect(fundsOf('RO-GAZEST')).toBe(before);
      expect((await t.get('/clearing/financial-report?clientCode=RO-GAZEST', broker1)).body.items[0].clearingLimit).toBe(before);

      expect((await t.post(`/admin/clearing/warranties/${id}/release`, {}, admin)).body.error).toMatchObject({ code: 'CLEARING_WARRANTY_RELEASED', params: { clientWarrantyId: id } });
      expect((await put(`/admin/clearing/warranties/${id}`, warranty(), admin)).body.error.code).toBe('CLEARING_WARRANTY_RELEASED');
    });

    it('refuses bad warranties with their codes', async () => {
      const refusal = async (body: unknown) => (await t.post('/admin/clearing/warranties', body, admin)).body.error;
      expect(await refusal(warranty({ warrantyNumber: 'X-1', validityDate: '2026-11-20' }))).toMatchObject({ code: 'CLEARING_WARRANTY_DATES_INVALID', params: { depositDate: '2026-11-20', validityDate: '2026-11-20' } });
      expect(await refusal(warranty({ warrantyNumber: 'X-2', currency: 'EUR' }))).toMatchObject({ code: 'CLEARING_WARRANTY_CURRENCY', params: { currency: 'EUR', expected: 'RON' } });
      expect(await refusal(warranty({ warrantyNumber: 'X-3', clientCode: 'RO-NOBODY' }))).toMatchObject({ code: 'CLEARING_CLIENT_NOT_FOUND' });
      expect(await refusal(warranty({ warrantyNumber: 'SGB-BT-2291' }))).toMatchObject({ code: 'CLEARING_WARRANTY_DUPLICATE', params: { warrantyNumber: 'SGB-BT-2291' } });
      expect(await refusal(warranty({ value: -5 }))).toMatchObject({ code: 'REQUEST_INVALID', params: { field: 'value' } });
      expect((await t.post('/admin/clearing/warranties/W-nope/release', {}, admin)).body.error).toMatchObject({ code: 'CLEARING_WARRANTY_NOT_FOUND' });
      expect((await put('/admin/clearing/warranties/W-nope', warranty(), admin)).status).toBe(404);
    });
  });

  describe('live clearing messages', () => {
    let collector2: CollectingClient;
    let collector1: CollectingClient;
    beforeAll(async () => {
      collector2 = await connectCollector(t.server.port, broker2);
      collector1 = await connectCollector(t.server.port, broker1);
      for (const collector of [collector1, collector2]) {
        await collector.subscribe(destinations.clearing);
        await collector.subscribe(destinations.notifications);
      }
    });
    afterAll(async () => {
      await Promise.all([collector1?.close(), collector2?.close()]);
    });

    it('a warranty change reaches the client agency users, and a warranty about to expire notifies them', async () => {
      const created = await t.post('/admin/clearing/warranties', warranty({ clientCode: 'RO-TERMO', warrantyNumber: 'SHORT-1', validityDate: '2026-11-26' }), admin);
      expect(created.status).toBe(201);
      const changes = await collector2.waitFor<unknown>(destinations.clearing, (messages) => messages.some((message) => clearingChangeSchema.parse(message).clientCode === 'RO-TERMO'));
      expect(changes.map((message) => clearingChangeSchema.parse(message)).find((message) => message.clientCode === 'RO-TERMO')).toMatchObject({ kind: 'warranty' });
      const notices = await collector2.waitFor<{ messageKey: string; values: Record<string, unknown> }>(destinations.notifications, (messages) =>
        messages.some((message) => message.values.warrantyNumber === 'SHORT-1'),
      );
      expect(notices.find((message) => message.values.warrantyNumber === 'SHORT-1')).toMatchObject({ kind: 'system', messageKey: 'notifications.warrantyExpiring', values: { clientCode: 'RO-TERMO', validityDate: '2026-11-26' } });
      // Another agency's broker hears nothing of RO-TERMO.
      expect((collector1.received.get(destinations.clearing) ?? []).some((message) => (message as { clientCode: string }).clientCode === 'RO-TERMO')).toBe(false);
    });
  });

  describe('financial report', () => {
    it('answers the report of each visible client', async () => {
      const response = await t.get('/clearing/financial-report', broker2);
      expect(response.status).toBe(200);
      const reports = response.body.items.map((item: unknown) => financialReportSchema.parse(item));
      expect(reports.map((report: { clientCode: string }) => report.clientCode)).toEqual(['RO-INDUS', 'RO-TERMO']);
      const indus = reports[0];
      expect(indus).toMatchObject({ clientName: 'Industria Metal SA', currency: 'RON', clearingLimit: 20_000_000_000, unpaidAmount: 0, engineFunds: 20_000_000_000 });
      expect(indus.withUnpaid).toEqual({ currentMarginRequirement: 0, creditLimit: 20_000_000_000, marginCall: 0 });
    });

    it('takes the trading-setup funds as the limit of a client with no warranty on record', async () => {
      const report = (await t.get('/clearing/financial-report?clientCode=SIM-NORD-1', admin)).body.items[0];
      expect(report).toMatchObject({ clearingLimit: 90_000_000_000, engineFunds: 90_000_000_000 });
      expect(report.withUnpaid.marginCall).toBe(0);
    });
  });

  describe('financial info', () => {
    let keySeq = 0;
    const order = (way: 'bid' | 'ask', price: number, qty: number) =>
      t.post('/orders', { idempotencyKey: `restrict-${++keySeq}`, assetId: 'GSPOT-DA', way, price, qty, validityType: 'GTC', clientCode: 'RO-GAZEST' }, broker1);

    it('sets the restrictions of a client in the engine, so its orders meet the imbalance rules', async () => {
      const restrictions = { imbalance: [{ assetId: 'GSPOT-DA', way: 'bid', quantity: 50 }], tradeableQuantity: [{ assetId: '*', bid: 1_000, ask: null }] };
      expect((await put('/admin/clearing/financial-info/RO-GAZEST', restrictions, broker1)).status).toBe(403);
      expect((await put('/admin/clearing/financial-info/RO-NOBODY', restrictions, admin)).body.error.code).toBe('CLEARING_CLIENT_NOT_FOUND');
      expect((await put('/admin/clearing/financial-info/RO-GAZEST', { ...restrictions, imbalance: [{ assetId: 'NOPE', way: 'bid', quantity: 1 }] }, admin)).body.error).toMatchObject({
        code: 'REQUEST_INVALID',
        params: { field: 'imbalance.0.assetId', issue: 'unknown' },
      });
      const set = await put('/admin/clearing/financial-info/RO-GAZEST', restrictions, admin);
      expect(set.status).toBe(200);

      const info = await t.get('/clearing/financial-info?clientCode=RO-GAZEST', broker1);
      expect(info.body.items[0]).toMatchObject({
        clientCode: 'RO-GAZEST',
        imbalance: [{ assetId: 'GSPOT-DA', way: 'bid', quantity: 50, quantityDecimals: 1 }],
        tradeableQuantity: [{ assetId: '*', bid: 1_000, ask: null, quantityDecimals: 1 }],
      });
      expect((await t.get('/clearing/financial-info?clientCode=RO-GAZEST', broker2)).status).toBe(404);

      expect((await order('ask', 90_000, 10)).body.error).toMatchObject({ code: 'ORDER_IMBALANCE_BID_ONLY', params: { quantity: '5.0' } });
      expect((await order('bid', 1_000, 60)).body.error).toMatchObject({ code: 'ORDER_IMBALANCE_QUANTITY_LIMIT', params: { limit: '5.0' } });
      expect((await order('bid', 1_000, 50)).status).toBe(201);

      // Lifted: the ask passes.
      expect((await put('/admin/clearing/financial-info/RO-GAZEST', { imbalance: [], tradeableQuantity: [] }, admin)).status).toBe(200);
      expect((await order('ask', 90_000, 10)).status).toBe(201);
    });
  });

  describe('nominations', () => {
    it('start from a physical trade, the broker edits them up to the contracted quantity until the deadline, then they lock', async () => {
      // GSPOT-DA made physical, delivered the day after its session (2026-11-23): nominations close 2026-11-22 14:00 Bucharest.
      await t.server.store.db.query("insert into asset_clearing_terms (asset_id, initial_margin_bps, physical) values ('GSPOT-DA', 1000, true)");
      const place = (token: string, clientCode: string, way: 'bid' | 'ask') =>
        t.post('/orders', { idempotencyKey: `nominate-${clientCode}-${way}`, assetId: 'GSPOT-DA', way, price: 16_000, qty: 20, validityType: 'GTC', clientCode }, token);
      expect((await place(broker1, 'RO-HIDRO', 'ask')).status).toBe(201);
      expect((await place(broker2, 'RO-TERMO', 'bid')).status).toBe(201);
      await t.server.projector.settled();

      const listed = await t.get('/clearing/nominations?clientCode=RO-HIDRO', broker1);
      expect(listed.status).toBe(200);
      expect(listed.body.items).toHaveLength(1);
      const nomination = listed.body.items[0];
      expect(nomination).toMatchObject({
        clientCode: 'RO-HIDRO', assetId: 'GSPOT-DA', way: 'ask', deliveryDay: '2026-11-23', unit: 'MWh', quantityDecimals: 1,
        contractedQty: 20, nominatedQty: 20, deadline: '2026-11-22T12:00:00.000Z', locked: false, updatedBy: null,
      });
      expect((await t.get('/clearing/nominations', broker2)).body.items.map((item: { clientCode: string; way: string }) => [item.clientCode, item.way])).toEqual([['RO-TERMO', 'bid']]);

      const path = `/clearing/nominations/${nomination.nominationId}`;
      const edited = await put(path, { nominatedQty: 15 }, broker1);
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ nominatedQty: 15, contractedQty: 20 });
      expect(edited.body.updatedBy).toEqual(expect.any(String));
      expect((await put(path, { nominatedQty: 25 }, broker1)).body.error).toMatchObject({ code: 'CLEARING_NOMINATION_QUANTITY', params: { max: '2.0', unit: 'MWh' } });
      expect((await put(path, { nominatedQty: 5 }, broker2)).body.error.code).toBe('CLEARING_NOMINATION_NOT_FOUND');
      expect((await put(path, { nominatedQty: 5 }, await t.login('agency1'))).body.error).toMatchObject({ code: 'FORBIDDEN' });

      t.clock.advance(Date.parse('2026-11-22T12:00:00.000Z') - t.clock.now());
      const late = await put(path, { nominatedQty: 10 }, await t.login('broker1'));
      expect(late.body.error).toMatchObject({ code: 'CLEARING_NOMINATION_LOCKED', params: { deadline: '2026-11-22T12:00:00.000Z' } });
      const after = (await t.get('/clearing/nominations?clientCode=RO-HIDRO', await t.login('broker1'))).body.items[0];
      expect(after).toMatchObject({ nominatedQty: 15, locked: true });
    });
  });
});
