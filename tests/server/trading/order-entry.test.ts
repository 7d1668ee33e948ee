/**
 * Order entry over STOMP (issue 16, item 4) against the real server (PGlite) with real sockets
 * (@stomp/stompjs over ws): SEND to /app/orders with a receipt, one reply on the sending session's
 * /user/queue/order-replies, the RECEIPT only after it; REST's rules, codes and idempotency.
 */
import type { IMessage } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, orderEntryReplySchema, type Order, type OrderEntryReply, type OrderUpdate } from '../../../protocol/index.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const asset = 'GSPOT-DA';

interface OrderSession {
  collector: CollectingClient;
  replies: OrderEntryReply[];
  /**
   * Sends one body to /app/orders with a receipt; resolves on the RECEIPT with the replies the session
   * had received by then (the reply comes first).
   */
  send(body: unknown, options?: { raw?: boolean }): Promise<{ reply: OrderEntryReply | undefined; repliesAtReceipt: OrderEntryReply[] }>;
}

let t: TestServer;
let token1: string;
let token2: string;
const sessions: OrderSession[] = [];
let serial = 0;

async function orderSession(token: string): Promise<OrderSession> {
  const collector = await connectCollector(t.server.port, token);
  const replies: OrderEntryReply[] = [];
  await new Promise<void>((resolve) => {
    collector.client.watchForReceipt('replies', () => resolve());
    collector.client.subscribe(destinations.orderReplies, (message: IMessage) => replies.push(orderEntryReplySchema.parse(JSON.parse(message.body))), { receipt: 'replies' });
  });
  await collector.subscribe(destinations.myOrders);
  let receipts = 0;
  const session: OrderSession = {
    collector,
    replies,
    send(body, options = {}) {
      const receipt = `order-${++receipts}`;
      const correlationId = !options.raw && typeof body === 'object' && body !== null ? (body as { correlationId?: string }).correlationId : undefined;
      return new Promise((resolve) => {
        collector.client.watchForReceipt(receipt, () => {
          const repliesAtReceipt = [...replies];
          const reply = correlationId === undefined ? repliesAtReceipt.at(-1) : repliesAtReceipt.findLast((r) => r.correlationId === correlationId);
          resolve({ reply, repliesAtReceipt });
        });
        collector.client.publish({ destination: destinations.orderEntry, body: options.raw ? String(body) : JSON.stringify(body), headers: { receipt, 'content-type': 'application/json' } });
      });
    },
  };
  sessions.push(session);
  return session;
}

function addCommand(overrides: Record<string, unknown> = {}, correlationId?: string) {
  const n = ++serial;
  return {
    type: 'add',
    correlationId: correlationId ?? `c-${n}`,
    order: { idempotencyKey: `stomp-${String(n).padStart(6, '0')}`, assetId: asset, way: 'bid', price: 14_000, qty: 10, validityType: 'GTC', clientCode: 'RO-HIDRO', ...overrides },
  };
}

function ok(reply: OrderEntryReply | undefined): Extract<OrderEntryReply, { ok: true }> {
  expect(reply, 'a reply').toBeDefined();
  if (!reply!.ok) throw new Error(`refused: ${JSON.stringify(reply)}`);
  return reply!;
}

beforeAll(async () => {
  t = await startTestServer();
  token1 = await t.login('broker1');
  token2 = await t.login('broker2');
});
afterAll(async () => {
  await Promise.all(sessions.map((session) => session.collector.close()));
  await t?.server.close();
});

describe('order entry over STOMP', () => {
  it('places, modifies and cancels an order: each reply before its RECEIPT, the order on /user/queue/orders and in GET /orders/mine', async () => {
    const broker = await orderSession(token1);
    const placed = await broker.send(addCommand({}, 'place-1'));
    const added = ok(placed.reply);
    expect(added.correlationId).toBe('place-1');
    expect(added.order).toMatchObject({ status: 'created', assetId: asset, way: 'bid', price: 14_000, offeredQty: 10, clientCode: 'RO-HIDRO' });
    // The RECEIPT came after the command was journaled: the server's journal stands at or past its seq.
    expect(added.seq).toBeGreaterThan(0);
    expect(t.server.sequencer.lastJournalSeq).toBeGreaterThanOrEqual(added.seq);
    const orderId = added.order.orderId;

    const queued = await broker.collector.waitFor<OrderUpdate>(destinations.myOrders, (updates) => updates.some((u) => u.order.orderId === orderId));
    expect(queued.find((u) => u.order.orderId === orderId)!.order.status).toBe('created');
    const mine = (await t.get(`/orders/mine?assetId=${asset}`, token1)).body.items as Order[];
    expect(mine.map((order) => order.orderId)).toContain(orderId);

    const modified = ok((await broker.send({ type: 'modify', correlationId: 'modify-1', orderId, changes: { price: 14_100, qty: 20 } })).reply);
    expect(modified.order).toMatchObject({ orderId, price: 14_100, offeredQty: 20 });
    expect(modified.seq).toBeGreaterThan(added.seq);

    const cancelled = ok((await broker.send({ type: 'cancel', correlationId: 'cancel-1', orderId })).reply);
    expect(cancelled.order).toMatchObject({ orderId, status: 'cancelled' });
    expect(((await t.get(`/orders/mine?assetId=${asset}`, token1)).body.items as Order[]).map((order) => order.orderId)).not.toContain(orderId);
    expect(broker.replies.map((reply) => reply.correlationId)).toEqual(['place-1', 'modify-1', 'cancel-1']);
  });

  it("refuses with REST's codes (a missing price, a quantity off its step, another's client), still with the RECEIPT, and the session stays open", async () => {
    const broker = await orderSession(token1);
    const noPrice = (await broker.send(addCommand({ price: undefined }, 'no-price'))).reply;
    expect(noPrice).toMatchObject({ ok: false, correlationId: 'no-price', code: 'ORDER_PRICE_MISSING' });
    const offStep = (await broker.send(addCommand({ qty: 15 }, 'off-step'))).reply;
    expect(offStep).toMatchObject({ ok: false, correlationId: 'off-step', code: 'ORDER_QUANTITY_STEP' });
    // The same refusal as REST's, params included.
    const rest = await t.post('/orders', addCommand({ qty: 15 }).order, token1);
    expect(offStep).toMatchObject({ code: rest.body.error.code, params: rest.body.error.params });
    const notMine = (await broker.send(addCommand({ clientCode: 'RO-TERMO' }, 'not-mine'))).reply;
    expect(notMine).toMatchObject({ ok: false, code: 'ORDER_NO_RIGHT', params: { clientCode: 'RO-TERMO' } });
    expect(broker.collector.client.connected).toBe(true);
    ok((await broker.send(addCommand())).reply);
  });

  it('answers a retried add with its first result; a key reused for another order is refused ORDER_IDEMPOTENCY_KEY_REUSED; REST shares the keys', async () => {
    const broker = await orderSession(token1);
    const command = addCommand({ price: 13_500 });
    const first = ok((await broker.send(command)).reply);
    const retry = ok((await broker.send({ ...command, correlationId: 'retry' })).reply);
    expect(retry.correlationId).toBe('retry');
    expect(retry.order.orderId).toBe(first.order.orderId);
    const overRest = await t.post('/orders', command.order, token1);
    expect(overRest.body.order.orderId).toBe(first.order.orderId);
    const reused = (await broker.send({ ...command, correlationId: 'reused', order: { ...command.order, qty: 20 } })).reply;
    expect(reused).toMatchObject({ ok: false, correlationId: 'reused', code: 'ORDER_IDEMPOTENCY_KEY_REUSED', params: { idempotencyKey: command.order.idempotencyKey } });
    const live = ((await t.get(`/orders/mine?assetId=${asset}`, token1)).body.items as Order[]).filter((order) => order.price === 13_500);
    expect(live).toHaveLength(1);
  });

  it('answers a body that is not JSON or not a command with a refusal, never an ERROR frame', async () => {
    const broker = await orderSession(token1);
    const notJson = await broker.send('{"type":"add",', { raw: true });
    expect(notJson.reply).toEqual({ ok: false, correlationId: '', code: 'REQUEST_MALFORMED_JSON', params: {} });
    const unknownType = (await broker.send({ type: 'explode', correlationId: 'odd-1' })).reply;
    expect(unknownType).toMatchObject({ ok: false, correlationId: 'odd-1', code: 'REQUEST_INVALID', params: { field: 'type' } });
    const extraField = (await broker.send({ ...addCommand({}, 'odd-2'), sneaky: true })).reply;
    expect(extraField).toMatchObject({ ok: false, correlationId: 'odd-2', code: 'REQUEST_INVALID', params: { field: 'sneaky', issue: 'unrecognized_keys' } });
    const badOrderId = (await broker.send({ type: 'cancel', correlationId: 'odd-3', orderId: '../1' })).reply;
    expect(badOrderId).toMatchObject({ ok: false, correlationId: 'odd-3', code: 'REQUEST_INVALID', params: { field: 'orderId' } });
    expect(broker.replies).toHaveLength(4);
    expect(broker.collector.client.connected).toBe(true);
    ok((await broker.send(addCommand())).reply);
  });

  it("does not let a user modify or cancel another's order (ORDER_NOT_FOUND, as REST)", async () => {
    const owner = await orderSession(token1);
    const other = await orderSession(token2);
    const orderId = ok((await owner.send(addCommand({ price: 13_600 }))).reply).order.orderId;
    expect((await other.send({ type: 'modify', correlationId: 'steal-1', orderId, changes: { qty: 50 } })).reply).toEqual({
      ok: false,
      correlationId: 'steal-1',
      code: 'ORDER_NOT_FOUND',
      params: { orderId },
    });
    expect((await other.send({ type: 'cancel', correlationId: 'steal-2', orderId })).reply).toMatchObject({ ok: false, code: 'ORDER_NOT_FOUND' });
    const still = ((await t.get(`/orders/mine?assetId=${asset}`, token1)).body.items as Order[]).find((order) => order.orderId === orderId);
    expect(still).toMatchObject({ status: 'created', offeredQty: 10 });
  });

  it('replies only on the session that sent: not to the same user’s other session, not to another user', async () => {
    const sender = await orderSession(token1);
    const sameUser = await orderSession(token1);
    const otherUser = await orderSession(token2);
    ok((await sender.send(addCommand({}, 'only-sender'))).reply);
    // Each of the others sends one command afterwards: its own reply is the only one it holds.
    ok((await sameUser.send(addCommand({}, 'same-user'))).reply);
    ok((await otherUser.send(addCommand({ clientCode: 'RO-TERMO', way: 'ask', price: 16_000 }, 'other-user'))).reply);
    expect(sender.replies.map((reply) => reply.correlationId)).toEqual(['only-sender']);
    expect(sameUser.replies.map((reply) => reply.correlationId)).toEqual(['same-user']);
    expect(otherUser.replies.map((reply) => reply.correlationId)).toEqual(['other-user']);
  });

  it('acknowledges the commands of one session in the order sent, sent back to back', async () => {
    const broker = await orderSession(token1);
    const sends = [0, 1, 2, 3, 4].map((i) => broker.send(addCommand({ price: 13_000 + i * 10 }, `burst-${i}`)));
    const results = await Promise.all(sends);
    expect(broker.replies.map((reply) => reply.correlationId)).toEqual(['burst-0', 'burst-1', 'burst-2', 'burst-3', 'burst-4']);
    // Each RECEIPT came after its own reply and before the next one's.
    expect(results.map((result) => result.repliesAtReceipt.length)).toEqual([1, 2, 3, 4, 5]);
    const seqs = broker.replies.map((reply) => ok(reply).seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });
});
