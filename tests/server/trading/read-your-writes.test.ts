import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_SEQ_HEADER } from '../../../server/trading/read-your-writes.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

// Read-your-writes against the real server. The book is conflated over a window longer than the test,
// so the published book stays behind: what a `minSeq` read shows comes from the engine.
let t: TestServer;
let token1: string;
let token2: string;
const asset = 'GSPOT-DA';
let serial = 0;
const order = (fields: Record<string, unknown>) => ({
  idempotencyKey: `ryw-${String(++serial).padStart(8, '0')}`,
  assetId: asset,
  validityType: 'day',
  qty: 10,
  ...fields,
});

async function read(path: string, token: string): Promise<{ status: number; seq: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field
  const response = await fetch(t.api + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, seq: Number(response.headers.get(EXCHANGE_SEQ_HEADER)), body: await response.json() };
}

beforeAll(async () => {
  t = await startTestServer({ conflateMs: 600_000, readWaitMs: 300 });
  token1 = await t.login('broker1');
  token2 = await t.login('broker2');
});
afterAll(async () => {
  await t?.server.close();
});

describe('read-your-writes: the order reply seq, then reads with ?minSeq', () => {
  it("an order's 201 carries its journal seq; GET /books?minSeq=seq shows it at once, the published book does not yet", async () => {
    // The publisher builds an asset's book from the engine on its first read: read it once before.
    expect((await read(`/books/${asset}`, token1)).status).toBe(200);
    const placed = await t.post('/orders', order({ way: 'bid', price: 13_100, clientCode: 'RO-HIDRO' }), token1);
    expect(placed.status).toBe(201);
    const seq = placed.body.seq as number;
    expect(seq).toBe(t.server.sequencer.durableSeq);

    const published = await read(`/books/${asset}`, token1);
    expect(published.status).toBe(200);
    expect(published.body.bids.some((level: { price: number }) => level.price === 13_100)).toBe(false);
    expect(published.seq).toBeLessThan(seq);

    const fresh = await read(`/books/${asset}?minSeq=${seq}`, token1);
    expect(fresh.status).toBe(200);
    expect(fresh.seq).toBeGreaterThanOrEqual(seq);
    expect(fresh.body).toMatchObject({ type: 'snapshot', assetId: asset, seq: published.body.seq });
    expect(fresh.body.bids).toContainEqual({ price: 13_100, qty: 10, orders: 1 });

    // The cancel's reply carries its own, later seq; the book read at it no longer has the order.
    const cancelled = await t.post(`/orders/${placed.body.order.orderId}/cancel`, undefined, token1);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.seq).toBeGreaterThan(seq);
    const after = await read(`/books/${asset}?minSeq=${cancelled.body.seq}`, token1);
    expect(after.body.bids.some((level: { price: number }) => level.price === 13_100)).toBe(false);
  });

  it('a modify reply carries its seq too, and a cancel-all its own', async () => {
    const placed = await t.post('/orders', order({ way: 'bid', price: 13_000, clientCode: 'RO-HIDRO' }), token1);
    const response = await fetch(`${t.api}/orders/${placed.body.order.orderId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token1}` },
      body: JSON.stringify({ price: 13_050 }),
    });
    const modified = (await response.json()) as { seq: number; order: { price: number } };
    expect(modified.seq).toBeGreaterThan(placed.body.seq);
    expect((await read(`/books/${asset}?minSeq=${modified.seq}`, token1)).body.bids).toContainEqual({ price: 13_050, qty: 10, orders: 1 });
    const all = await t.post('/orders/cancel-all', {}, token1);
    expect(all.body.cancelled).toContain(placed.body.order.orderId);
    expect(all.body.seq).toBeGreaterThan(modified.seq);
    expect((await read(`/books/${asset}?minSeq=${all.body.seq}`, token1)).body.bids).toEqual([]);
  });

  it('GET /transactions?minSeq after a trade shows the trade; GET /orders/mine?history=true&minSeq shows the traded order', async () => {
    const ask = await t.post('/orders', order({ way: 'ask', price: 14_500, clientCode: 'RO-HIDRO' }), token1);
    const bid = await t.post('/orders', order({ way: 'bid', price: 14_500, clientCode: 'RO-TERMO' }), token2);
    expect(bid.status).toBe(201);
    expect(bid.body.order.status).toBe('traded');
    const transactions = await read(`/transactions?scope=mine&minSeq=${bid.body.seq}`, token2);
    expect(transactions.status).toBe(200);
    expect(transactions.seq).toBeGreaterThanOrEqual(bid.body.seq);
    expect(transactions.body.seq).toBe(transactions.seq);
    expect(transactions.body.items).toContainEqual(expect.objectContaining({ buyOrderId: bid.body.order.orderId, sellOrderId: ask.body.order.orderId, price: 14_500, qty: 10 }));

    const live = await read(`/orders/mine?minSeq=${bid.body.seq}`, token1);
    expect(live.status).toBe(200);
    expect(live.seq).toBe(live.body.seq);
    expect(live.seq).toBeGreaterThanOrEqual(bid.body.seq);
    const history = await read(`/orders/mine?history=true&minSeq=${bid.body.seq}`, token1);
    expect(history.status).toBe(200);
    expect(history.seq).toBeGreaterThanOrEqual(bid.body.seq);
    expect(history.body.items).toContainEqual(expect.objectContaining({ orderId: ask.body.order.orderId, status: 'traded' }));
  });

  it('a minSeq far ahead is refused with READ_NOT_CAUGHT_UP and the seq the data stands at, after the wait', async () => {
    const far = t.server.sequencer.lastJournalSeq + 1_000_000;
    for (const path of [`/books/${asset}?minSeq=${far}`, `/transactions?minSeq=${far}`, `/orders/mine?history=true&minSeq=${far}`, `/orders/mine?minSeq=${far}`]) {
      const answer = await read(path, token1);
      expect(answer.status, path).toBe(503);
      expect(answer.body.error.code, path).toBe('READ_NOT_CAUGHT_UP');
      expect(answer.body.error.params.minSeq, path).toBe(far);
      expect(answer.body.error.params.atSeq, path).toBeGreaterThan(0);
      expect(answer.body.error.params.atSeq, path).toBeLessThanOrEqual(t.server.sequencer.lastJournalSeq);
    }
  });

  it('a minSeq that is not a whole number is refused as any bad query', async () => {
    const answer = await read(`/books/${asset}?minSeq=-1`, token1);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'REQUEST_INVALID', params: { field: 'minSeq' } });
  });
});
