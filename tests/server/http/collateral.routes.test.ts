import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearingChangeSchema, destinations, financialReportSchema, warrantySchema } from '../../../protocol/index.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
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

beforeAll(async () => {
  t = await startTestServer({ tickIntervalMs: 0 });
  admin = await t.login('admin');
  broker1 = await t.login('broker1');
  broker2 = await t.login('broker2');
});
afterAll(async () => {
  await t?.server.close();
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
});
