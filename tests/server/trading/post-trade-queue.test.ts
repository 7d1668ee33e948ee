/**
 * The parties' private trades queue (/user/queue/trades) over real sockets and the real server
 * (PGlite): when a transfer supersedes a transaction, both parties get the transaction again,
 * superseded, whole (its orders and aggressor as first reported) and marked `updatedAt`, then the
 * transfer's children; a margin exposure switch sends the transaction again with the new flag. A
 * user acting for neither party gets nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, type Transaction } from '../../../protocol/index.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const FORWARD = 'GFWD-M-2027-01';
const CCP = 'GCCP-M-2027-01';

let t: TestServer;
let seller: CollectingClient;
let buyer: CollectingClient;
let outsider: CollectingClient;
let token1: string;
let token2: string;

beforeAll(async () => {
  t = await startTestServer();
  token1 = await t.login('broker1');
  token2 = await t.login('broker2');
  const outsiderToken = await t.login('sim-nord');
  [seller, buyer, outsider] = await Promise.all([connectCollector(t.server.port, token1), connectCollector(t.server.port, token2), connectCollector(t.server.port, outsiderToken)]);
  await Promise.all([seller.subscribe(destinations.myTrades), buyer.subscribe(destinations.myTrades), outsider.subscribe(destinations.myTrades)]);
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close(), outsider?.close()]);
  await t?.server.close();
});

/** A book trade of RO-HIDRO (broker1, ask) to RO-TERMO (broker2, bid) at `price`, as both parties' queues first report it. */
async function bookTrade(price: number, key: string): Promise<Transaction> {
  const ask = await t.post('/orders', { idempotencyKey: `${key}-ask`, assetId: FORWARD, way: 'ask', price, qty: 100, validityType: 'day', clientCode: 'RO-HIDRO' }, token1);
  expect(ask.status, JSON.stringify(ask.body)).toBe(201);
  const bid = await t.post('/orders', { idempotencyKey: `${key}-bid`, assetId: FORWARD, way: 'bid', price, qty: 100, validityType: 'day', clientCode: 'RO-TERMO' }, token2);
  expect(bid.body.order).toMatchObject({ status: 'traded' });
  const isIt = (m: Transaction) => m.origin === 'book' && m.price === price;
  const [forSeller, forBuyer] = await Promise.all([seller.waitFor<Transaction>(destinations.myTrades, (ms) => ms.some(isIt)), buyer.waitFor<Transaction>(destinations.myTrades, (ms) => ms.some(isIt))]);
  const first = forSeller.find(isIt)!;
  expect(forBuyer.find(isIt)).toEqual(first);
  expect(first).toMatchObject({ buyer: 'RO-TERMO', seller: 'RO-HIDRO', aggressor: 'bid', status: 'active' });
  expect(first.updatedAt).toBeUndefined();
  return first;
}

/** What `client`'s queue received after the message of `transactionId` first arrived. */
function after(client: CollectingClient, transactionId: string): Transaction[] {
  const all = client.received.get(destinations.myTrades) as Transaction[];
  return all.slice(all.findIndex((m) => m.transactionId === transactionId) + 1);
}

describe('post-trade updates on the parties’ trades queue', () => {
  it('a transfer: the original again, superseded and whole, then the transfer and the split remainder, to both parties', async () => {
    const original = await bookTrade(16_300, 'ptq-0001');
    const { transferred, remainder } = await t.server.trading.novateTransaction({ transactionId: original.transactionId, qty: 40, targetAssetId: CCP });
    for (const party of [seller, buyer]) {
      await party.waitFor<Transaction>(destinations.myTrades, () => after(party, original.transactionId).length >= 3);
      const [superseded, ...children] = after(party, original.transactionId);
      expect(superseded).toEqual({ ...original, status: 'superseded', updatedAt: expect.any(String) });
      expect(Date.parse(superseded!.updatedAt!)).toBe(Date.parse(transferred.transferTimestamp!));
      expect(children).toEqual([transferred, remainder]);
    }
    // the row a list keeps for the id (the later copy replaces the earlier) is the superseded one
    const rows = new Map((seller.received.get(destinations.myTrades) as Transaction[]).map((m) => [m.transactionId, m]));
    expect(rows.get(original.transactionId)).toMatchObject({ status: 'superseded', buyOrderId: original.buyOrderId, sellOrderId: original.sellOrderId });
    expect((outsider.received.get(destinations.myTrades) ?? []).length).toBe(0);
  });

  it('a margin exposure switch: the transaction again with the new flag, to both parties (a book trade the engine did not hold, and a transfer child)', async () => {
    const original = await bookTrade(16_400, 'ptq-0002');
    const switched = await t.server.trading.setTransactionMarginsExposure({ transactionId: original.transactionId, active: !original.marginsExposureActive });
    expect(switched.marginsExposureActive).toBe(!original.marginsExposureActive);
    for (const party of [seller, buyer]) {
      const [update] = await party.waitFor<Transaction>(destinations.myTrades, () => after(party, original.transactionId).length >= 1).then(() => after(party, original.transactionId));
      expect(update).toEqual({ ...original, marginsExposureActive: !original.marginsExposureActive, updatedAt: expect.any(String) });
    }
    // back again, on a transfer child (a transaction the engine holds)
    const { transferred } = await t.server.trading.novateTransaction({ transactionId: original.transactionId, qty: 100, targetAssetId: CCP });
    await t.server.trading.setTransactionMarginsExposure({ transactionId: transferred.transactionId, active: !transferred.marginsExposureActive });
    for (const party of [seller, buyer]) {
      await party.waitFor<Transaction>(destinations.myTrades, () => after(party, transferred.transactionId).length >= 1);
      expect(after(party, transferred.transactionId)).toEqual([{ ...transferred, marginsExposureActive: !transferred.marginsExposureActive, updatedAt: expect.any(String) }]);
    }
    expect((outsider.received.get(destinations.myTrades) ?? []).length).toBe(0);
  });
});
