import { describe, expect, it } from 'vitest';
import { ownBestFromOrders } from '../../../src/trading/live.ts';
import { mergeTransactions, type TransactionRow } from '../../../src/trading/TransactionsPanel.tsx';
import { order } from './fixtures.ts';

describe('own best prices from own orders', () => {
  it('takes the highest live bid and lowest live ask per asset, skipping suspended and finished orders', () => {
    const table = ownBestFromOrders([
      order({ orderId: 'a', way: 'bid', price: 15000 }),
      order({ orderId: 'b', way: 'bid', price: 15050, status: 'tradedPartially' }),
      order({ orderId: 'c', way: 'bid', price: 15100, suspended: true }),
      order({ orderId: 'd', way: 'ask', price: 15500 }),
      order({ orderId: 'e', way: 'ask', price: 15300, status: 'cancelled' }),
      order({ orderId: 'f', assetId: 'GSPOT-WD', way: 'ask', price: 14000, status: 'traded' }),
    ]);
    expect(table.get('GSPOT-DA')).toMatchObject({ ownBestBid: 15050, ownBestAsk: 15500 });
    // An asset whose orders all ended shows no own price (rather than a stale one).
    expect(table.get('GSPOT-WD')).toMatchObject({ ownBestBid: null, ownBestAsk: null });
  });

  it('keeps pushed own best rows for assets without own orders', () => {
    const pushed = new Map([['OTHER', { assetId: 'OTHER', ownBestBid: 1, ownBestAsk: 2, lastUpdate: '2026-11-22T09:00:00.000Z' }]]);
    expect(ownBestFromOrders([order()], pushed).get('OTHER')).toEqual(pushed.get('OTHER'));
  });
});

describe('transactions merge', () => {
  const trade = (id: string, timestamp: string, partial: Partial<TransactionRow> = {}): TransactionRow => ({
    transactionId: id,
    assetId: 'GSPOT-DA',
    price: 15000,
    qty: 10,
    noCnt: 10,
    aggressor: 'bid',
    txDate: '2026-11-22',
    timestamp,
    ...partial,
  });

  it('keeps one row per transaction, newest first, with the parties once known', () => {
    const merged = mergeTransactions(
      [trade('1', '2026-11-22T10:00:00.000Z'), trade('2', '2026-11-22T10:05:00.000Z')],
      [trade('1', '2026-11-22T10:00:00.000Z', { buyer: 'RO-TERMO', seller: 'RO-HIDRO' }), trade('3', '2026-11-22T10:01:00.000Z')],
    );
    expect(merged.map((row) => row.transactionId)).toEqual(['2', '3', '1']);
    expect(merged[2]).toMatchObject({ buyer: 'RO-TERMO', seller: 'RO-HIDRO' });
  });

  it('an update pushed on the trades queue (superseded, margins switched) replaces the row it updates, wherever the row came from', () => {
    const listed = trade('1', '2026-11-22T10:00:00.000Z', { buyer: 'RO-TERMO', seller: 'RO-HIDRO', status: 'active', marginsExposureActive: true } as Partial<TransactionRow>);
    const live = [listed, { ...listed, status: 'superseded', updatedAt: '2026-11-22T11:00:00.000Z' } as TransactionRow, trade('2', '2026-11-22T11:00:00.000Z')];
    const merged = mergeTransactions([listed], live);
    expect(merged.map((row) => row.transactionId)).toEqual(['2', '1']);
    expect(merged[1]).toMatchObject({ status: 'superseded', buyer: 'RO-TERMO', timestamp: '2026-11-22T10:00:00.000Z' });
    // a margin switch after it: the latest copy wins
    const again = mergeTransactions([listed], [...live, { ...listed, status: 'superseded', marginsExposureActive: false, updatedAt: '2026-11-22T12:00:00.000Z' } as TransactionRow]);
    expect(again[1]).toMatchObject({ status: 'superseded', marginsExposureActive: false });
  });
});
