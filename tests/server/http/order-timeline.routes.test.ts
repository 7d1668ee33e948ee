import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderTimelineSchema } from '../../../protocol/order-timeline.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/** GET /orders/:orderId/timeline over HTTP: who may read it, read-your-writes, the schema. */
let t: TestServer;
let broker1: string;
let broker2: string;
let agency1: string;
let client1: string;
let admin: string;
let askId: string;
let keySeq = 0;

async function place(token: string, order: Record<string, unknown>) {
  const result = await t.post('/orders', { idempotencyKey: `timeline-route-${++keySeq}`, validityType: 'day', ...order }, token);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body.order as { orderId: string };
}

beforeAll(async () => {
  t = await startTestServer({ tickIntervalMs: 0 });
  [broker1, broker2, agency1, client1, admin] = [await t.login('broker1'), await t.login('broker2'), await t.login('agency1'), await t.login('client1'), await t.login('admin')];
  askId = (await place(broker1, { assetId: 'GSPOT-DA', way: 'ask', price: 15_000, qty: 100, clientCode: 'RO-HIDRO' })).orderId;
  await place(broker2, { assetId: 'GSPOT-DA', way: 'bid', price: 15_000, qty: 30, clientCode: 'RO-TERMO' });
});
afterAll(async () => {
  await t?.server.close();
});

describe('GET /orders/:orderId/timeline', () => {
  it('answers the order just placed and filled, without waiting by hand (read your writes)', async () => {
    const result = await t.get(`/orders/${askId}/timeline`, broker1);
    expect(result.status).toBe(200);
    const timeline = orderTimelineSchema.parse(result.body);
    expect(timeline.order).toMatchObject({ orderId: askId, clientCode: 'RO-HIDRO', tradedQty: 30 });
    expect(timeline.entries.map((entry) => entry.kind)).toEqual(['entered', 'fill', 'clearing']);
    expect(timeline.entries[1]).toMatchObject({ kind: 'fill', price: 15_000, qty: 30, remainingQty: 70 });
    expect(timeline.readModel).toEqual({ seq: t.server.projector.health.writtenSeq, behindBy: 0 });
    expect(JSON.stringify(result.body)).not.toContain('RO-TERMO');
  });

  it('is seen by the agency of the client and the administrator', async () => {
    for (const token of [agency1, admin]) {
      const result = await t.get(`/orders/${askId}/timeline`, token);
      expect(result.status).toBe(200);
      expect(orderTimelineSchema.parse(result.body).order.orderId).toBe(askId);
    }
  });

  it('answers another agency\'s user, a user of the client on other markets, an unknown and a malformed id as ORDER_NOT_FOUND', async () => {
    const other = await t.get(`/orders/${askId}/timeline`, broker2);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: { code: 'ORDER_NOT_FOUND', params: { orderId: askId } } });
    // client1 acts for RO-HIDRO but only on the electricity markets.
    expect((await t.get(`/orders/${askId}/timeline`, client1)).body.error).toEqual({ code: 'ORDER_NOT_FOUND', params: { orderId: askId } });
    expect((await t.get('/orders/999999/timeline', broker1)).body.error).toEqual({ code: 'ORDER_NOT_FOUND', params: { orderId: '999999' } });
    expect((await t.get('/orders/abc/timeline', broker1)).body.error).toEqual({ code: 'ORDER_NOT_FOUND', params: { orderId: 'abc' } });
  });

  it('wants a signed-in user', async () => {
    expect((await t.get(`/orders/${askId}/timeline`)).status).toBe(401);
  });
});
