// @vitest-environment jsdom
/** Transactions rows offer transfer, margin activation and contract upload to their participants only, each behind a confirmation. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../../protocol/auth.ts';
import { transactionSchema, type Transaction } from '../../../protocol/market-data.ts';
import { workflowRoutes } from '../../../protocol/workflows.ts';
import { clearReferenceCache } from '../../../src/api/reference.ts';
import { TransactionsTab } from '../../../src/pages/my-account/TransactionsTab.tsx';
import { mayStartTransactionWorkflows } from '../../../src/workflows/TransactionWorkflowActions.tsx';
import { asset } from '../trading/fixtures.ts';
import { signIn, signOut, stubApi } from '../pages/my-account/clearing-fixtures.tsx';
import { admin, broker1, broker2, instance, renderWithDialogs, terminal1 } from './workflow-fixtures.tsx';

let currentUser: UserInfo | null = null;
vi.mock('../../../src/auth/use-auth.ts', () => ({ useUser: () => currentUser, useCanAct: () => currentUser !== null }));
vi.mock('../../../src/realtime/RealtimeProvider.tsx', () => ({ useRealtime: () => null }));

const transaction = (partial: Partial<Transaction> = {}): Transaction =>
  transactionSchema.parse({
    transactionId: '1001',
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
    marginsExposureActive: false,
    externalTransactionId: null,
    gasfwTransactionId: null,
    transferTimestamp: null,
    parentTransactionId: null,
    grandParentTransactionId: null,
    splitTimestamp: null,
    ...partial,
  });

const mine = transaction();
const others = transaction({ transactionId: '1002', buyer: 'RO-INDUS', seller: 'SIM-NORD-1' });

beforeEach(() => {
  clearReferenceCache();
  signIn();
});
afterEach(() => {
  cleanup();
  signOut();
  currentUser = null;
  vi.unstubAllGlobals();
});

function rowOf(transactionId: string, table = 'Transactions'): HTMLElement {
  return screen.getByRole('table', { name: table }).querySelector(`tr[data-row-key="${transactionId}"]`) as HTMLElement;
}

describe('transaction row workflow actions', () => {
  it('are for participants who can trade, never for the administrator or a terminal', () => {
    expect(mayStartTransactionWorkflows(mine, broker1)).toBe(true);
    expect(mayStartTransactionWorkflows(mine, broker2)).toBe(true);
    expect(mayStartTransactionWorkflows(others, broker1)).toBe(false);
    expect(mayStartTransactionWorkflows(mine, admin)).toBe(false);
    expect(mayStartTransactionWorkflows(transaction({ seller: 'RO-GAZEST' }), terminal1)).toBe(false);
    // Transferred to CCP already: its children carry it on.
    expect(mayStartTransactionWorkflows({ ...mine, status: 'superseded' }, broker1)).toBe(false);
  });

  it('shows the actions on the participant rows only, and none to the administrator', async () => {
    stubApi({ '/transactions': { body: { items: [mine, others], seq: 7 } }, '/assets': { body: { assets: [asset] } } });
    currentUser = broker1;
    renderWithDialogs('en', <TransactionsTab />);
    await waitFor(() => expect(rowOf('1001')).toBeTruthy());
    expect(within(rowOf('1001')).getByRole('button', { name: 'Transfer transaction 1001 to CCP' })).toBeTruthy();
    expect(within(rowOf('1001')).getByRole('button', { name: 'Activate margin exposure of transaction 1001' })).toBeTruthy();
    expect(within(rowOf('1001')).getByRole('button', { name: 'Upload the contract of transaction 1001' })).toBeTruthy();
    expect(within(rowOf('1002')).queryAllByRole('button')).toHaveLength(0);
    cleanup();
    currentUser = admin;
    renderWithDialogs('en', <TransactionsTab />);
    await waitFor(() => expect(rowOf('1001')).toBeTruthy());
    expect(screen.queryByRole('columnheader', { name: 'Workflows' })).toBeNull();
    expect(within(rowOf('1001')).queryAllByRole('button')).toHaveLength(0);
  });

  it('transfers all of it by default, or a valid part, after a confirmation', async () => {
    const fetchMock = stubApi({
      '/transactions': { body: { items: [mine], seq: 7 } },
      '/assets': { body: { assets: [asset] } },
      [`POST ${workflowRoutes.transfer}`]: { body: instance('transfer') },
    });
    currentUser = broker1;
    renderWithDialogs('en', <TransactionsTab />);
    await waitFor(() => expect(rowOf('1001')).toBeTruthy());
    fireEvent.click(within(rowOf('1001')).getByRole('button', { name: 'Transfer transaction 1001 to CCP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transfer transaction 1001 to the central counterparty' });
    const qty = within(dialog).getByLabelText('Quantity (MWh)') as HTMLInputElement;
    expect(qty.value).toBe('2.5');
    fireEvent.change(qty, { target: { value: '3' } });
    expect(within(dialog).getByText('Quantity must be between 1.0 and 2.5 MWh')).toBeTruthy();
    fireEvent.change(qty, { target: { value: '1,5' } });
    expect(within(dialog).getByText('Quantity must be between 1.0 and 2.5 MWh')).toBeTruthy();
    fireEvent.change(qty, { target: { value: '2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Request transfer' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Transfer 2.0 MWh of transaction 1001 to the central counterparty?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Request transfer' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Transfer of transaction 1001 requested.'));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(post[0]).toBe('/session/api/workflows/transfer');
    expect(JSON.parse(String(post[1]?.body))).toEqual({ transactionId: '1001', qty: 2_0 });
  });

  it('asks to confirm a margin activation and shows the refusal in Romanian', async () => {
    const fetchMock = stubApi({
      '/transactions': { body: { items: [mine], seq: 7 } },
      '/assets': { body: { assets: [asset] } },
      [`POST ${workflowRoutes.marginActivation}`]: { status: 409, body: { error: { code: 'MARGIN_EXPOSURE_ALREADY_ACTIVE', params: { transactionId: '1001' } } } },
    });
    currentUser = broker2;
    renderWithDialogs('ro', <TransactionsTab />);
    await waitFor(() => expect(rowOf('1001', 'Tranzacții')).toBeTruthy());
    fireEvent.click(within(rowOf('1001', 'Tranzacții')).getByRole('button', { name: 'Activați expunerea în marjă a tranzacției 1001' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Activați' }));
    // The row's own message (once the modal confirmation has closed and the page is in the accessibility tree again).
    await waitFor(() => expect(within(rowOf('1001', 'Tranzacții')).getByRole('alert').textContent).toBe('Expunerea în marje este deja activă pentru tranzacția 1001.'));
    expect(JSON.parse(String(fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')![1]?.body))).toEqual({ transactionId: '1001' });
  });
});
