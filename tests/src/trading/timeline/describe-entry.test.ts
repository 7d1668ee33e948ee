import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { messagesFor } from '../../../../src/i18n/messages/index.ts';
import { describeEntry, type EntryFormat } from '../../../../src/trading/timeline/describe-entry.ts';

const formatIn = (locale: 'en' | 'ro'): EntryFormat => ({ intl: createIntl({ locale, messages: messagesFor(locale) }), locale, priceDecimals: 2, quantityDecimals: 1, amountDecimals: 2 });
const at = '2026-11-22T09:01:01.000Z';

describe('describeEntry', () => {
  it('tells a cancellation by the exchange (IOC rest) from a user\'s, in both languages', () => {
    const ioc = describeEntry(formatIn('en'), { seq: 1, at, kind: 'cancelled', reason: 'ioc', openQty: 55, tradedQty: 45 });
    expect(ioc).toMatchObject({ label: 'Cancelled', tone: 'warning', link: null });
    expect(ioc.lines).toEqual(['The rest of an immediate-or-cancel order, cancelled by the exchange: 5.5 open, 4.5 traded.']);
    expect(describeEntry(formatIn('ro'), { seq: 1, at, kind: 'cancelled', reason: 'user', openQty: 55, tradedQty: 0 }).lines).toEqual(['Anulat de un utilizator: 5,5 deschise, 0,0 tranzacționate.']);
  });

  it('says when a margin is not counted, a change kept the terms, and a filled order\'s average', () => {
    expect(describeEntry(formatIn('en'), { seq: 1, at, kind: 'clearing', step: 'marginExposure', transactionId: '9', marginsExposureActive: false, batchId: null, pieces: null, piecesQty: null, singlePieceAmount: null })).toMatchObject({
      label: 'Clearing: margin not counted',
      lines: ['Transaction 9: its margin is not counted until a margin exposure activation.'],
    });
    expect(describeEntry(formatIn('ro'), { seq: 1, at, kind: 'modified', changes: [] }).lines).toEqual(['Modificat, cu aceleași condiții.']);
    expect(describeEntry(formatIn('ro'), { seq: 1, at, kind: 'modified', changes: [{ field: 'qty', from: 100, to: 80 }, { field: 'validityType', from: 'day', to: 'GTC' }] }).lines).toEqual([
      'Cantitate: 10,0 → 8,0',
      expect.stringMatching(/^Valabilitate: .+ → .+$/),
    ]);
    expect(describeEntry(formatIn('en'), { seq: 1, at, kind: 'filled', tradedQty: 100, tradedPrice: 15050 }).lines).toEqual(['All 10.0 traded, at an average price of 150.50.']);
  });

  it('links a workflow to the account tab of its kind, in the reader\'s language', () => {
    const workflow = (workflowKind: 'otc' | 'contract' | 'transfer') =>
      describeEntry(formatIn('en'), { seq: 1, at, kind: 'workflow', transactionId: '9', instanceId: 'wf', workflowKind, status: 'pending', initiatedBy: 'counterparty', lastAction: null });
    expect(workflow('contract').link?.href).toBe('/session/en/my-account/transaction-contracts');
    expect(workflow('otc').link?.href).toBe('/session/en/my-account/otc-transactions');
    expect(workflow('transfer').lines).toEqual(['On transaction 9: pending. Started by the counterparty.']);
  });
});
