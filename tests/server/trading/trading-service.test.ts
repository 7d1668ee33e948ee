/**
 * TradingService's post-trade calls on a running server (demo exchange, PGlite): an OTC deal registered
 * off the book (private queues and read model, not the public tape or the statistics), the transfer of
 * a book trade to the central counterparty's asset with its remainder, the margin exposure switch, the
 * whitelist relation and the tradeable levels of the bilateral asset, over the API too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, type Trade, type Transaction } from '../../../protocol/index.ts';
import { CollateralRepository } from '../../../server/store/collateral.repository.ts';
import { SettlementRepository } from '../../../server/store/settlement.repository.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const FORWARD = 'GFWD-M-2027-01';
const CCP = 'GCCP-M-2027-01';
const BILATERAL = 'GBIL-M-2027-01';

let t: TestServer;
let broker1: CollectingClient;
let watcher: CollectingClient;
let token1: string;
let token2: string;

beforeAll(async () => {
  t = await startTestServer();
  token1 = await t.login('broker1');
  token2 = await t.login('broker2');
  const adminToken = await t.login('admin');
  [broker1, watcher] = await Promise.all([connectCollector(t.server.port, token1), connectCollector(t.server.port, adminToken)]);
  await broker1.subscribe(destinations.myTrades);
  await watcher.subscribe(destinations.trades(FORWARD));
});
afterAll(async () => {
  await Promise.all([broker1?.close(), watcher?.close()]);
  await t?.server.close();
});

const otc = {
  assetId: FORWARD,
  buyer: 'RO-HIDRO',
  seller: 'RO-TERMO',
  price: 16_000,
  qty: 100,
  origin: 'otc' as const,
  parentTransactionId: null,
  grandParentTransactionId: null,
  transferTimestamp: null,
  splitTimestamp: null,
  externalTransactionId: 'OTC-1',
  marginsExposureActive: false,
};

describe('TradingService post-trade calls', () => {
  it('registers an OTC deal off the book: the parties see it and the read model holds it; no public trade, no statistics', async () => {
    const statsBefore = t.server.sequencer.engine.getStats(FORWARD);
    const transaction = await t.server.trading.registerOffBookTrade(otc);
    expect(transaction).toMatchObject({ assetId: FORWARD, buyer: 'RO-HIDRO', seller: 'RO-TERMO', qty: 100, price: 16_000, origin: 'otc', status: 'active', buyOrderId: '', marginsExposureActive: false, externalTransactionId: 'OTC-1' });
    const mine = await broker1.waitFor<Transaction>(destinations.myTrades, (messages) => messages.some((m) => m.transactionId === transaction.transactionId));
    expect(mine.find((m) => m.transactionId === transaction.transactionId)).toEqual(transaction);
    expect(t.server.sequencer.engine.getStats(FORWARD)).toEqual(statsBefore);
    expect(await t.server.trading.transaction(transaction.transactionId)).toMatchObject({ transactionId: transaction.transactionId, origin: 'otc', buyer: 'RO-HIDRO', txDate: transaction.txDate });
    const listed = await t.get(`/transactions?assetId=${FORWARD}`, token2);
    expect(listed.body.items.some((item: Transaction) => item.transactionId === transaction.transactionId && item.origin === 'otc')).toBe(true);
    // the public tape got nothing
    expect((watcher.received.get(destinations.trades(FORWARD)) ?? []).some((m) => (m as Trade).transactionId === transaction.transactionId)).toBe(false);
  });

  it('refuses a deal with the same party on both sides, with the code and the client', async () => {
    await expect(t.server.trading.registerOffBookTrade({ ...otc, seller: 'RO-HIDRO' })).rejects.toMatchObject({ code: 'TRANSACTION_SAME_PARTY', params: { clientCode: 'RO-HIDRO' } });
    await expect(t.server.trading.registerOffBookTrade({ ...otc, buyer: 'RO-DORMANT' })).rejects.toMatchObject({ code: 'CLEARING_CLIENT_NOT_ACTIVE' });
  });

  it('transfers a book trade to the CCP asset with its remainder; the original is superseded in the read model', async () => {
    const ask = await t.post('/orders', { idempotencyKey: 'nov-ask-0001', assetId: FORWARD, way: 'ask', price: 16_100, qty: 100, validityType: 'day', clientCode: 'RO-HIDRO' }, token1);
    expect(ask.status).toBe(201);
    const bid = await t.post('/orders', { idempotencyKey: 'nov-bid-0001', assetId: FORWARD, way: 'bid', price: 16_100, qty: 100, validityType: 'day', clientCode: 'RO-TERMO' }, token2);
    expect(bid.body.order).toMatchObject({ status: 'traded' });
    const book = await broker1.waitFor<Transaction>(destinations.myTrades, (messages) => messages.some((m) => m.origin === 'book' && m.price === 16_100));
    const original = book.find((m) => m.origin === 'book' && m.price === 16_100)!;
    const { transferred, remainder } = await t.server.trading.novateTransaction({ transactionId: original.transactionId, qty: 40, targetAssetId: CCP });
    expect(transferred).toMatchObject({ assetId: CCP, qty: 40, price: 16_100, buyer: 'RO-TERMO', seller: 'RO-HIDRO', origin: 'transfer', parentTransactionId: original.transactionId, grandParentTransactionId: null });
    expect(transferred.transferTimestamp).not.toBeNull();
    expect(remainder).toMatchObject({ assetId: FORWARD, qty: 60, origin: 'split', parentTransactionId: original.transactionId, splitTimestamp: transferred.transferTimestamp });
    expect(await t.server.trading.transaction(original.transactionId)).toMatchObject({ status: 'superseded', origin: 'book', buyOrderId: original.buyOrderId });
    await t.server.projector.flushed(5_000);
    const rows = await t.server.store.db.query<{ data: Transaction }>('select data from transactions where transaction_id = $1::bigint', [original.transactionId]);
    expect(rows[0]!.data.status).toBe('superseded');
    await expect(t.server.trading.novateTransaction({ transactionId: original.transactionId, qty: 10, targetAssetId: CCP })).rejects.toMatchObject({ code: 'TRANSFER_ALREADY_DONE', params: { transactionId: Number(original.transactionId) } });
    await expect(t.server.trading.novateTransaction({ transactionId: remainder!.transactionId, qty: 61, targetAssetId: CCP })).rejects.toMatchObject({ code: 'TRANSFER_QTY_INVALID', params: { max: '6.0' } });
    await expect(t.server.trading.novateTransaction({ transactionId: '987654321', qty: 1, targetAssetId: CCP })).rejects.toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
  });

  it('switches a transaction margin exposure: the engine blocks its margin from then on', async () => {
    const deal = await t.server.trading.registerOffBookTrade({ ...otc, externalTransactionId: 'OTC-2' });
    const before = t.server.sequencer.engine.getClientFinancials('RO-HIDRO')!.tradesMargin;
    const switched = await t.server.trading.setTransactionMarginsExposure({ transactionId: deal.transactionId, active: true });
    expect(switched).toMatchObject({ transactionId: deal.transactionId, marginsExposureActive: true });
    // 160.00 × 10.0 MWh = 1600.00 at the asset's 10 %: 160.00
    expect(t.server.sequencer.engine.getClientFinancials('RO-HIDRO')!.tradesMargin - before).toBe(16_000);
    await t.server.projector.flushed(5_000);
    const rows = await t.server.store.db.query<{ data: Transaction }>('select data from transactions where transaction_id = $1::bigint', [deal.transactionId]);
    expect(rows[0]!.data.marginsExposureActive).toBe(true);
  });

  it('a whitelist relation opens the bilateral asset between two clients; the tradeable levels say so, over the API too', async () => {
    const ask = await t.post('/orders', { idempotencyKey: 'bil-ask-0001', assetId: BILATERAL, way: 'ask', price: 16_500, qty: 50, validityType: 'day', clientCode: 'RO-TERMO' }, token2);
    expect(ask.status).toBe(201);
    const before = await t.get(`/assets/${BILATERAL}/tradeable-levels`, token1);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ assetId: BILATERAL, bids: [], asks: [{ price: 16_500, qty: 0, orders: 0 }] });
    // no relation: broker1's bid does not trade, and the book crosses
    const noTrade = await t.post('/orders', { idempotencyKey: 'bil-bid-0001', assetId: BILATERAL, way: 'bid', price: 16_600, qty: 10, validityType: 'day', clientCode: 'RO-HIDRO' }, token1);
    expect(noTrade.body.order).toMatchObject({ status: 'created', tradedQty: 0 });
    await t.server.trading.setWhitelistRelation({ clientCode: 'RO-TERMO', partnerCode: 'RO-HIDRO', active: true });
    const after = await t.get(`/assets/${BILATERAL}/tradeable-levels?clientCode=RO-HIDRO`, token1);
    expect(after.body.asks).toEqual([{ price: 16_500, qty: 50, orders: 1 }]);
    const trade = await t.post('/orders', { idempotencyKey: 'bil-bid-0002', assetId: BILATERAL, way: 'bid', price: 16_500, qty: 20, validityType: 'day', clientCode: 'RO-GAZEST' }, token1);
    expect(trade.body.order).toMatchObject({ tradedQty: 0 });
    // a partner's new bid trades (the resting one stays: a relation does not rematch the book)
    const partner = await t.post('/orders', { idempotencyKey: 'bil-bid-0003', assetId: BILATERAL, way: 'bid', price: 16_500, qty: 10, validityType: 'day', clientCode: 'RO-HIDRO' }, token1);
    expect(partner.body).toMatchObject({ order: { status: 'traded', tradedQty: 10, tradedPrice: 16_500 } });
    expect((await t.get(`/assets/${FORWARD}/tradeable-levels`, token1)).body.error).toEqual({ code: 'ASSET_NOT_BILATERAL', params: { assetId: FORWARD } });
    expect((await t.get('/assets/NOPE/tradeable-levels', token1)).status).toBe(404);
    expect((await t.get(`/assets/${BILATERAL}/tradeable-levels?clientCode=RO-TERMO`, token1)).body.error.code).toBe('ACCOUNT_CLIENT_FORBIDDEN');
  });

  it('clearing reads: an off-book deal makes no settlement price; an inactive one is flagged for the margins; a superseded one is left to its children', async () => {
    const deal = await t.server.trading.registerOffBookTrade({ ...otc, price: 99_000, externalTransactionId: 'OTC-3' });
    await t.server.projector.flushed(5_000);
    const settlement = new SettlementRepository(t.server.store.db);
    const window = await settlement.tradesBetween(FORWARD, deal.txDate, '2000-01-01T00:00:00Z', '2100-01-01T00:00:00Z');
    expect(window.some((trade) => trade.price === 99_000)).toBe(false);
    expect(window.length).toBeGreaterThan(0);
    const collateral = new CollateralRepository(t.server.store.db);
    const legs = await collateral.clientTrades('RO-HIDRO', null, [FORWARD, CCP], '2000-01-01');
    expect(legs.find((leg) => leg.transactionId === deal.transactionId)).toMatchObject({ way: 'bid', marginsExposureActive: false });
    const { transferred } = await t.server.trading.novateTransaction({ transactionId: deal.transactionId, qty: 100, targetAssetId: CCP });
    await t.server.projector.flushed(5_000);
    const after = await collateral.clientTrades('RO-HIDRO', null, [FORWARD, CCP], '2000-01-01');
    expect(after.some((leg) => leg.transactionId === deal.transactionId)).toBe(false);
    expect(after.find((leg) => leg.transactionId === transferred.transactionId)).toMatchObject({ assetId: CCP, qty: 100 });
    const session = await settlement.sessionTrades([FORWARD, CCP], deal.txDate);
    expect(session.map((trade) => trade.transactionId)).toContain(transferred.transactionId);
    expect(session.map((trade) => trade.transactionId)).not.toContain(deal.transactionId);
  });
});
