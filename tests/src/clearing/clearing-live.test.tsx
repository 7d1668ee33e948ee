// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { NEVER, Subject, type Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes, type ClearingChange } from '../../../protocol/clearing.ts';
import { destinations } from '../../../protocol/destinations.ts';
import type { Connection } from '../../../streams/connection.ts';
import { clearingRefresh$ } from '../../../src/clearing/clearing-live.ts';
import { WarrantiesTab } from '../../../src/pages/my-account/WarrantiesTab.tsx';
import { FinancialReportCard } from '../../../src/trading/account/FinancialReportCard.tsx';
import { list, renderIn, signIn, signOut, stubApi, tableRows, warranty } from '../pages/my-account/clearing-fixtures.tsx';

// The app's one connection, faked: the clearing queue is a subject, every other destination stays silent.
const clearingQueue = new Subject<ClearingChange>();
const watch = vi.fn((destination: string): Observable<unknown> => (destination === destinations.clearing ? clearingQueue : NEVER));
let connection = { watch$: watch } as unknown as Connection;

vi.mock('../../../src/realtime/RealtimeProvider.tsx', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/realtime/RealtimeProvider.tsx')>()),
  useRealtime: () => ({ connection }),
}));

const change = (kind: ClearingChange['kind']): ClearingChange => ({ kind, clientCode: 'RO-HIDRO', marketId: null, sessionDate: null, at: '2026-11-24T10:00:00.000Z' });

beforeEach(() => {
  // A fresh connection per test, so its shared streams start anew.
  connection = { watch$: watch } as unknown as Connection;
  watch.mockClear();
  signIn();
});
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('clearing changes on /user/queue/clearing', () => {
  it('refetch the open tab without a reload, only for the kinds it shows', async () => {
    let answer = [warranty()];
    const fetchMock = stubApi({ [clearingRoutes.warranties]: () => list(answer) });
    renderIn('en', <WarrantiesTab />);
    await waitFor(() => expect(tableRows('Warranties')).toHaveLength(1));
    answer = [warranty(), warranty({ clientWarrantyId: 'W2', warrantyNumber: 'SGB-200' })];
    act(() => clearingQueue.next(change('nomination')));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    act(() => clearingQueue.next(change('warranty')));
    await waitFor(() => expect(tableRows('Warranties')).toHaveLength(2));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('refresh the financial report on a margin call, over the one shared subscription of the queue', async () => {
    let marginCall = 0;
    stubApi({
      [clearingRoutes.financialReport]: () =>
        list([
          {
            clientCode: 'RO-HIDRO',
            clientName: 'Hidroelectrica SA',
            currency: 'RON',
            clearingLimit: 100_00,
            tradingLimit: null,
            initialMargin: { orderPart: 0, transactionPart: 0, unlocked: 0, total: 0 },
            variationMargin: { orderPart: 0, transactionPart: 0, unlocked: 0, total: 0 },
            deliveryMargin: { orderPart: 0, transactionPart: 0, unlocked: 0, total: 0 },
            totalExposure: 0,
            unpaidAmount: 0,
            withUnpaid: { currentMarginRequirement: 0, creditLimit: marginCall === 0 ? 100_00 : 0, marginCall },
            withoutUnpaid: { currentMarginRequirement: 0, creditLimit: 100_00, marginCall: 0 },
            engineFunds: null,
            at: '2026-11-24T10:00:00.000Z',
          },
        ]),
      [clearingRoutes.financialInfo]: list([]),
    });
    renderIn('en', <FinancialReportCard />);
    await screen.findByRole('table', { name: 'Margin call of RO-HIDRO' });
    expect(screen.queryByText(/Margin call RON/)).toBeNull();
    marginCall = 250_00;
    act(() => clearingQueue.next(change('margin_call')));
    expect(await screen.findByText(/Margin call RON/)).toBeTruthy();
    // Report and info both listen; the queue is subscribed once.
    expect(watch.mock.calls.filter(([destination]) => destination === destinations.clearing)).toHaveLength(1);
  });

  it('a burst of changes refetches once; without a connection nothing is watched', async () => {
    vi.useFakeTimers();
    const seen: unknown[] = [];
    const subscription = clearingRefresh$(connection, ['settlement', 'payment']).subscribe((value) => seen.push(value));
    clearingQueue.next(change('settlement'));
    clearingQueue.next(change('payment'));
    clearingQueue.next(change('settlement'));
    vi.advanceTimersByTime(299);
    expect(seen).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(seen).toHaveLength(1);
    clearingQueue.next(change('warranty'));
    vi.advanceTimersByTime(1000);
    expect(seen).toHaveLength(1);
    subscription.unsubscribe();
    let completed = false;
    clearingRefresh$(null, ['settlement']).subscribe({ complete: () => (completed = true) });
    expect(completed).toBe(true);
  });
});
