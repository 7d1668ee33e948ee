/**
 * transactions.ts: off-book transactions (registerOffBookTrade), the transfer to the central
 * counterparty (novateTransaction) and the margin exposure switch (setTransactionMarginsExposure):
 * accounting, refusals, events, journal replay and snapshots.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../server/engine/engine.ts';
import type { EngineCommand, NovateTransactionCommand, RegisterOffBookTradeCommand, TransactionFacts } from '../../../server/engine/types.ts';
import { ASSET, assetConfig, eventsOf, expectConsistent, harness, MARKET, trades, type Harness } from './helpers.ts';

const CCP = 'GAS-CCP';

/** An engine whose asset has a 10 % margin rate, a CCP asset in the same market, and a log of the commands after set-up. */
function setUp() {
  const h = harness({ asset: { marginBps: 1_000 } });
  h.ok({ type: 'upsertAsset', at: h.now, asset: assetConfig({ assetId: CCP, marginBps: 2_000 }) });
  const start = h.engine.exportState();
  const log: EngineCommand[] = [];
  const run = h.run;
  h.run = (command) => {
    log.push(command);
    return run(command);
  };
  return { h, start, log };
}

function otc(h: Harness, fields: Partial<RegisterOffBookTradeCommand> = {}): RegisterOffBookTradeCommand {
  return {
    type: 'registerOffBookTrade',
    at: h.now,
    assetId: ASSET,
    buyer: 'C1',
    seller: 'C2',
    price: 10_000,
    qty: 10,
    origin: 'otc',
    parentTransactionId: null,
    grandParentTransactionId: null,
    transferTimestamp: null,
    splitTimestamp: null,
    externalTransactionId: 'EXT-1',
    marginsExposureActive: false,
    ...fields,
  };
}

function novate(h: Harness, fields: Partial<NovateTransactionCommand> & { transactionId: number }): NovateTransactionCommand {
  return { type: 'novateTransaction', at: h.now, qty: 10, targetAssetId: CCP, ...fields };
}

const financials = (h: Harness, code: string) => {
  const f = h.engine.getClientFinancials(code)!;
  return { tradedValue: f.tradedValue, tradesMargin: f.tradesMargin };
};

/** The journal replayed on the start snapshot, and a snapshot of the end through JSON, reach the same state. */
/** The facts the workflows keep of C1's 5 @ 100.00 book trade with C2 (what novateTransaction's `original` carries). */
function bookFacts(book: { transactionId: number; txDate: string; timestamp: number }, extra: Partial<TransactionFacts> = {}): TransactionFacts {
  return {
    transactionId: book.transactionId,
    assetId: ASSET,
    buyer: 'C1',
    seller: 'C2',
    price: 10_000,
    qty: 5,
    txDate: book.txDate,
    timestamp: book.timestamp,
    origin: 'book',
    parentTransactionId: null,
    grandParentTransactionId: null,
    marginsExposureActive: true,
    ...extra,
  };
}

function expectReplayAndSnapshot(h: Harness, start: ReturnType<Engine['exportState']>, log: EngineCommand[]): void {
  const replay = Engine.fromSnapshot(JSON.parse(JSON.stringify(start)));
  for (const command of log) replay.execute(command);
  expect(replay.stateHash()).toBe(h.engine.stateHash());
  const restored = Engine.fromSnapshot(JSON.parse(JSON.stringify(h.engine.exportState())));
  expect(restored.stateHash()).toBe(h.engine.stateHash());
  expect(restored.validateInternalState()).toEqual([]);
  // and it behaves the same: a further command gives the same result and events
  const next: EngineCommand = { type: 'addOrder', at: h.now, actor: { agencyId: 'AG1' }, assetId: ASSET, clientCode: 'C3', way: 'bid', price: 10_000, qty: 1, validityType: 'GTC' };
  expect(JSON.stringify(restored.execute(next))).toBe(JSON.stringify(h.engine.execute(next)));
}

describe('registerOffBookTrade', () => {
  it('makes a transaction of the trade sequence, counted like a book trade but off the tape and the statistics', () => {
    const { h, start, log } = setUp();
    h.place('ask', 10_000, 1);
    const book = trades(h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 10_000, qty: 1 }))[0]!;
    const before = { c1: financials(h, 'C1'), stats: h.engine.getStats(ASSET)! };
    const r = h.ok(otc(h));
    expectConsistent(h);
    expect(eventsOf(r, 'trade')).toEqual([]);
    expect(eventsOf(r, 'stats')).toEqual([]);
    const [event] = eventsOf(r, 'offBookTrade');
    expect(event!.transaction).toMatchObject({
      transactionId: book.transactionId + 1,
      assetId: ASSET,
      marketId: MARKET,
      buyer: 'C1',
      seller: 'C2',
      buyOrderId: null,
      aggressor: null,
      origin: 'otc',
      status: 'active',
      qty: 10,
      price: 10_000,
      txDate: '2026-11-23',
      marginsExposureActive: false,
      externalTransactionId: 'EXT-1',
    });
    // value 10 × 100.00 = 1000.00 counted as exposure; inactive: no margin
    expect(financials(h, 'C1')).toEqual({ tradedValue: before.c1.tradedValue + 100_000, tradesMargin: before.c1.tradesMargin });
    expect(h.engine.getStats(ASSET)).toEqual(before.stats);
    expect(h.engine.getClientStats(ASSET, 'C1')!.tradedQty).toBe(11);
    // active from the start: the margin too
    h.ok(otc(h, { buyer: 'C3', seller: 'C4', marginsExposureActive: true }));
    expect(financials(h, 'C3')).toEqual({ tradedValue: 100_000, tradesMargin: 10_000 });
    expect(h.engine.getTransaction(book.transactionId + 2)).toMatchObject({ origin: 'otc', marginsExposureActive: true });
    expectConsistent(h);
    expectReplayAndSnapshot(h, start, log);
  });

  it('refuses an unknown asset, an unknown or inactive party, the same party on both sides, bad fields', () => {
    const { h } = setUp();
    h.upsertClient('C4', { clearing: { activeForTrading: false } });
    const hash = h.engine.stateHash();
    expect(h.run(otc(h, { assetId: 'NOPE' }))).toMatchObject({ result: 'ORDER_ASSET_ID_INVALID', params: { assetId: 'NOPE' }, events: [] });
    expect(h.run(otc(h, { buyer: 'NOBODY' }))).toMatchObject({ result: 'CLEARING_CLIENT_NOT_ACTIVE', params: { clientCode: 'NOBODY' } });
    expect(h.run(otc(h, { seller: 'C4' }))).toMatchObject({ result: 'CLEARING_CLIENT_NOT_ACTIVE', params: { clientCode: 'C4' } });
    expect(h.run(otc(h, { seller: 'C1' }))).toMatchObject({ result: 'TRANSACTION_SAME_PARTY', params: { clientCode: 'C1' } });
    expect(h.run(otc(h, { qty: 0 }))).toMatchObject({ result: 'REQUEST_INVALID', params: { field: 'qty' } });
    expect(h.run(otc(h, { price: 1.5 }))).toMatchObject({ result: 'REQUEST_INVALID', params: { field: 'price' } });
    expect(h.engine.stateHash()).toBe(hash);
  });
});

describe('novateTransaction', () => {
  it('supersedes the original, releases its exposure and books the transfer and the split remainder', () => {
    const { h, start, log } = setUp();
    const id = eventsOf(h.ok(otc(h, { marginsExposureActive: true })), 'offBookTrade')[0]!.transaction.transactionId;
    expect(financials(h, 'C2')).toEqual({ tradedValue: 100_000, tradesMargin: 10_000 });
    const at = h.now;
    const r = h.ok(novate(h, { transactionId: id, qty: 4, at }));
    expectConsistent(h);
    expect(eventsOf(r, 'transactionUpdate')).toEqual([expect.objectContaining({ transactionId: id, status: 'superseded', buyer: 'C1', seller: 'C2' })]);
    const children = eventsOf(r, 'offBookTrade').map((e) => e.transaction);
    expect(children).toEqual([
      expect.objectContaining({ transactionId: id + 1, assetId: CCP, qty: 4, price: 10_000, origin: 'transfer', transferTimestamp: at, parentTransactionId: id, grandParentTransactionId: null, splitTimestamp: null, marginsExposureActive: true }),
      expect.objectContaining({ transactionId: id + 2, assetId: ASSET, qty: 6, origin: 'split', splitTimestamp: at, parentTransactionId: id, transferTimestamp: null }),
    ]);
    // 4 × 100.00 on CCP at 20 % + 6 × 100.00 on the asset at 10 %
    expect(financials(h, 'C2')).toEqual({ tradedValue: 100_000, tradesMargin: 8_000 + 6_000 });
    expect(h.engine.getTransaction(id)).toMatchObject({ status: 'superseded' });
    // the remainder can go on in its turn: its grandparent is the original
    const again = h.ok(novate(h, { transactionId: id + 2, qty: 6 }));
    expect(eventsOf(again, 'offBookTrade').map((e) => e.transaction)).toEqual([expect.objectContaining({ assetId: CCP, qty: 6, parentTransactionId: id + 2, grandParentTransactionId: id })]);
    expectConsistent(h);
    expectReplayAndSnapshot(h, start, log);
  });

  it('refuses an unknown transaction, a second transfer, a quantity out of range', () => {
    const { h } = setUp();
    const id = eventsOf(h.ok(otc(h)), 'offBookTrade')[0]!.transaction.transactionId;
    expect(h.run(novate(h, { transactionId: 999 }))).toMatchObject({ result: 'TRANSACTION_NOT_FOUND', params: { transactionId: 999 } });
    expect(h.run(novate(h, { transactionId: id, qty: 11 }))).toMatchObject({ result: 'TRANSFER_QTY_INVALID', params: { transactionId: id, max: '10' } });
    expect(h.run(novate(h, { transactionId: id, qty: 0 }))).toMatchObject({ result: 'TRANSFER_QTY_INVALID' });
    expect(h.run(novate(h, { transactionId: id, targetAssetId: 'NOPE' }))).toMatchObject({ result: 'ORDER_ASSET_ID_INVALID' });
    h.ok(novate(h, { transactionId: id }));
    const hash = h.engine.stateHash();
    expect(h.run(novate(h, { transactionId: id }))).toMatchObject({ result: 'TRANSFER_ALREADY_DONE', params: { transactionId: id }, events: [] });
    expect(h.engine.stateHash()).toBe(hash);
  });

  it('a book trade is transferred from the facts the command carries (the engine keeps no book trades)', () => {
    const { h, start, log } = setUp();
    h.place('ask', 10_000, 5);
    const book = trades(h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 10_000, qty: 5 }))[0]!;
    expect(h.run(novate(h, { transactionId: book.transactionId, qty: 5 }))).toMatchObject({ result: 'TRANSACTION_NOT_FOUND' });
    const original = bookFacts(book);
    // facts of an id the sequence has not given out are refused
    expect(h.run(novate(h, { transactionId: 77, qty: 5, original: { ...original, transactionId: 77 } }))).toMatchObject({ result: 'TRANSACTION_NOT_FOUND' });
    expect(financials(h, 'C1')).toEqual({ tradedValue: 50_000, tradesMargin: 5_000 });
    const r = h.ok(novate(h, { transactionId: book.transactionId, qty: 5, original }));
    expect(eventsOf(r, 'offBookTrade')).toHaveLength(1);
    expect(financials(h, 'C1')).toEqual({ tradedValue: 50_000, tradesMargin: 10_000 });
    expect(h.run(novate(h, { transactionId: book.transactionId, qty: 5, original }))).toMatchObject({ result: 'TRANSFER_ALREADY_DONE' });
    expectConsistent(h);
    expectReplayAndSnapshot(h, start, log);
  });

  it('a book trade whose facts carry its orders and aggressor: the update carries the whole transaction, as getTransaction gives it', () => {
    const { h, start, log } = setUp();
    const sell = h.place('ask', 10_000, 5);
    const book = trades(h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 10_000, qty: 5 }))[0]!;
    const original = bookFacts(book, { buyOrderId: book.buyOrderId, sellOrderId: sell, aggressor: 'bid' });
    // malformed order ids or aggressor: the facts are refused as a whole
    expect(h.run(novate(h, { transactionId: book.transactionId, qty: 5, original: { ...original, aggressor: 'up' as 'bid' } }))).toMatchObject({ result: 'TRANSACTION_NOT_FOUND' });
    expect(h.run(novate(h, { transactionId: book.transactionId, qty: 5, original: { ...original, sellOrderId: -1 } }))).toMatchObject({ result: 'TRANSACTION_NOT_FOUND' });
    const r = h.ok(novate(h, { transactionId: book.transactionId, qty: 2, original }));
    const [update] = eventsOf(r, 'transactionUpdate');
    expect(update!.transaction).toEqual({ ...book, status: 'superseded', buyerBrokerId: null, sellerBrokerId: null });
    expect(h.engine.getTransaction(book.transactionId)).toEqual(update!.transaction);
    // a margin switch of the split remainder carries it whole as well
    const remainder = eventsOf(r, 'offBookTrade')[1]!.transaction;
    const switched = h.ok({ type: 'setTransactionMarginsExposure', at: h.now, transactionId: remainder.transactionId, active: false });
    expect(eventsOf(switched, 'transactionUpdate').map((e) => e.transaction)).toEqual([{ ...remainder, marginsExposureActive: false }]);
    expectConsistent(h);
    expectReplayAndSnapshot(h, start, log);
  });

  it('a transaction of a settled session leaves nothing to release', () => {
    const { h } = setUp();
    const id = eventsOf(h.ok(otc(h, { marginsExposureActive: true })), 'offBookTrade')[0]!.transaction.transactionId;
    h.ok({ type: 'settleSessionTrades', at: h.now, marketId: MARKET, sessionDate: '2026-11-23' });
    h.phase('closed');
    h.phase('trading', undefined, '2026-11-24');
    h.ok(novate(h, { transactionId: id, qty: 10 }));
    // only the child (booked in the new session) counts
    expect(financials(h, 'C1')).toEqual({ tradedValue: 100_000, tradesMargin: 20_000 });
    expectConsistent(h);
  });
});

describe('setTransactionMarginsExposure', () => {
  it('switches the transaction margin in and out of the engine figures; no change is no event', () => {
    const { h, start, log } = setUp();
    const id = eventsOf(h.ok(otc(h)), 'offBookTrade')[0]!.transaction.transactionId;
    expect(financials(h, 'C1').tradesMargin).toBe(0);
    const r = h.ok({ type: 'setTransactionMarginsExposure', at: h.now, transactionId: id, active: true });
    expect(eventsOf(r, 'transactionUpdate')).toEqual([expect.objectContaining({ transactionId: id, status: 'active', marginsExposureActive: true })]);
    expect(financials(h, 'C1').tradesMargin).toBe(10_000);
    expect(h.ok({ type: 'setTransactionMarginsExposure', at: h.now, transactionId: id, active: true }).events).toEqual([]);
    h.ok({ type: 'setTransactionMarginsExposure', at: h.now, transactionId: id, active: false });
    expect(financials(h, 'C2').tradesMargin).toBe(0);
    expect(h.run({ type: 'setTransactionMarginsExposure', at: h.now, transactionId: 404, active: true })).toMatchObject({ result: 'TRANSACTION_NOT_FOUND' });
    expectConsistent(h);
    expectReplayAndSnapshot(h, start, log);
  });
});
