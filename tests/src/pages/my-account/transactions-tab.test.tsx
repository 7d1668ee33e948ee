// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { transactionSchema, type Transaction } from '../../../../protocol/market-data.ts';
import { clearReferenceCache } from '../../../../src/api/reference.ts';
import { TransactionsTab } from '../../../../src/pages/my-account/TransactionsTab.tsx';
import { asset } from '../../trading/fixtures.ts';
import { exportCsv, filterFrom, renderIn, signIn, signOut, sortBy, stubApi, tableRows } from './clearing-fixtures.tsx';

const transaction = (partial: Partial<Transaction> = {}): Transaction =>
  transactionSchema.parse({
    transactionId: 'T-1',
    assetId: 'GSPOT-DA',
    price: 152_40,
    qty: 2_5,
    noCnt: 1,
    aggressor: 'bid',
    txDate: '2026-11-23',
    timestamp: '2026-11-23T08:15:00.000Z',
    buyer: 'RO-HIDRO',
    seller: 'RO-TERMO',
    buyOrderId: 'O1',
    sellOrderId: 'O2',
    marginsExposureActive: true,
    externalTransactionId: null,
    gasfwTransactionId: null,
    transferTimestamp: null,
    parentTransactionId: null,
    grandParentTransactionId: null,
    splitTimestamp: null,
    ...partial,
  });

const rows = [transaction(), transaction({ transactionId: 'T-2', price: 149_00, qty: 10_0, aggressor: 'ask', timestamp: '2026-11-21T22:10:00.000Z', txDate: '2026-11-22' })];

beforeEach(() => {
  clearReferenceCache();
  signIn();
});
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('transactions tab', () => {
  it('lists the transactions from the transactions API with the assets’ decimals; sorts, filters by exchange date, pages and exports', async () => {
    const fetchMock = stubApi({ '/transactions': { body: { items: rows, seq: 7 } }, '/assets': { body: { assets: [asset] } } });
    renderIn('en', <TransactionsTab />);
    await waitFor(() => expect(tableRows('Transactions')).toHaveLength(2));
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/session/api/transactions?scope=mine');
    expect(tableRows('Transactions')[0]).toEqual(expect.arrayContaining(['T-1', 'GSPOT-DA', '152.40', '2.5', 'Bid']));
    sortBy('Transactions', 'Price');
    expect(tableRows('Transactions').map((cells) => cells[1])).toEqual(['T-2', 'T-1']);
    expect(screen.getByText('1-2 of 2')).toBeTruthy();
    const file = await exportCsv();
    expect(file.fileName).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file.text).toBe(
      '\uFEFFTime,Transaction,Asset,Price,Quantity,Aggressor,Buyer,Seller\r\n' +
        '2026-11-21T22:10:00.000Z,T-2,GSPOT-DA,149.00,10.0,ask,RO-HIDRO,RO-TERMO\r\n' +
        '2026-11-23T08:15:00.000Z,T-1,GSPOT-DA,152.40,2.5,bid,RO-HIDRO,RO-TERMO\r\n',
    );
    // 22:10 UTC on the 21st is the 22nd in Bucharest: a range from the 22nd keeps it.
    filterFrom('From', '2026-11-22');
    expect(screen.getByText('1-2 of 2')).toBeTruthy();
    filterFrom('From', '2026-11-23');
    expect(screen.getByText('1-1 of 1')).toBeTruthy();
  });

  it('says when there are none, in Romanian', async () => {
    stubApi({ '/transactions': { body: { items: [], seq: 7 } }, '/assets': { body: { assets: [asset] } } });
    renderIn('ro', <TransactionsTab />);
    expect(await screen.findByText('Nu există tranzacții de afișat.')).toBeTruthy();
  });
});
