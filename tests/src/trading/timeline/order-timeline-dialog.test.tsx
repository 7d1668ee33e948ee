// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderTimeline } from '../../../../protocol/order-timeline.ts';
import { ApiRequestError } from '../../../../src/api/errors.ts';
import { OrderTimelineDialog } from '../../../../src/trading/timeline/OrderTimelineDialog.tsx';
import { WithIntl } from '../../components/intl.tsx';
import { asset, order } from '../fixtures.ts';

afterEach(cleanup);

const at = '2026-11-22T09:01:01.000Z';
const timeline: OrderTimeline = {
  order: order({ orderId: '7', way: 'ask', status: 'cancelled', price: 15100, qty: 1000, tradedQty: 700, tradedPrice: 15100, offeredQty: 300, clientCode: 'RO-HIDRO' }),
  amountDecimals: 2,
  readModel: { seq: 77, behindBy: 0 },
  entries: [
    { seq: 1, at, kind: 'entered', price: 15000, qty: 1000, validityType: 'day', validity: null, suspended: false },
    { seq: 2, at, kind: 'modified', changes: [{ field: 'price', from: 15000, to: 15100 }, { field: 'suspended', from: false, to: true }] },
    { seq: 3, at, kind: 'fill', transactionId: '1', price: 15100, qty: 400, remainingQty: 600 },
    { seq: 4, at, kind: 'fill', transactionId: '2', price: 15100, qty: 300, remainingQty: 300 },
    { seq: 5, at, kind: 'expired', openQty: 300, tradedQty: 700 },
    { seq: 6, at, kind: 'clearing', step: 'marginExposure', transactionId: '1', marginsExposureActive: true, batchId: null, pieces: null, piecesQty: null, singlePieceAmount: null },
    { seq: 7, at, kind: 'clearing', step: 'reported', transactionId: '1', marginsExposureActive: null, batchId: 'CB-GAS-SPOT-2026-11-22', pieces: 4, piecesQty: 100, singlePieceAmount: 151000 },
    {
      seq: 8, at: '2026-11-22T20:00:00.000Z', kind: 'settlement', transactionId: '1', settlementRunId: 'SR-GAS-SPOT-2026-11-22', marketId: 'GAS-SPOT', sessionDate: '2026-11-22',
      noteId: 'DN-GAS-SPOT-RO-HIDRO-2026-11-22', settlementPrice: 15100,
      obligations: [{ obligationId: 'OB-1-S', kind: 'transaction', direction: 'receive', amount: 604000, currency: 'RON', dueDate: '2026-11-23', status: 'unpaid' }],
    },
    { seq: 9, at: '2026-11-22T20:05:00.000Z', kind: 'workflow', transactionId: '1', instanceId: 'wf-1', workflowKind: 'marginActivation', status: 'active', initiatedBy: 'ownSide', lastAction: { action: 'approve', by: 'exchange', at: '2026-07-16T21:30:00.000Z' } },
  ],
};

function renderTimeline(locale: 'en' | 'ro', data: OrderTimeline | Error = timeline) {
  const load = vi.fn(async () => {
    if (data instanceof Error) throw data;
    return data;
  });
  render(
    <WithIntl locale={locale}>
      <OrderTimelineDialog orderId="7" assets={[asset]} onClose={() => {}} load={load} />
    </WithIntl>,
  );
  return load;
}

const items = async (name: string) => within(await screen.findByRole('list', { name })).getAllByRole('listitem');
/** The row's text with the number format's no-break spaces as plain ones. */
const plain = (row: HTMLElement) => (row.textContent ?? '').replace(/\u00a0|\u202f/g, ' ');

describe('OrderTimelineDialog', () => {
  it('shows every entry with its own label and text, in English', async () => {
    const load = renderTimeline('en');
    expect(load).toHaveBeenCalledWith('7', expect.any(AbortSignal));
    expect(screen.getByRole('dialog', { name: 'Timeline of order 7' })).toBeTruthy();
    const rows = await items('Order timeline');
    expect(rows.map((row) => row.dataset.kind)).toEqual(['entered', 'modified', 'fill', 'fill', 'expired', 'clearing', 'clearing', 'settlement', 'workflow']);
    const text = rows.map(plain);
    expect(text[0]).toContain('Entered');
    expect(text[0]).toContain('Price 150.00 · quantity 100.0 · validity Day');
    expect(text[0]).toContain('22/11/2026, 11:01:01 EET');
    expect(text[1]).toContain('Price: 150.00 → 151.00');
    expect(text[1]).toContain('Suspended (taken off the book)');
    expect(text[2]).toContain('40.0 at 151.00 · transaction 1 · 60.0 still open');
    expect(text[4]).toContain('Expired at the end of its validity: 30.0 open, 70.0 traded.');
    expect(text[5]).toContain('Clearing: margin blocked');
    expect(text[6]).toContain('Transaction 1 in batch CB-GAS-SPOT-2026-11-22: 4 pieces of 10.0, 1,510.00 each.');
    expect(text[7]).toContain('Settlement');
    expect(text[7]).toContain('settlement price 151.00');
    expect(text[7]).toContain('Transaction: to receive RON 6,040.00, due');
    expect(text[7]).toContain('Unpaid');
    expect(text[8]).toContain('Workflow: Margin exposure activation');
    expect(text[8]).toContain('Started by your side.');
    expect(text[8]).toContain('by the exchange');
    // Summer time is EEST (the zone in force at that instant).
    expect(text[8]).toContain('00:30:00 EEST');
    expect(within(rows[7]!).getByRole('link', { name: 'See the settlement notes' }).getAttribute('href')).toBe('/session/en/my-account/daily-settlement-notes');
    expect(within(rows[8]!).getByRole('link', { name: 'See the workflow' }).getAttribute('href')).toBe('/session/en/my-account/transactions');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the same in Romanian, with Romanian numbers and the formal address', async () => {
    renderTimeline('ro');
    expect(screen.getByRole('dialog', { name: 'Cronologia ordinului 7' })).toBeTruthy();
    const text = (await items('Cronologia ordinului')).map(plain);
    expect(text[0]).toContain('Introdus');
    expect(text[0]).toContain('Preț 150,00 · cantitate 100,0');
    expect(text[0]).toContain('11:01:01 EET');
    expect(text[1]).toContain('Preț: 150,00 → 151,00');
    expect(text[2]).toContain('40,0 la 151,00 · tranzacția 1 · 60,0 rămase deschise');
    expect(text[4]).toContain('Expirat');
    expect(text[5]).toContain('Compensare: marjă blocată');
    expect(text[6]).toContain('4 bucăți de 10,0, fiecare de 1.510,00');
    expect(text[7]).toContain('Tranzacție: de încasat 6.040,00 RON');
    expect(text[7]).toContain('Neplătită');
    expect(text[8]).toContain('Inițiat de partea dumneavoastră.');
    expect(text[8]).toContain('00:30:00 EEST');
    expect(screen.getAllByRole('link', { name: 'Vedeți fluxul' })[0]!.getAttribute('href')).toBe('/session/my-account/transactions');
  });

  it('says when the read model is behind, and shows a refusal in the reader\'s language', async () => {
    renderTimeline('en', { ...timeline, readModel: { seq: 70, behindBy: 3 } });
    expect((await screen.findByRole('status')).textContent).toContain('3 updates behind');
    cleanup();
    renderTimeline('ro', new ApiRequestError('ORDER_NOT_FOUND', { orderId: '7' }, 404));
    expect((await screen.findByRole('alert')).textContent).toContain('7');
  });
});
