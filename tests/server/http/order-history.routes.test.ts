import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderUpdateSchema } from '../../../protocol/index.ts';
import { orderEventsResponseSchema, orderHistoryPageSchema, type OrderEvent } from '../../../protocol/order-history.ts';
import { bucharestDate } from '../../../server/trading/time.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

let t: TestServer;
let token1: string;
let token2: string;
let adminToken: string;
let sessionDate: string;
/** broker1's ask on GSPOT-DA: created, modified, suspended, activated, partly then fully traded. */
let askId: string;
/** broker1's bid on GSPOT-WD (RO-GAZEST): created, then cancelled. */
let cancelledId: string;
/** broker2's bid that took two asks at once. */
let sweepId: string;

async function patch(path: string, body: unknown, token: string) {
  const response = await fetch(t.api + path, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

let keySeq = 0;
async function place(token: string, order: Record<string, unknown>) {
  const result = await t.post('/orders', { idempotencyKey: `history-${String(++keySeq).padStart(6, '0')}`, validityType: 'day', ...order }, token);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body.order as { orderId: string; status: string };
}

const kinds = (events: OrderEvent[]) => events.map((event) => event.kind);

beforeAll(async () => {
  t = await startTestServer({ tickIntervalMs: 0 });
  token1 = await t.login('broker1');
  token2 = await t.login('broker2');
  adminToken = await t.login('admin');
  sessionDate = bucharestDate(t.clock.now());

  askId = (await place(token1, { assetId: 'GSPOT-DA', way: 'ask', price: 15000, qty: 100, clientCode: 'RO-HIDRO' })).orderId;
  expect((await patch(`/orders/${askId}`, { price: 15100 }, token1)).status).toBe(200);
  expect((await t.post(`/orders/${askId}/suspend`, {}, token1)).status).toBe(200);
  expect((await t.post(`/orders/${askId}/activate`, {}, token1)).status).toBe(200);
  expect((await place(token2, { assetId: 'GSPOT-DA', way: 'bid', price: 15100, qty: 40, clientCode: 'RO-TERMO' })).status).toBe('traded');
  expect((await place(token2, { assetId: 'GSPOT-DA', way: 'bid', price: 15200, qty: 60, clientCode: 'RO-TERMO' })).status).toBe('traded');

  cancelledId = (await place(token1, { assetId: 'GSPOT-WD', way: 'bid', price: 9000, qty: 50, clientCode: 'RO-GAZEST' })).orderId;
  expect((await t.post(`/orders/${cancelledId}/cancel`, {}, token1)).body.order.status).toBe('cancelled');

  // Two resting asks on GSPOT-WD, then one bid that takes both: one event with two fills.
  await place(token1, { assetId: 'GSPOT-WD', way: 'ask', price: 15000, qty: 20, clientCode: 'RO-HIDRO' });
  await place(token1, { assetId: 'GSPOT-WD', way: 'ask', price: 15010, qty: 30, clientCode: 'RO-HIDRO' });
  sweepId = (await place(token2, { assetId: 'GSPOT-WD', way: 'bid', price: 15010, qty: 50, clientCode: 'RO-INDUS' })).orderId;
});
afterAll(async () => {
  await t?.server.close();
});

describe('GET /orders/history', () => {
  it("lists every order of the user's clients, live and finished, newest change first, with the total", async () => {
    const result = await t.get('/orders/history', token1);
    expect(result.status).toBe(200);
    const page = orderHistoryPageSchema.parse(result.body);
    expect(page.total).toBe(4);
    expect(page).toMatchObject({ offset: 0, limit: 50 });
    expect(page.items.map((order) => order.clientCode).sort()).toEqual(['RO-GAZEST', 'RO-HIDRO', 'RO-HIDRO', 'RO-HIDRO']);
    expect(page.items.find((order) => order.orderId === askId)).toMatchObject({ status: 'traded', tradedQty: 100, tradedPrice: 15100 });
    expect(page.items.find((order) => order.orderId === cancelledId)).toMatchObject({ status: 'cancelled' });
    const changes = page.items.map((order) => order.lastModifiedAt);
    expect(changes).toEqual([...changes].sort().reverse());
    // broker2 sees only its own clients' orders.
    const other = orderHistoryPageSchema.parse((await t.get('/orders/history', token2)).body);
    expect(other.total).toBe(3);
    expect(other.items.every((order) => ['RO-TERMO', 'RO-INDUS'].includes(order.clientCode))).toBe(true);
  });

  it('a live order is in the history as soon as it is acknowledged', async () => {
    const live = await place(token1, { assetId: 'GSPOT-DA', way: 'bid', price: 10000, qty: 10, clientCode: 'RO-GAZEST' });
    const page = orderHistoryPageSchema.parse((await t.get('/orders/history?status=created', token1)).body);
    expect(page.items.map((order) => order.orderId)).toContain(live.orderId);
    await t.post(`/orders/${live.orderId}/cancel`, {}, token1);
    const after = orderHistoryPageSchema.parse((await t.get('/orders/history?status=created', token1)).body);
    expect(after.items.map((order) => order.orderId)).not.toContain(live.orderId);
  });

  it('filters by asset, market, direction, status, client and session dates', async () => {
    const ids = async (query: string) => orderHistoryPageSchema.parse((await t.get(`/orders/history?${query}`, token1)).body).items.map((order) => order.orderId);
    expect(await ids('assetId=GSPOT-DA&clientCode=RO-HIDRO')).toEqual([askId]);
    expect(await ids('way=bid&status=cancelled&assetId=GSPOT-WD')).toEqual([cancelledId]);
    expect((await ids('marketId=GAS-SPOT')).length).toBe(5);
    expect(await ids('marketId=EL-SPOT')).toEqual([]);
    expect((await ids('status=traded')).sort()).toHaveLength(3);
    expect((await ids(`from=${sessionDate}&to=${sessionDate}`)).length).toBe(5);
    expect(await ids('from=2099-01-01')).toEqual([]);
    expect(await ids('to=2000-01-01')).toEqual([]);
  });

  it('pages with offset and limit, the total staying that of all pages', async () => {
    const all = orderHistoryPageSchema.parse((await t.get('/orders/history', token1)).body);
    const second = orderHistoryPageSchema.parse((await t.get('/orders/history?offset=1&limit=2', token1)).body);
    expect(second).toMatchObject({ total: all.total, offset: 1, limit: 2 });
    expect(second.items.map((order) => order.orderId)).toEqual(all.items.slice(1, 3).map((order) => order.orderId));
    const past = orderHistoryPageSchema.parse((await t.get('/orders/history?offset=40&limit=10', token1)).body);
    expect(past).toMatchObject({ items: [], total: all.total });
  });

  it('refuses bad filters with REQUEST_INVALID naming the field', async () => {
    const refusal = async (query: string, token = token1) => {
      const result = await t.get(`/orders/history?${query}`, token);
      expect(result.status, query).toBe(400);
      return result.body.error;
    };
    expect(await refusal('way=up')).toEqual({ code: 'REQUEST_INVALID', params: { field: 'way', issue: 'invalid_value' } });
    expect((await refusal('from=2026-11-23&to=2026-11-22')).params.field).toBe('from');
    expect((await refusal('from=22.11.2026')).params.field).toBe('from');
    // The shape of a date is not enough: the day must exist.
    expect((await refusal('from=2026-13-45')).params.field).toBe('from');
    expect((await refusal('to=2026-02-30')).params.field).toBe('to');
    expect((await refusal('limit=0')).params.field).toBe('limit');
    expect((await refusal('limit=501')).params.field).toBe('limit');
    expect((await refusal('status=expired')).params.field).toBe('status');
    expect((await refusal('sort=price')).params.field).toBe('sort');
    // Another user's client, an unknown asset and a market outside the user's are refused, not emptied.
    expect(await refusal('clientCode=RO-TERMO')).toEqual({ code: 'REQUEST_INVALID', params: { field: 'clientCode', issue: 'unknown' } });
    expect(await refusal('assetId=NOPE')).toEqual({ code: 'REQUEST_INVALID', params: { field: 'assetId', issue: 'unknown' } });
    const client1 = await t.login('client1');
    expect(await refusal('marketId=GAS-SPOT', client1)).toEqual({ code: 'REQUEST_INVALID', params: { field: 'marketId', issue: 'unknown' } });
    expect((await t.get('/orders/history')).body.error.code).toBe('AUTH_TOKEN_MISSING');
  });

  it("gives the administrator every client's orders", async () => {
    const page = orderHistoryPageSchema.parse((await t.get('/orders/history?limit=100', adminToken)).body);
    expect(new Set(page.items.map((order) => order.clientCode))).toEqual(new Set(['RO-HIDRO', 'RO-GAZEST', 'RO-TERMO', 'RO-INDUS']));
  });
});

describe('GET /orders/:orderId/events', () => {
  it('gives the created, changes and fills of an order in order, with the fill prices and quantities', async () => {
    const result = await t.get(`/orders/${askId}/events`, token1);
    expect(result.status).toBe(200);
    const { order, events } = orderEventsResponseSchema.parse(result.body);
    expect(order).toMatchObject({ orderId: askId, status: 'traded' });
    expect(kinds(events)).toEqual(['created', 'modified', 'suspended', 'activated', 'tradedPartially', 'traded']);
    expect(events[0]).toMatchObject({ price: 15000, qty: 100, offeredQty: 100, tradedQty: 0, fills: [], reason: null });
    expect(events[1]).toMatchObject({ price: 15100 });
    expect(events[2]).toMatchObject({ suspended: true });
    expect(events[3]).toMatchObject({ suspended: false });
    expect(events[4]).toMatchObject({ status: 'tradedPartially', tradedQty: 40, offeredQty: 60, fills: [{ price: 15100, qty: 40 }] });
    expect(events[5]).toMatchObject({ status: 'traded', tradedQty: 100, offeredQty: 0, fills: [{ price: 15100, qty: 60 }] });
    expect(events[4]!.fills[0]!.transactionId).not.toBe(events[5]!.fills[0]!.transactionId);
    const times = events.map((event) => event.at);
    expect(times).toEqual([...times].sort());
  });

  it('gives a cancellation with its reason and a sweep of two levels as one event with two fills', async () => {
    const cancelled = orderEventsResponseSchema.parse((await t.get(`/orders/${cancelledId}/events`, token1)).body);
    expect(kinds(cancelled.events)).toEqual(['created', 'cancelled']);
    expect(cancelled.events[1]).toMatchObject({ status: 'cancelled', reason: 'user' });

    const sweep = orderEventsResponseSchema.parse((await t.get(`/orders/${sweepId}/events`, token2)).body);
    expect(kinds(sweep.events)).toEqual(['created', 'traded']);
    expect(sweep.events[1]!.fills.map(({ price, qty }) => ({ price, qty }))).toEqual([
      { price: 15000, qty: 20 },
      { price: 15010, qty: 30 },
    ]);
  });

  it("answers another user's order, an unknown one and a malformed id as ORDER_NOT_FOUND", async () => {
    const other = await t.get(`/orders/${askId}/events`, token2);
    expect(other.status).toBe(404);
    expect(other.body.error).toEqual({ code: 'ORDER_NOT_FOUND', params: { orderId: askId } });
    expect((await t.get('/orders/999999/events', token1)).body.error).toEqual({ code: 'ORDER_NOT_FOUND', params: { orderId: '999999' } });
    expect((await t.get('/orders/abc/events', token1)).body.error).toEqual({ code: 'ORDER_NOT_FOUND', params: { orderId: 'abc' } });
    expect((await t.get(`/orders/${askId}/events`, adminToken)).status).toBe(200);
  });
});

describe('order call replies', () => {
  // Last in the file: the order it places would change the listings above.
  it('are the JSON text of { seq, order } in the schema\'s field order, as JSON', async () => {
    const call = async (method: string, path: string, body: unknown) => {
      const response = await fetch(t.api + path, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token1}` }, body: JSON.stringify(body) });
      return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
    };
    const added = await call('POST', '/orders', { idempotencyKey: 'reply-text-1', assetId: 'GSPOT-DA', way: 'bid', price: 9_000, qty: 10, validityType: 'day', clientCode: 'RO-HIDRO' });
    const modified = await call('PATCH', `/orders/${JSON.parse(added.text).order.orderId}`, { qty: 20 });
    const cancelled = await call('POST', `/orders/${JSON.parse(added.text).order.orderId}/cancel`, {});
    for (const [reply, status] of [[added, 201], [modified, 200], [cancelled, 200]] as const) {
      expect(reply.status).toBe(status);
      expect(reply.type).toBe('application/json; charset=utf-8');
      // The schema's parse lists the fields in the schema's (orderToWire's) order: the text JSON.stringify wrote before.
      expect(reply.text).toBe(JSON.stringify(orderUpdateSchema.parse(JSON.parse(reply.text))));
    }
    expect(JSON.parse(cancelled.text).order).toMatchObject({ status: 'cancelled', qty: 20, validity: null, tradedPrice: null });
  });
});
