import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_WINDOW_MS } from '../../../server/trading/idempotency-keys.ts';
import { MAX_VALIDITY_DAYS } from '../../../server/trading/trading-service.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

// Order fields that used to be accepted and ignored (issue 13, item 10): each is now refused with its code.
let t: TestServer;
let token: string;
const asset = 'GSPOT-DA';
let serial = 0;
const order = (fields: Record<string, unknown> = {}) => ({
  idempotencyKey: `fields-${String(++serial).padStart(6, '0')}`,
  assetId: asset,
  way: 'bid',
  price: 14_000,
  qty: 50,
  validityType: 'day',
  clientCode: 'RO-HIDRO',
  ...fields,
});

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login('broker1');
});
afterAll(async () => {
  await t?.server.close();
});

describe('POST /orders refuses fields it would otherwise ignore', () => {
  it('power per interval is derived by the exchange: sent, it is an unknown field', async () => {
    for (const powerPerInterval of [-5, 9e15, 2]) {
      const answer = await t.post('/orders', order({ powerPerInterval }), token);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ code: 'REQUEST_INVALID', params: { field: 'powerPerInterval', issue: 'unrecognized_keys' } });
    }
  });

  it('a noCnt that is not the quantity in contracts is refused; the matching one is accepted', async () => {
    const wrong = await t.post('/orders', order({ noCnt: 1e15 }), token);
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toEqual({ code: 'ORDER_CONTRACTS_MISMATCH', params: { noCnt: '1000000000000000', expected: '50' } });
    const right = await t.post('/orders', order({ noCnt: 50 }), token);
    expect(right.status).toBe(201);
    expect(right.body.order).toMatchObject({ qty: 50, noCnt: 50 });
  });

  it('a validity instant with day or GTC is refused, not silently dropped', async () => {
    for (const validityType of ['day', 'GTC']) {
      const answer = await t.post('/orders', order({ validityType, validity: '2026-12-31' }), token);
      expect(answer.status).toBe(422);
      expect(answer.body.error).toEqual({ code: 'ORDER_VALIDITY_NOT_EXPECTED', params: { validityType } });
    }
    const none = await t.post('/orders', order({ validityType: 'GTC', validity: null }), token);
    expect(none.status).toBe(201);
  });

  it(`a GTD beyond ${MAX_VALIDITY_DAYS} days (the year 275760) is refused with the furthest date allowed`, async () => {
    const now = t.clock.now();
    const max = new Date(now + MAX_VALIDITY_DAYS * 86_400_000).toISOString().slice(0, 10);
    const far = await t.post('/orders', order({ validityType: 'GTD', validity: '+275760-09-13T00:00:00.000Z' }), token);
    expect(far.status).toBe(422);
    expect(far.body.error).toEqual({ code: 'ORDER_VALIDITY_TOO_FAR', params: { max } });
    const justOver = await t.post('/orders', order({ validityType: 'GTD', validity: new Date(now + (MAX_VALIDITY_DAYS + 1) * 86_400_000).toISOString() }), token);
    expect(justOver.body.error?.code).toBe('ORDER_VALIDITY_TOO_FAR');
    const inRange = await t.post('/orders', order({ validityType: 'GTD', validity: new Date(now + 30 * 86_400_000).toISOString() }), token);
    expect(inRange.status).toBe(201);
  });

  it('a modify may not give a validity to a GTC order, nor one beyond the furthest date', async () => {
    const placed = await t.post('/orders', order({ validityType: 'GTC', validity: null }), token);
    const orderId = placed.body.order.orderId as string;
    const patch = (body: unknown) => fetch(`${t.api}/orders/${orderId}`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const withValidity = await patch({ validity: '2026-12-31' });
    expect(withValidity.status).toBe(422);
    expect(((await withValidity.json()) as { error: unknown }).error).toEqual({ code: 'ORDER_VALIDITY_NOT_EXPECTED', params: { validityType: 'GTC' } });
    const tooFar = await patch({ validityType: 'GTD', validity: '9999-12-31' });
    expect(((await tooFar.json()) as { error: { code: string } }).error.code).toBe('ORDER_VALIDITY_TOO_FAR');
    const toGtd = await patch({ validityType: 'GTD', validity: new Date(t.clock.now() + 86_400_000).toISOString() });
    expect(toGtd.status).toBe(200);
  });
});

describe('idempotency keys', () => {
  it('a retry with the same body returns the first order; the same key with another body is refused', async () => {
    const body = order();
    const first = await t.post('/orders', body, token);
    expect(first.status).toBe(201);
    const retry = await t.post('/orders', body, token);
    expect(retry.status).toBe(201);
    expect(retry.body.order.orderId).toBe(first.body.order.orderId);
    const other = await t.post('/orders', { ...body, price: 14_100 }, token);
    expect(other.status).toBe(422);
    expect(other.body.error).toEqual({ code: 'ORDER_IDEMPOTENCY_KEY_REUSED', params: { idempotencyKey: body.idempotencyKey } });
    // Another user may use the same key: keys are per user.
    const broker2 = await t.login('broker2');
    const theirs = await t.post('/orders', { ...body, price: 14_100, clientCode: 'RO-TERMO' }, broker2);
    expect(theirs.status).toBe(201);
    expect(theirs.body.order.orderId).not.toBe(first.body.order.orderId);
  });

  it('a late retry (key settled after the retry window) gets the order as it is now, live or from the read model', async () => {
    const body = order();
    const first = await t.post('/orders', body, token);
    const orderId = first.body.order.orderId as string;
    t.clock.advance(DEFAULT_RETRY_WINDOW_MS + 60_000);
    const live = await t.post('/orders', body, token);
    expect(live.status).toBe(201);
    expect(live.body.order).toMatchObject({ orderId, status: 'created' });
    expect((await t.post('/orders', { ...body, qty: 70 }, token)).body.error.code).toBe('ORDER_IDEMPOTENCY_KEY_REUSED');

    expect((await t.post(`/orders/${orderId}/cancel`, {}, token)).status).toBe(200);
    for (let tries = 0; (await t.server.store.trading.order(orderId))?.status !== 'cancelled'; tries++) {
      expect(tries).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const gone = await t.post('/orders', body, token);
    expect(gone.status).toBe(201);
    expect(gone.body.order).toMatchObject({ orderId, status: 'cancelled' });
    expect(gone.body.seq).toBe(first.body.seq);
  });

  it('two parallel sends of one key with different bodies: one order, the other refused', async () => {
    const body = order();
    const [a, b] = await Promise.all([t.post('/orders', body, token), t.post('/orders', { ...body, qty: 60 }, token)]);
    expect([a.status, b.status]).toEqual([201, 422]);
    expect(b.body.error.code).toBe('ORDER_IDEMPOTENCY_KEY_REUSED');
  });
});
