/**
 * clearing.ts: the pre-trade checks and their fast path, reservations of resting orders, and what a
 * trade adds to the clients' aggregates.
 */
import { describe, expect, it } from 'vitest';
import { clearingOk, clearingRefusal, contractsOf, recordTrade, release, reserve, settleSession } from '../../../server/engine/clearing.ts';
import type { ClientConfig } from '../../../server/engine/types.ts';
import { expectConsistent, harness, MARKET } from './helpers.ts';
import { asset, client, clientOn, engineState, order } from './state-builders.ts';

function setUp(clearing: ClientConfig['clearing'], assetOverrides: Parameters<typeof asset>[0] = {}) {
  const a = asset({ marginBps: 1_000, ...assetOverrides });
  const c = client('C1', { clearing });
  const cas = clientOn(a, c);
  return { a, c, cas, rules: cas.rules };
}

describe('clearing checks', () => {
  it('no clearing figures: the fast path passes anything', () => {
    const { c, rules, a } = setUp(undefined);
    expect(clearingOk(c, rules, 1e12, 1e11, 1e6)).toBe(true);
    expect(clearingRefusal(a, c, rules, 1e12, 1e11, 1e6)).toBeNull();
  });

  it('status, then allowed assets', () => {
    const inactive = setUp({ activeForTrading: false, allowedAssets: [] });
    expect(inactive.rules.clearingOk).toBe(false);
    expect(clearingRefusal(inactive.a, inactive.c, inactive.rules, 0, 0, 0)).toMatchObject({ result: 'CLEARING_CLIENT_NOT_ACTIVE', params: { clientCode: 'C1' } });
    const other = setUp({ allowedAssets: ['OTHER'] });
    expect(clearingRefusal(other.a, other.c, other.rules, 0, 0, 0)).toMatchObject({ result: 'CLEARING_CLIENT_NOT_ALLOWED', params: { clientCode: 'C1', assetId: 'GAS-DA' } });
    expect(setUp({ allowedAssets: ['*'] }).rules.clearingOk).toBe(true);
  });

  it('maximum contracts, trading limit against open + traded + new, funds for the margin', () => {
    const { a, c, rules } = setUp({ maxContracts: 10, tradingLimit: 100_000, funds: 5_000 });
    c.openContracts = 8;
    c.openValue = 50_000;
    c.tradedValue = 30_000;
    c.reservedMargin = 2_000;
    c.tradesMargin = 1_000;
    expect(clearingOk(c, rules, 20_000, 2_000, 2)).toBe(true);
    expect(clearingRefusal(a, c, rules, 20_000, 2_000, 3)).toMatchObject({ result: 'CLEARING_MAX_CONTRACTS', params: { max: 10 } });
    expect(clearingOk(c, rules, 20_001, 0, 0)).toBe(false);
    expect(clearingRefusal(a, c, rules, 20_001, 0, 0)).toMatchObject({ result: 'CLEARING_FINANCIAL_LIMIT', params: { limit: '1000.00', exposure: '1000.01' } });
    expect(clearingRefusal(a, c, rules, 0, 2_500, 0)).toMatchObject({ result: 'ORDER_INSUFFICIENT_FUNDS', params: { amountToDeposit: '5.00', currency: 'RON' } });
  });

  it('contracts round up to whole contracts', () => {
    expect(contractsOf(asset(), 7)).toBe(7);
    expect(contractsOf(asset({ contractQty: 24 }), 25)).toBe(2);
  });
});

describe('reservations and trade accounting', () => {
  it('a resting order reserves value, margin and contracts; release gives them back', () => {
    const { a, c, cas } = setUp(undefined);
    const s = engineState(a, c);
    const o = order(cas, 'bid', 10_000, 10);
    reserve(s, a, o);
    expect([c.openValue, c.reservedMargin, c.openContracts]).toEqual([100_000, 10_000, 10]);
    o.remaining = 4;
    reserve(s, a, o);
    expect([c.openValue, c.reservedMargin, c.openContracts]).toEqual([40_000, 4_000, 4]);
    release(o);
    expect([c.openValue, c.reservedMargin, c.openContracts, o.reservedValue]).toEqual([0, 0, 0, 0]);
  });

  it('a trade adds quantity, value, exposure and trade margin to both sides; a new session settles them', () => {
    const a = asset({ marginBps: 1_000 });
    const buyer = clientOn(a, client('C1'));
    const seller = clientOn(a, client('C2'));
    recordTrade(a, buyer, seller, 3, 10_000);
    expect([buyer.tradedQty[0], buyer.tradedAmount, buyer.tradesMargin, buyer.client.tradedValue]).toEqual([3, 30_000, 3_000, 30_000]);
    expect([seller.tradedQty[1], seller.tradedTotalQty, seller.client.tradesMargin]).toEqual([3, 3, 3_000]);
    settleSession(buyer);
    expect([buyer.tradedAmount, buyer.client.tradedValue, buyer.client.tradesMargin]).toEqual([0, 0, 0]);
  });

  it('releases and re-reserves margin and exposure with the order', () => {
    const h = harness({ asset: { marginBps: 1_000 }, clients: { C3: { clearing: { funds: 100_000, tradingLimit: 1_000_000 } } } });
    const id = h.place('bid', 10_000, 10, 'C3');
    expect(h.engine.getClientFinancials('C3')).toMatchObject({ openValue: 100_000, reservedMargin: 10_000, openContracts: 10 });
    h.suspend(id);
    expect(h.engine.getClientFinancials('C3')).toMatchObject({ openValue: 0, reservedMargin: 0, openContracts: 0 });
    h.activate(id);
    h.place('ask', 10_000, 4, 'C2');
    expect(h.engine.getClientFinancials('C3')).toMatchObject({ openValue: 60_000, reservedMargin: 6_000, tradedValue: 40_000, tradesMargin: 4_000 });
    h.cancel(id);
    expect(h.engine.getClientFinancials('C3')).toMatchObject({ openValue: 0, reservedMargin: 0, tradedValue: 40_000 });
    expectConsistent(h);
  });

  it('a settled session gives up its trades\' exposure and margin at once, open orders keep theirs, and only once', () => {
    const h = harness({ asset: { marginBps: 1_000 }, clients: { C3: { clearing: { funds: 100_000, tradingLimit: 1_000_000 } } } });
    h.place('bid', 10_000, 10, 'C3');
    h.place('ask', 10_000, 4, 'C2');
    expect(h.engine.getClientFinancials('C3')).toMatchObject({ openValue: 60_000, reservedMargin: 6_000, tradedValue: 40_000, tradesMargin: 4_000 });
    // Another session date, or another market, is not this one.
    expect(h.ok({ type: 'settleSessionTrades', at: h.now, marketId: MARKET, sessionDate: '2026-11-22' }).events).toEqual([]);
    expect(h.run({ type: 'settleSessionTrades', at: h.now, marketId: 'NO-SUCH', sessionDate: '2026-11-23' })).toMatchObject({ result: 'REQUEST_INVALID', params: { field: 'marketId' } });
    expect(h.engine.getClientFinancials('C3')).toMatchObject({ tradedValue: 40_000, tradesMargin: 4_000 });

    const settled = h.ok({ type: 'settleSessionTrades', at: h.now, marketId: MARKET, sessionDate: '2026-11-23' });
    expect(settled.events).toEqual([{ type: 'config', kind: 'sessionTradesSettled', id: MARKET, at: expect.any(Number) }]);
    expect(h.engine.getClientFinancials('C3')).toMatchObject({ openValue: 60_000, reservedMargin: 6_000, tradedValue: 0, tradesMargin: 0 });
    expect(h.engine.getClientFinancials('C2')).toMatchObject({ tradedValue: 0, tradesMargin: 0 });
    expectConsistent(h);
    // Nothing left to give up: no events, so the sequencer journals nothing.
    expect(h.ok({ type: 'settleSessionTrades', at: h.now, marketId: MARKET, sessionDate: '2026-11-23' }).events).toEqual([]);
    // A later trade of the same session counts again until its own settlement.
    h.place('ask', 10_000, 1, 'C2');
    expect(h.engine.getClientFinancials('C3')).toMatchObject({ tradedValue: 10_000, tradesMargin: 1_000 });
    expectConsistent(h);
  });
});
