import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login('broker1');
});
afterAll(async () => {
  await t?.server.close();
});

/** A POST as common HTTP clients send a body-less one: `Content-Type: application/json` and nothing after it. */
async function postRaw(path: string, body: string | undefined) {
  const response = await fetch(t.api + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });
  return { status: response.status, body: (await response.json()) as { error?: { code: string }; order?: { orderId: string; status: string; suspended: boolean } } };
}

describe('body-less POSTs with Content-Type: application/json', () => {
  it('suspend, activate and cancel an order with an empty body, as with {}', async () => {
    const placed = await t.post('/orders', { idempotencyKey: 'empty-body-000001', assetId: 'GSPOT-DA', way: 'bid', price: 14_000, qty: 50, validityType: 'day', clientCode: 'RO-HIDRO' }, token);
    expect(placed.status).toBe(201);
    const orderId = placed.body.order.orderId as string;
    const suspended = await postRaw(`/orders/${orderId}/suspend`, undefined);
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
    // Whitespace only is no body either.
    const activated = await postRaw(`/orders/${orderId}/activate`, ' \r\n');
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);
    const cancelled = await postRaw(`/orders/${orderId}/cancel`, '');
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
  });

  it('a non-empty malformed body stays REQUEST_MALFORMED_JSON, and an empty body where one is needed is REQUEST_INVALID', async () => {
    const malformed = await postRaw('/orders/O1/cancel', '{"x": ');
    expect(malformed).toMatchObject({ status: 400, body: { error: { code: 'REQUEST_MALFORMED_JSON' } } });
    const poisoned = await postRaw('/orders/O1/cancel', '{"__proto__": {"admin": true}}');
    expect(poisoned.status).toBe(400);
    const emptyOrder = await postRaw('/orders', '');
    expect(emptyOrder).toMatchObject({ status: 400, body: { error: { code: 'REQUEST_INVALID' } } });
  });
});
