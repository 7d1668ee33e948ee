// @vitest-environment jsdom
/** The account tabs of the workflows: OTC transactions, transaction contracts, whitelist requests and partners. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../../protocol/auth.ts';
import { workflowRoutes } from '../../../protocol/workflows.ts';
import { clearReferenceCache } from '../../../src/api/reference.ts';
import { OtcTransactionsTab } from '../../../src/pages/my-account/OtcTransactionsTab.tsx';
import { TransactionContractsTab } from '../../../src/pages/my-account/TransactionContractsTab.tsx';
import { WhitelistPartnersTab } from '../../../src/pages/my-account/WhitelistPartnersTab.tsx';
import { WhitelistRequestsTab } from '../../../src/pages/my-account/WhitelistRequestsTab.tsx';
import { asset } from '../trading/fixtures.ts';
import { filterFrom, signIn, signOut, stubApi, tableRows } from '../pages/my-account/clearing-fixtures.tsx';
import { admin, broker1, broker2, instance, renderWithDialogs } from './workflow-fixtures.tsx';

let currentUser: UserInfo | null = null;
vi.mock('../../../src/auth/use-auth.ts', () => ({ useUser: () => currentUser, useCanAct: () => currentUser !== null }));
vi.mock('../../../src/realtime/RealtimeProvider.tsx', () => ({ useRealtime: () => null }));

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

const rejected = instance('otc', [['activate', broker1], ['reject', broker2, 'Price too high']], { instanceId: 'WF-OTC-1' });

describe('OTC transactions tab', () => {
  it('lists the deals from the reader side, and a row opens to its facts, history and the machine actions', async () => {
    const pending = instance('otc', [['activate', broker1]], { instanceId: 'WF-OTC-2', updatedAt: '2026-11-21T08:00:00.000Z' });
    stubApi({ [workflowRoutes.list]: { body: { instances: [rejected, pending] } }, '/assets': { body: { assets: [asset] } } });
    currentUser = broker2;
    renderWithDialogs('en', <OtcTransactionsTab />);
    await waitFor(() => expect(tableRows('OTC transactions')).toHaveLength(2));
    // broker2 holds the partner side: its own client is RO-TERMO, and it sells what the initiator buys.
    const rows = tableRows('OTC transactions');
    expect(rows[0]).toEqual(expect.arrayContaining(['RO-TERMO', 'RO-HIDRO', 'GSPOT-DA', 'Ask', 'Awaiting partner acceptance', 'Waiting on the partner']));
    expect(rows[1]).toEqual(expect.arrayContaining(['Rejected', 'Price too high']));
    // Neither deal is a transaction yet: each is named by its kind and its two clients (rows in the table's order), never by its instance id.
    const details = screen.getAllByRole('button', { name: 'Details: OTC deal between RO-HIDRO and RO-TERMO, registered 20/11/2026, 10:00:00' });
    expect(details).toHaveLength(2);
    fireEvent.click(details[0]!);
    const panel = screen.getByRole('region', { name: 'OTC deal between RO-HIDRO and RO-TERMO, registered 20/11/2026, 10:00:00' });
    expect(within(panel).getByRole('group', { name: 'Actions' }).textContent).toBe('AcceptReject');
    expect(within(panel).getByText('31')).toBeTruthy();
    // The panel's side is the reader's too, as the row's.
    expect(within(panel).getByText('Ask')).toBeTruthy();
    expect(within(panel).queryByText('Bid')).toBeNull();
    const history = within(panel).getByRole('region', { name: 'History' }).textContent;
    // Who, in what role, what was done (as done, not the button's verb), from → to.
    expect(history).toContain('Broker Unu (Broker) · Registered · New');
    expect(history).toContain('U-broker1 (Broker) · Activated · New → Awaiting partner acceptance');
    fireEvent.click(details[1]!);
    const closed = screen.getByRole('region', { name: 'OTC deal between RO-HIDRO and RO-TERMO, registered 20/11/2026, 10:00:00' });
    expect(within(closed).queryByRole('group', { name: 'Actions' })).toBeNull();
    expect(within(closed).getAllByText('Reason: Price too high').length).toBeGreaterThan(0);
  });

  it('offers "Register OTC deal" to a user who trades, not to the administrator', async () => {
    stubApi({ [workflowRoutes.list]: { body: { instances: [] } }, '/assets': { body: { assets: [asset] } } });
    currentUser = broker1;
    renderWithDialogs('ro', <OtcTransactionsTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Înregistrați o tranzacție OTC' }));
    expect(await screen.findByRole('dialog', { name: 'Înregistrarea unei tranzacții OTC' })).toBeTruthy();
    cleanup();
    currentUser = admin;
    renderWithDialogs('en', <OtcTransactionsTab />);
    await screen.findByText('No OTC deals yet.');
    expect(screen.queryByRole('button', { name: 'Register OTC deal' })).toBeNull();
  });
});

describe('transaction contracts tab', () => {
  it('filters by start and end date, and offers the PDF to a participant', async () => {
    const uploaded = instance('contract', [['upload', broker1]], { instanceId: 'WF-C-1' });
    const older = instance('contract', [], { instanceId: 'WF-C-2', data: { ...uploaded.data, transactionId: '900', date: '2026-10-02', fileName: null, uploadedAt: null } } as never);
    const fetchMock = stubApi({ [workflowRoutes.list]: { body: { instances: [uploaded, older] } }, '/assets': { body: { assets: [asset] } } });
    currentUser = broker2;
    renderWithDialogs('en', <TransactionContractsTab />);
    await waitFor(() => expect(tableRows('Transaction contracts')).toHaveLength(2));
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/session/api/workflows?kind=contract');
    filterFrom('From', '2026-11-01');
    expect(tableRows('Transaction contracts')).toHaveLength(1);
    expect(tableRows('Transaction contracts')[0]).toEqual(expect.arrayContaining(['RO-HIDRO', 'Awaiting partner acceptance']));
    fireEvent.click(screen.getByRole('button', { name: 'Details: Contract of transaction 1003' }));
    expect(screen.getByRole('button', { name: 'Download the contract of transaction 1003 (PDF)' })).toBeTruthy();
    // The panel is titled by the transaction's number, as the row shows it, never by the internal instance id.
    expect(screen.getByRole('heading', { name: 'Contract of transaction 1003' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Contract of transaction 1003' }).textContent).not.toContain('WF-C-1');
  });

  it('titles a contract by its transaction number in Romanian ("Contractul tranzacției 1003"), not by its instance id', async () => {
    const uploaded = instance('contract', [['upload', broker1]], { instanceId: 'wf-ee37c0de-1' });
    stubApi({ [workflowRoutes.list]: { body: { instances: [uploaded] } }, '/assets': { body: { assets: [asset] } } });
    currentUser = broker2;
    renderWithDialogs('ro', <TransactionContractsTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Detalii: Contractul tranzacției 1003' }));
    const panel = screen.getByRole('region', { name: 'Contractul tranzacției 1003' });
    expect(within(panel).getByRole('heading', { level: 3 }).textContent).toBe('Contractul tranzacției 1003');
    expect(document.body.textContent).not.toContain('wf-ee37c0de');
  });

  it('checks the file in the browser before uploading it', async () => {
    const fetchMock = stubApi({ [workflowRoutes.list]: { body: { instances: [] } }, '/assets': { body: { assets: [] } } });
    currentUser = broker1;
    renderWithDialogs('en', <TransactionContractsTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Upload contract' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload a transaction contract' });
    fireEvent.change(within(dialog).getByLabelText('Transaction'), { target: { value: '1003' } });
    fireEvent.change(within(dialog).getByLabelText('Contract (PDF)'), { target: { files: [new File(['x'], 'contract.docx', { type: 'application/msword' })] } });
    expect(within(dialog).getByRole('alert').textContent).toBe('The file contract.docx is not a PDF.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });
});

describe('whitelist tabs', () => {
  it('sends a new request and shows it at once', async () => {
    const sent = instance('whitelist', [], { instanceId: 'WF-W-1' });
    const fetchMock = stubApi({ [workflowRoutes.list]: { body: { instances: [] } }, [`POST ${workflowRoutes.whitelist}`]: { body: sent } });
    currentUser = broker1;
    renderWithDialogs('en', <WhitelistRequestsTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'New request' }));
    const dialog = await screen.findByRole('dialog', { name: 'New whitelist request' });
    fireEvent.change(within(dialog).getByLabelText('Client'), { target: { value: 'RO-HIDRO' } });
    fireEvent.change(within(dialog).getByLabelText('Partner client code'), { target: { value: 'RO-HIDRO' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(within(dialog).getByText('The partner must be another client.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Partner client code'), { target: { value: 'RO-TERMO' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(tableRows('Whitelist requests')).toHaveLength(1));
    expect(tableRows('Whitelist requests')[0]).toEqual(expect.arrayContaining(['RO-HIDRO', 'RO-TERMO', 'Allow trading', 'Pending']));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]?.body))).toEqual({ clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', type: 'ALLOW_TRADING' });
  });

  it('lists the partners with their status and since when', async () => {
    stubApi({
      [workflowRoutes.whitelistPartners]: {
        body: { relations: [{ clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', partnerName: 'Termo SA', status: 'ACTIVE', requestId: 'WF-W-1', updatedAt: '2026-11-20T10:00:00.000Z' }] },
      },
    });
    currentUser = broker1;
    renderWithDialogs('ro', <WhitelistPartnersTab />);
    await waitFor(() => expect(tableRows('Parteneri din lista albă')[0]).toEqual(expect.arrayContaining(['RO-HIDRO', 'RO-TERMO', 'Termo SA', 'Activă'])));
    expect(tableRows('Parteneri din lista albă')).toHaveLength(1);
  });
});
